import threading
import time

import cv2
import numpy as np

from tests.vision.camera_chain import camera
from vision.reader import PileReader
from vision.scene import make_scene
from vision.sources import FrameSource
from vision.still import StillCapture, Stillness, read_still, small_gray


class _TableCamera(FrameSource):
    """A fake camera over a real table photo: video frames are the photo at 640 px (a hand
    moves across them until ``hand_leaves``); a still, on request, is the photo at full
    size. Records every still request and when it came."""
    name = "table"
    interval = 0.03

    def __init__(self, photo: np.ndarray, *, hand_frames: int = 12):
        super().__init__()
        self.photo = photo
        self.video = cv2.resize(photo, (640, 360), interpolation=cv2.INTER_AREA)
        self.hand_frames = hand_frames
        self.grabs = 0
        self.still_requests: list[int] = []

    def _grab(self):
        self.grabs += 1
        img = self.video.copy()
        if self.grabs <= self.hand_frames:  # a hand (a dark blob) sweeping over the pile
            x = 40 * self.grabs % 600
            cv2.ellipse(img, (x, 200), (70, 110), 20, 0, 360, (60, 90, 150), -1)
        return img

    def _grab_still(self):
        self.still_requests.append(self.grabs)
        return self.photo.copy()


def test_stillness_needs_half_a_second_without_motion():
    s = Stillness(still_s=0.5, motion_level=2.0)
    a = np.full((90, 160), 100, np.uint8)
    b = a.copy()
    b[20:60, 30:90] = 30  # a hand
    assert not s.update(a, 0.0)
    assert not s.update(b, 0.1) and s.motion > 2
    assert not s.update(a, 0.2)
    assert not s.update(a, 0.5)
    assert s.update(a, 0.71)
    s.reset()
    rng = np.random.default_rng(1)
    frame = np.full((360, 640), 120, np.float32)
    for i in range(8):  # sensor noise (sigma 4) on a still table is not motion
        noisy = np.clip(frame + rng.normal(0, 4, frame.shape), 0, 255).astype(np.uint8)
        settled = s.update(small_gray(noisy), i * 0.1)
    assert settled and s.motion < 1.0


def test_when_the_hand_leaves_one_full_resolution_still_is_taken_and_read(one_core):
    scene = make_scene(5, cards=12, px_per_mm=2.6, glare=0)
    photo = camera(scene.image, np.random.default_rng(5), blur=0.6, sharpen=0.5, jpeg=90)
    src = _TableCamera(photo, hand_frames=12)
    got, light = [], []
    done = threading.Event()

    def on_still(read):
        got.append(read)
        done.set()

    with src, StillCapture(src, PileReader(), on_still=on_still, light=light.append,
                           stillness=Stillness(still_s=0.3)):
        assert done.wait(20)
        time.sleep(0.5)  # the pile stays still: no second still
    assert len(got) == 1 and len(src.still_requests) == 1
    assert src.still_requests[0] > src.hand_frames  # not while the hand was in view
    read = got[0]
    assert read.why == "still" and read.frame.still and read.frame.image.shape == photo.shape
    assert set(read.result.cards) == set(scene.cards)
    assert light == [True, False]


def test_scan_takes_a_still_at_once_even_while_things_move(one_core):
    scene = make_scene(6, cards=4, px_per_mm=2.6, glare=0)
    src = _TableCamera(scene.image, hand_frames=10 ** 6)  # the hand never leaves
    got = []
    done = threading.Event()
    with src, StillCapture(src, PileReader(), on_still=lambda r: (got.append(r), done.set())) as cap:
        src.latest(3)
        cap.request()
        assert done.wait(20)
    assert got[0].why == "scan" and set(got[0].result.cards) == set(scene.cards)


def test_a_camera_that_fails_the_still_is_reported_not_raised():
    class _NoStill(_TableCamera):
        def _grab_still(self):
            from vision.errors import CameraLostError
            raise CameraLostError("sensor mode switch failed")

    src = _NoStill(np.zeros((360, 640, 3), np.uint8), hand_frames=0)
    errors, lights = [], []
    done = threading.Event()
    with src, StillCapture(src, PileReader(), on_still=lambda r: None, light=lights.append,
                           on_error=lambda e: (errors.append(e), done.set())) as cap:
        src.latest(3)
        cap.request()
        assert done.wait(10)
    assert "mode switch" in str(errors[0]) and lights == [True, False]


