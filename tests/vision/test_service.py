import threading
import time

import cv2

from vision.reader import PileReader
from vision.scene import make_scene
from vision.service import StickerService
from vision.sources import NO_CAMERA, FileSource, FrameSource, OpenCVSource


def _folder(tmp_path, n=4):
    truth = set()
    for i in range(n):
        s = make_scene(40 + i, cards=6, blur=0.4, glare=0)
        s.write(tmp_path / f"{i:02d}.jpg")
        truth |= set(s.cards)
    return truth


def test_frames_and_cards_come_on_their_threads_and_stop_joins(tmp_path):
    truth = _folder(tmp_path)
    frames, cards, statuses = [], [], []
    svc = StickerService(FileSource(tmp_path, fps=30), PileReader(),
                         on_frame=lambda f: frames.append(threading.current_thread().name),
                         on_cards=lambda read: cards.append((threading.current_thread().name, read.new)),
                         on_status=statuses.append)
    svc.start()
    deadline = time.monotonic() + 10
    while len(svc.accumulator.cards) < len(truth) and time.monotonic() < deadline:
        time.sleep(0.05)
    threads = list(svc._threads)
    svc.stop()
    assert not any(t.is_alive() for t in threads)
    assert set(frames) == {"camera-capture"}
    assert {name for name, _ in cards} == {"camera-recognition"}
    assert set(svc.accumulator.cards) == truth
    ticked = [c for _, new in cards for c in new]
    assert len(ticked) == len(set(ticked)) == len(truth)  # each card ticked once
    assert statuses[0] == "running"
    frame, result = svc.latest_read
    photo = svc.evidence()
    assert photo.shape == frame.image.shape and (photo != frame.image).any()


class HeldReader(PileReader):
    """A real reader held inside its first read until the test lets it go (a Pi busy for as
    long as it takes): whatever the machine's load, the preview is seen going on meanwhile."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.inside, self.release = threading.Event(), threading.Event()

    def read(self, image):
        self.inside.set()
        self.release.wait(30)
        return super().read(image)


def test_preview_never_waits_for_recognition(tmp_path):
    _folder(tmp_path, 2)
    reader = HeldReader()
    svc = StickerService(FileSource(tmp_path, fps=30), reader)
    svc.start()
    try:
        assert reader.inside.wait(30)
        held_at = svc.frames
        deadline = time.monotonic() + 30
        while svc.frames < held_at + 15 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert svc.frames >= held_at + 15 and svc.reads == 0  # 15 frames shown, none read yet
        reader.release.set()
        deadline = time.monotonic() + 30
        while svc.reads < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert svc.reads >= 2  # once free, recognition takes the newest frames again
    finally:
        reader.release.set()
        svc.stop()
    assert svc.reads < svc.frames  # frames handed on while it worked were skipped, not queued


def test_recognition_on_a_downscaled_frame_reports_full_size_corners(tmp_path):
    s = make_scene(50, cards=5, px_per_mm=5.0, rotation=0, blur=0.4, glare=0, offset_mm=(0, 0))
    s.write(tmp_path / "big.jpg")
    got = []
    svc = StickerService(FileSource(tmp_path / "big.jpg", fps=20), PileReader(), recognition_width=960,
                         on_cards=lambda read: got.append(read.result))
    with svc:
        deadline = time.monotonic() + 5
        while not got and time.monotonic() < deadline:
            time.sleep(0.02)
    assert got and set(got[0].cards) == set(s.cards)
    assert got[0].image_size == (1920, 1080)
    full = PileReader().read(s.image)
    a = sorted(d.centre for d in full.detections)
    b = sorted(d.centre for d in got[0].detections)
    assert len(a) == len(b) and max(abs(p[0] - q[0]) + abs(p[1] - q[1]) for p, q in zip(a, b)) < 6


def test_unplugged_camera_reports_status_and_a_failing_callback_does_not_kill_threads():
    statuses = []

    def boom(frame):
        raise RuntimeError("UI bug")

    svc = StickerService(OpenCVSource("/dev/video-missing"), PileReader(), on_frame=boom,
                         on_status=statuses.append)
    svc.start()
    deadline = time.monotonic() + 3
    while NO_CAMERA not in statuses and time.monotonic() < deadline:
        time.sleep(0.02)
    assert all(t.is_alive() for t in svc._threads)
    svc.stop()
    assert NO_CAMERA in statuses
    assert svc.status == "stopped"


class _GlossyVideo(FrameSource):
    """Live video of a real rendered table where the lamp's reflection burns out one sticker;
    the same table at a darker exposure does not (a camera that supports exposure control)."""
    name = "glossy"
    interval = 0.03
    supports_exposure = True

    def __init__(self, image, glare_at):
        super().__init__()
        self.clean = image
        self.glared = cv2.GaussianBlur(cv2.circle(image.copy(), glare_at, 30, (255, 255, 255), -1), (0, 0), 1.0)
        self.darker = []

    def _grab(self):
        return self.glared.copy()

    def _grab_darker(self, exposure_scale):
        self.darker.append(exposure_scale)
        return self.clean.copy()


def test_glare_in_the_live_video_takes_a_darker_frame_at_most_every_darker_every_s(one_core):
    scene = make_scene(8, cards=8, px_per_mm=2.6, glare=0)
    d = PileReader().read(scene.image).detections[0]
    src = _GlossyVideo(scene.image, tuple(int(v) for v in d.centre))
    alone = PileReader().read(src.glared)
    assert d.card not in alone.cards  # the reflection really hides it from one frame
    with StickerService(src, PileReader(), darker_every_s=0.3) as svc:
        deadline = time.monotonic() + 30
        # a live card needs two sightings: two darker frames, 0.3 s apart at the least
        while d.card not in svc.accumulator.cards and time.monotonic() < deadline:
            time.sleep(0.05)
        t_seen = time.monotonic()
    assert d.card in svc.accumulator.cards and set(svc.accumulator.cards) <= set(scene.cards)
    # every frame shows the glare, yet the video is not slowed to one darker frame each
    assert src.darker[0] == 0.4 and 2 <= len(src.darker) <= svc.reads // 2 + 1 and svc.darker_frames >= 2
    assert t_seen < deadline


class _DarkerFails(_GlossyVideo):
    """The same glossy table, from a camera whose darker frame fails (a driver error)."""

    def _grab_darker(self, exposure_scale):
        self.darker.append(exposure_scale)
        raise RuntimeError("sensor did not take the controls")


def test_a_darker_frame_that_fails_leaves_the_frames_own_read_and_is_not_retried_every_frame(one_core):
    scene = make_scene(8, cards=8, px_per_mm=2.6, glare=0)
    d = PileReader().read(scene.image).detections[0]
    src = _DarkerFails(scene.image, tuple(int(v) for v in d.centre))
    alone = set(PileReader().read(src.glared).cards)
    with StickerService(src, PileReader(), darker_every_s=60.0) as svc:
        deadline = time.monotonic() + 20
        while svc.reads < 4 and time.monotonic() < deadline:
            time.sleep(0.05)
        status = svc.status
    assert svc.reads >= 4 and svc.darker_frames == 0 and len(src.darker) == 1
    assert set(svc.latest_result.cards) == alone and set(svc.accumulator.cards) == alone
    assert status == "running"  # a failed darker frame is not a lost camera
