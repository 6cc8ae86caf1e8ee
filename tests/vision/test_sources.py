import threading
import time

import cv2
import numpy as np
import pytest

from vision.errors import NoCameraError, SourceSpecError
from vision.reader import PileReader
from vision.scene import make_scene
from vision.sources import (BAD_FRAME, ENDED, NO_CAMERA, RUNNING, STOPPED,
                            DemoSource, FileSource, FrameSource, OpenCVSource, Picamera2Source,
                            open_source)


def _photo(i, cards=6):
    return make_scene(i, cards=cards, blur=0.4, glare=0, px_per_mm=2.6)


def test_image_file_repeats_and_frames_count_up(tmp_path):
    _photo(1).write(tmp_path / "a.jpg")
    with FileSource(tmp_path / "a.jpg", fps=50) as src:
        f1 = src.latest(3)
        f2 = src.latest(3, after=f1.number)
        assert f1.image.shape == (1080, 1920, 3) and f2.number > f1.number
        assert src.status == RUNNING and src.error is None
    assert src.status == STOPPED
    assert src.latest(0.05) is None or src.latest(0.05).number >= 1


def test_folder_in_name_order_skips_a_broken_file(tmp_path):
    scenes = [_photo(i) for i in range(3)]
    for i, s in enumerate(scenes):
        s.write(tmp_path / f"{i:02d}.jpg")
    (tmp_path / "01b.jpg").write_bytes(b"not a jpeg")
    statuses = []
    # Paced, so a consumer on a loaded machine sees each frame (the source hands over only
    # the latest frame: an unpaced folder may replace one before it is taken).
    src = FileSource(tmp_path, fps=4, loop=False, on_status=statuses.append)
    src.start()
    frames = []
    last = 0
    while len(frames) < 3:
        f = src.latest(3, after=last)
        assert f is not None
        frames.append(f)
        last = f.number
    deadline = time.monotonic() + 3
    while src.status != ENDED and time.monotonic() < deadline:
        time.sleep(0.01)
    src.stop()
    assert BAD_FRAME in statuses and ENDED in statuses
    reader = PileReader()
    assert [set(reader.read(f.image).cards) for f in frames] == [set(s.cards) for s in scenes]


def test_video_file_loops(tmp_path):
    path = tmp_path / "pile.avi"
    w = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5, (960, 540))
    assert w.isOpened()
    for i in range(4):
        img = np.full((540, 960, 3), 40 * i, np.uint8)
        w.write(img)
    w.release()
    with FileSource(path, fps=40) as src:
        seen = []
        last = 0
        for _ in range(12):
            f = src.latest(3, after=last)
            last = f.number
            seen.append(int(round(f.image.mean() / 40)))
        assert f.image.shape == (540, 960, 3)
    assert set(seen) <= {0, 1, 2, 3} and len(set(seen)) >= 3
    assert any(b < a for a, b in zip(seen, seen[1:]))  # looped back to the start


def test_missing_camera_is_a_status_not_an_exception():
    statuses = []
    src = OpenCVSource("/dev/video-not-plugged", on_status=statuses.append)
    src.start()
    assert src.latest(0.3) is None
    assert src.status == NO_CAMERA
    assert isinstance(src.error, NoCameraError) and isinstance(src.error, RuntimeError)
    t = time.monotonic()
    src.stop()
    assert time.monotonic() - t < 1.0  # the backoff wait is interrupted
    assert statuses[0] == NO_CAMERA and statuses[-1] == STOPPED
    assert threading.active_count() < 50


def test_source_is_picked_up_again_when_the_camera_returns(tmp_path):
    path = tmp_path / "later.jpg"
    src = FileSource(path, fps=20)
    src.backoff = (0.05, 0.1)
    src.start()
    assert src.latest(0.3) is None and src.status == NO_CAMERA
    _photo(2).write(path)
    f = src.latest(3)
    assert f is not None and src.status == RUNNING and src.error is None
    src.stop()


def test_picamera2_without_the_package_is_no_camera():
    try:
        import picamera2  # noqa: F401
        has = True
    except Exception:
        has = False
    if has:  # on a Pi the class is exercised by the kiosk itself
        return
    src = Picamera2Source()
    src.backoff = (0.05, 0.1)
    src.start()
    assert src.latest(0.3) is None
    assert src.status == NO_CAMERA
    src.stop()


def test_demo_source_slides_a_pile_in(one_core):
    src = DemoSource(cards=12, steps=4, fps=0)
    src.start()
    reader = PileReader()
    counts = []
    last = 0
    for _ in range(6):
        f = src.latest(10, after=last)
        last = f.number
        counts.append(len(reader.read(f.image).cards))
    src.stop()
    assert min(counts) < max(counts) and max(counts) >= 11  # the pile comes into view


def test_open_source_specs(tmp_path):
    assert isinstance(open_source("demo"), DemoSource)
    src = open_source("v4l2:/dev/video9")
    assert isinstance(src, OpenCVSource) and src.device == "/dev/video9"
    assert isinstance(open_source(f"file:{tmp_path}"), FileSource)
    assert isinstance(open_source("auto"), FrameSource)
    for bad in ("webcam", "file:"):
        with pytest.raises(SourceSpecError):
            open_source(bad)