class _GlossyCamera(_TableCamera):
    """A still at the automatic exposure burns out the lamp's reflection over one sticker;
    a darker one (where the camera supports it) does not."""
    supports_exposure = True

    def __init__(self, photo, glare_at, **kw):
        super().__init__(photo, **kw)
        self.glare_at = glare_at
        self.scales = []

    def _grab_still(self, exposure_scale=1.0):
        self.scales.append(exposure_scale)
        img = self.photo.copy()
        if exposure_scale == 1.0:
            cv2.circle(img, self.glare_at, 30, (255, 255, 255), -1)
            img = cv2.GaussianBlur(img, (0, 0), 1.0)
        return img


def _glare_case():
    scene = make_scene(8, cards=8, px_per_mm=2.6, glare=0)
    first = PileReader().read(scene.image)
    d = first.detections[0]
    others = [x for x in first.detections if x.card != d.card]
    return scene, d, others


def test_glare_over_a_sticker_takes_a_second_darker_still(one_core):
    scene, d, _ = _glare_case()
    centre = tuple(int(v) for v in d.centre)
    src = _GlossyCamera(scene.image, centre, hand_frames=0)
    got, done = [], threading.Event()
    with src, StillCapture(src, PileReader(), on_still=lambda r: (got.append(r), done.set())) as cap:
        src.latest(3)
        cap.request()
        assert done.wait(20)
    read = got[0]
    assert src.scales == [1.0, 0.4] and read.darker
    assert set(read.result.cards) == set(scene.cards) and read.glare == ()


def test_without_exposure_control_glare_is_reported_for_the_player(one_core):
    scene, d, _ = _glare_case()
    centre = tuple(int(v) for v in d.centre)
    src = _GlossyCamera(scene.image, centre, hand_frames=0)
    src.supports_exposure = False
    got, done = [], threading.Event()
    with src, StillCapture(src, PileReader(), on_still=lambda r: (got.append(r), done.set())) as cap:
        src.latest(3)
        cap.request()
        assert done.wait(20)
    read = got[0]
    assert src.scales == [1.0] and not read.darker and read.glare
    assert any(np.abs(q.mean(axis=0) - centre).max() < 40 for q in read.glare)
    assert set(read.result.cards) <= set(scene.cards)


def test_the_darker_still_of_a_realistic_scene_reads_what_the_glare_hid(one_core):
    """The realistic camera at 0.4x the exposure: the SAME scene (same cards, same places),
    the lamp's reflection no longer burnt out; read_still (StillCapture's own merge) asks for
    it because of the glare and gets every card, none wrong."""
    from tests.realcam.render import render

    kw = dict(mode="1080p", cards=14, layout="spread", lighting="harsh", glare=1.6, distractors=(), height_cm=55)
    shot, dark = render(1, **kw), render(1, exposure_scale=0.4, **kw)
    assert [t.code for t in shot.truth] == [t.code for t in dark.truth]
    assert all(np.allclose(a, b) for t, u in zip(shot.truth, dark.truth) for a, b in zip(t.marker_quads, u.marker_quads))
    g, gd = (cv2.cvtColor(s.image, cv2.COLOR_BGR2GRAY) for s in (shot, dark))
    assert (g >= 250).mean() > 0.02 and (gd >= 250).mean() < 0.002  # less clips
    assert gd.mean() < 0.8 * g.mean()
    reader = PileReader()
    alone = set(reader.read(shot.image).codes)
    asked = []
    read = read_still(reader, shot.image, lambda: asked.append(1) or dark.image)
    got = set(read.result.codes)
    assert asked and read.darker
    assert len(alone & shot.visible) < len(shot.visible) == len(got & shot.visible)
    assert not shot.wrong(got)
    # no glare: the darker still is not asked for
    calm = render(5, **kw)
    assert not read_still(reader, calm.image, lambda: asked.append(2) or calm.image).darker and asked == [1]