def test_a_camera_that_goes_away_is_lost_then_found_again(tmp_path):
    path = tmp_path / "cam.jpg"
    _photo(3).write(path)
    statuses = []
    src = FileSource(path, fps=50, on_status=statuses.append)
    src.backoff = (0.05, 0.1)
    src.start()
    first = src.latest(3)
    path.unlink()  # unplugged: the file source stops giving frames
    deadline = time.monotonic() + 3
    while src.status != "lost" and time.monotonic() < deadline:
        time.sleep(0.01)
    assert src.status == "lost"
    before = src.latest(0.01).number  # the last frame taken before the file went
    _photo(3).write(path)
    again = src.latest(3, after=before)
    src.stop()
    assert again is not None and again.number > first.number
    assert statuses.index("lost") < len(statuses) - 1 and RUNNING in statuses[statuses.index("lost"):]


def test_the_kiosk_passes_the_camera_settings_to_the_source():
    from kiosk.commands.run import camera_factory
    service = camera_factory("v4l2:/dev/video9", "qr", width=1280, height=720, exposure=120)()
    src = service.source
    assert isinstance(src, OpenCVSource) and src.device == "/dev/video9"
    assert (src.width, src.height, src.exposure) == (1280, 720, 120)
    assert service.reader.marks == "qr"
    assert service.source.status != RUNNING  # built, not started: the screen starts it


def test_on_a_pi_without_picamera2_the_source_says_fault_with_the_reason(tmp_path, monkeypatch):
    import sys

    from vision.sources import FAULT
    from vision.sources import picamera2 as pisrc

    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\0")
    assert pisrc.on_raspberry_pi(model) and not pisrc.on_raspberry_pi(tmp_path / "none")
    # a real import failure: a picamera2 module that raises what a numpy-ABI break raises
    fake = tmp_path / "pkg" / "picamera2"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('numpy.core.multiarray failed to import')\n")
    monkeypatch.syspath_prepend(str(tmp_path / "pkg"))
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    statuses = []
    src = Picamera2Source(on_pi=True, on_status=statuses.append).start()
    try:
        deadline = time.monotonic() + 5
        while src.status != FAULT and time.monotonic() < deadline:
            time.sleep(0.01)
        assert src.status == FAULT and src.is_fault
        assert "numpy.core.multiarray" in str(src.error)
    finally:
        src.stop()
    assert statuses[:1] == [FAULT]
    off_pi = Picamera2Source(on_pi=False).start()
    try:
        deadline = time.monotonic() + 5
        while off_pi.status == "starting" and time.monotonic() < deadline:
            time.sleep(0.01)
        assert off_pi.status == NO_CAMERA and not off_pi.is_fault
    finally:
        off_pi.stop()


class _StillCamera(FrameSource):
    """Video frames 320x180; a still, on request, 1280x720 (a fake sensor)."""
    name = "still-camera"
    interval = 0.02

    def _grab(self):
        return np.full((180, 320, 3), 80, np.uint8)

    def _grab_still(self):
        return np.full((720, 1280, 3), 200, np.uint8)


def test_capture_still_serves_one_full_resolution_frame_between_video_frames():
    with _StillCamera() as src:
        first = src.latest(3)
        still = src.capture_still(3)
        assert still.still and still.image.shape == (720, 1280, 3) and still.number > first.number
        after = src.latest(3, after=still.number)
        assert after.image.shape == (180, 320, 3) and not after.still
    with pytest.raises(Exception, match="not running"):
        src.capture_still(0.5)


def test_file_source_serves_its_still_image(tmp_path):
    cv2.imwrite(str(tmp_path / "video.png"), np.zeros((90, 160, 3), np.uint8))
    cv2.imwrite(str(tmp_path / "still.png"), np.full((900, 1600, 3), 255, np.uint8))
    with FileSource(tmp_path / "video.png", fps=5, still=tmp_path / "still.png") as src:
        assert src.latest(3).image.shape == (90, 160, 3)
        t = time.monotonic()
        still = src.capture_still(3)
        assert still.image.shape == (900, 1600, 3) and time.monotonic() - t < 1.0  # not a paced wait


class _ExposureCamera(_StillCamera):
    """A fake sensor whose darker frame is the video frame at a quarter of the light."""
    supports_exposure = True

    def _grab_darker(self, exposure_scale):
        return np.full((180, 320, 3), int(80 * exposure_scale), np.uint8)


def test_a_darker_frame_is_one_video_frame_never_shown_as_the_latest():
    with _ExposureCamera() as src:
        first = src.latest(3)
        dark = src.capture_darker(0.25)
        assert not dark.still and dark.image.shape == (180, 320, 3) and int(dark.image[0, 0, 0]) == 20
        assert dark.number > first.number
        for _ in range(3):  # the preview goes on with normal frames only
            first = src.latest(3, after=first.number)
            assert int(first.image[0, 0, 0]) == 80
    with _StillCamera() as plain:  # a camera that cannot change its exposure gives none
        plain.latest(3)
        assert plain.capture_darker(0.25) is None
