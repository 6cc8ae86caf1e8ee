"""Frame sources behind one small interface.

A :class:`FrameSource` owns one thread that grabs frames from its device and keeps only
the latest one; readers call ``latest(timeout, after=n)``. Nothing ever raises out of that
thread: a missing camera, an unplugged one, or a frame that cannot be read sets ``status``
(a short string, see ``STATUS_MESSAGES`` for what to show) and ``error`` (a typed
:class:`vision.errors.CameraError`), and the thread tries again with a growing pause
(0.5 s doubling to 5 s) until the camera comes back or ``stop()`` is called.
``stop()`` joins the thread.

Sources: :class:`OpenCVSource` (USB / V4L2), :class:`Picamera2Source` (Pi camera modules,
only when the ``picamera2`` package imports), :class:`FileSource` (an image, a folder of
images, a video; loops for demos), :class:`DemoSource` (generated frames of a pile slid under
the camera: ships with the project, needs no files). ``open_source(spec)`` picks one.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import cv2
import numpy as np

from vision.errors import (BadFrameError, CameraError, CameraLostError, NoCameraError,
                           SourceSpecError)

STARTING, RUNNING, NO_CAMERA, LOST, BAD_FRAME, ENDED, STOPPED = (
    "starting", "running", "no_camera", "lost", "bad_frame", "ended", "stopped")
STATUS_MESSAGES = {
    STARTING: "Engegant la càmera…",
    RUNNING: "Càmera a punt",
    NO_CAMERA: "No hi ha càmera: comproveu el cable. Podeu apuntar els punts a mà.",
    LOST: "S'ha perdut la càmera: comproveu el cable. Es reconnectarà sola.",
    BAD_FRAME: "La càmera dona imatges que no es poden llegir.",
    ENDED: "S'ha acabat el vídeo.",
    STOPPED: "Càmera aturada",
}
IMAGE_EXTS = {".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"}
VIDEO_EXTS = {".mp4", ".avi", ".mkv", ".mov", ".mjpeg", ".webm"}


@dataclass(frozen=True)
class Frame:
    """One captured frame. ``image`` is BGR (for display and evidence); ``gray`` is a
    smaller grayscale image for recognition when the camera gives one (Picamera2 lores),
    else None. ``number`` counts up from 1; ``time`` is ``time.monotonic()``."""
    image: np.ndarray
    number: int
    time: float
    gray: np.ndarray | None = None


def release_freed_memory() -> None:
    """Hand memory that Python and OpenCV have freed back to the system (glibc's
    ``malloc_trim``; nothing elsewhere). glibc keeps freed blocks of every thread's arena for
    reuse: after the demo scenes are drawn, or when the camera stops, that is tens of MB
    the kiosk no longer needs (see docs/perf.md)."""
    global _malloc_trim
    if _malloc_trim is None:
        try:
            import ctypes
            _malloc_trim = ctypes.CDLL("libc.so.6").malloc_trim
        except (OSError, AttributeError):
            _malloc_trim = False
    if _malloc_trim:
        _malloc_trim(0)


_malloc_trim = None


class FrameSource:
    """Base: one grabbing thread, latest-frame hand-off, status, retry with backoff.

    Subclasses implement ``_open()``, ``_grab() -> ndarray`` (or a Frame's (image, gray)
    tuple) and ``_close()``, raising :class:`CameraError` subclasses on failure; and may
    set ``interval`` (seconds between frames, for file and demo sources).
    """

    name = "source"
    interval = 0.0
    backoff = (0.5, 5.0)

    def __init__(self, *, on_status: Callable[[str], None] | None = None):
        self._cond = threading.Condition()
        self._frame: Frame | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._status = STARTING
        self.error: CameraError | None = None
        self._number = 0  # frames keep counting up across reconnects and restarts
        self.on_status = on_status

    # -- interface ------------------------------------------------------------------

    @property
    def status(self) -> str:
        return self._status

    @property
    def message(self) -> str:
        return STATUS_MESSAGES.get(self._status, self._status)

    def start(self) -> "FrameSource":
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name=f"{self.name}-capture", daemon=True)
            self._thread.start()
        return self

    def latest(self, timeout: float | None = None, *, after: int = 0) -> Frame | None:
        """The newest frame whose number is greater than ``after`` (waits up to ``timeout``
        seconds for one; None if none came or the source is stopped)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while self._frame is None or self._frame.number <= after:
                if self._stop.is_set():
                    return None
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return None
                self._cond.wait(left if left is not None else 0.5)
            return self._frame

    def stop(self) -> None:
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        self._set_status(STOPPED)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    # -- thread -------------------------------------------------------------------------

    def _set_status(self, status: str, error: CameraError | None = None) -> None:
        changed = status != self._status
        self._status = status
        if error is not None or status == RUNNING:
            self.error = error
        if changed and self.on_status is not None:
            try:
                self.on_status(status)
            except Exception:  # a bad callback must not kill the capture thread
                pass

    def _run(self) -> None:
        delay = self.backoff[0]
        while not self._stop.is_set():
            try:
                self._open()
            except CameraError as exc:
                # a camera that gave frames and is now missing was unplugged: "lost"
                lost = self._number > 0 or not isinstance(exc, NoCameraError)
                self._set_status(LOST if lost else NO_CAMERA, exc)
                self._stop.wait(delay)
                delay = min(delay * 2, self.backoff[1])
                continue
            except Exception as exc:  # a driver raising something unexpected
                self._set_status(LOST, CameraLostError(str(exc)))
                self._stop.wait(delay)
                delay = min(delay * 2, self.backoff[1])
                continue
            bad = 0
            next_at = time.monotonic()
            while not self._stop.is_set():
                try:
                    got = self._grab()
                except BadFrameError as exc:
                    bad += 1
                    self._set_status(BAD_FRAME, exc)
                    if bad >= 5:
                        break
                    self._stop.wait(0.05)
                    continue
                except StopIteration:
                    self._set_status(ENDED)
                    self._close_quietly()
                    self._stop.wait()
                    return
                except CameraError as exc:
                    self._set_status(LOST, exc)
                    break
                except Exception as exc:
                    self._set_status(LOST, CameraLostError(str(exc)))
                    break
                bad = 0
                delay = self.backoff[0]
                image, gray = got if isinstance(got, tuple) else (got, None)
                self._number += 1
                with self._cond:
                    self._frame = Frame(image, self._number, time.monotonic(), gray)
                    self._cond.notify_all()
                self._set_status(RUNNING)
                if self.interval:
                    next_at += self.interval
                    self._stop.wait(max(0.0, next_at - time.monotonic()))
            self._close_quietly()
            if not self._stop.is_set():
                self._stop.wait(delay)
                delay = min(delay * 2, self.backoff[1])

    def _close_quietly(self) -> None:
        try:
            self._close()
        except Exception:
            pass

    # -- for subclasses -------------------------------------------------------------

    def _open(self) -> None:
        pass

    def _grab(self):
        raise NotImplementedError

    def _close(self) -> None:
        pass


class OpenCVSource(FrameSource):
    """A USB camera through OpenCV (V4L2 on Linux). ``device``: a path such as
    ``/dev/video0`` or an index. ``exposure`` 0 = automatic."""

    name = "v4l2"

    def __init__(self, device: str | int = "/dev/video0", *, width: int = 1920, height: int = 1080,
                 exposure: float = 0, fps: float = 15, on_status=None):
        super().__init__(on_status=on_status)
        self.device, self.width, self.height = device, int(width), int(height)
        self.exposure, self.fps = exposure, fps
        self._cap = None

    def _open(self) -> None:
        dev = self.device
        if isinstance(dev, str) and not dev.isdigit() and not os.path.exists(dev):
            raise NoCameraError(f"no camera at {dev}")
        dev = int(dev) if isinstance(dev, str) and dev.isdigit() else dev
        cap = cv2.VideoCapture(dev, cv2.CAP_V4L2)
        if not cap.isOpened():
            cap.release()
            raise NoCameraError(f"cannot open camera {self.device}")
        cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*"MJPG"))
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.width)
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.height)
        cap.set(cv2.CAP_PROP_FPS, self.fps)
        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        if self.exposure:
            cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, 1)  # V4L2: 1 = manual
            cap.set(cv2.CAP_PROP_EXPOSURE, float(self.exposure))
        else:
            cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, 3)  # aperture priority (automatic)
        self._cap = cap

    def _grab(self):
        ok, img = self._cap.read()
        if not ok:
            if isinstance(self.device, str) and not os.path.exists(self.device):
                raise CameraLostError(f"camera {self.device} unplugged")
            raise BadFrameError(f"camera {self.device} gave no frame")
        if img is None or img.size == 0:
            raise BadFrameError(f"camera {self.device} gave an empty frame")
        return img

    def _close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


def picamera2_available() -> bool:
    try:
        from picamera2 import Picamera2  # noqa: F401
    except Exception:
        return False
    try:
        return bool(Picamera2.global_camera_info())
    except Exception:
        return False


class Picamera2Source(FrameSource):
    """A Raspberry Pi camera module through Picamera2 (only when ``picamera2`` imports).

    Two streams, as in the Picamera2 FrameServer example: ``main`` (RGB888, for display and
    evidence) and ``lores`` (YUV420; its Y plane is the grayscale ``Frame.gray`` used for
    recognition, so no colour conversion is needed). The default lores (1536x864 under a
    1920x1080 main) keeps stickers at 1.7-2.4 px/mm from 50-75 cm; the benchmark reads
    14 mm stickers down to 1.4 px/mm (13 px codes), see docs/vision.md. ``exposure``:
    microseconds (0 = automatic)."""

    name = "picamera2"

    def __init__(self, *, main: tuple[int, int] = (1920, 1080), lores: tuple[int, int] = (1536, 864),
                 exposure: float = 0, on_status=None):
        super().__init__(on_status=on_status)
        self.main, self.lores, self.exposure = tuple(main), tuple(lores), exposure
        self._cam = None

    def _open(self) -> None:
        try:
            from picamera2 import Picamera2
        except Exception as exc:
            raise NoCameraError("picamera2 is not installed") from exc
        try:
            cam = Picamera2()
            config = cam.create_video_configuration(main={"size": self.main, "format": "RGB888"},
                                                    lores={"size": self.lores, "format": "YUV420"})
            cam.configure(config)
            if self.exposure:
                cam.set_controls({"AeEnable": False, "ExposureTime": int(self.exposure)})
            cam.start()
        except Exception as exc:
            raise NoCameraError(f"Pi camera: {exc}") from exc
        self._cam = cam

    def _grab(self):
        try:
            (main, lores), _meta = self._cam.capture_arrays(["main", "lores"])
        except Exception as exc:
            raise CameraLostError(f"Pi camera: {exc}") from exc
        return main, lores[: self.lores[1], : self.lores[0]]

    def _close(self) -> None:
        if self._cam is not None:
            try:
                self._cam.stop()
            finally:
                self._cam.close()
                self._cam = None


class FileSource(FrameSource):
    """Frames from files: one image (repeated), a folder of images (in name order), or a
    video. ``loop``: start again at the end (demos, replays); otherwise the status
    becomes "ended". ``fps`` paces the frames."""

    name = "file"

    def __init__(self, path, *, loop: bool = True, fps: float = 10, on_status=None):
        super().__init__(on_status=on_status)
        self.path = Path(path)
        self.loop = loop
        self.interval = 1.0 / fps if fps else 0.0
        self._files: list[Path] = []
        self._i = 0
        self._cap = None

    def _open(self) -> None:
        p = self.path
        if p.is_dir():
            self._files = sorted(f for f in p.iterdir() if f.suffix.lower() in IMAGE_EXTS)
            if not self._files:
                raise NoCameraError(f"{p}: no images in this folder")
        elif p.is_file() and p.suffix.lower() in VIDEO_EXTS:
            cap = cv2.VideoCapture(str(p))
            if not cap.isOpened():
                raise NoCameraError(f"{p}: cannot open this video")
            self._cap = cap
        elif p.is_file():
            self._files = [p]
        else:
            raise NoCameraError(f"{p}: no such file or folder")
        self._i = 0

    def _grab(self):
        if self._cap is not None:
            ok, img = self._cap.read()
            if not ok:
                if not self.loop:
                    raise StopIteration
                self._cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
                ok, img = self._cap.read()
                if not ok:
                    raise BadFrameError(f"{self.path}: no frames")
            return img
        if self._i >= len(self._files):
            if not self.loop:
                raise StopIteration
            self._i = 0
        f = self._files[self._i]
        self._i += 1
        img = cv2.imread(str(f), cv2.IMREAD_COLOR)
        if img is None:
            raise BadFrameError(f"{f}: not an image")
        return img

    def _close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class DemoSource(FrameSource):
    """A pile of marked cards slid under the camera, generated (vision.scene): no camera
    and no files needed. ``steps`` frames take the pile from off-screen to the middle of
    the mat; the loop then starts again. Frames are kept as their JPEG bytes (about 0.4 MB
    each instead of 6 MB of raw BGR); each grab decodes one.

    ``cache_dir``: where the loop is kept on disk (see :mod:`vision.demo`): the first start
    draws it there in a child process, later starts only read it, so this process never
    carries the drawing's memory. Without it (or when the child fails) the frames are drawn
    here, one per grab on the first loop."""

    name = "demo"

    def __init__(self, *, cards: int = 16, seed: int = 4, steps: int = 10, fps: float = 5,
                 cache_dir: str | Path | None = None, on_status=None):
        super().__init__(on_status=on_status)
        self.cards, self.seed, self.steps = cards, seed, steps
        self.interval = 1.0 / fps if fps else 0.0
        self.cache_dir = Path(cache_dir) if cache_dir is not None else None
        self._cache: dict[int, np.ndarray] = {}  # step -> the frame's JPEG bytes (1-D uint8)
        self._i = 0

    def _open(self) -> None:
        if self.cache_dir is None or len(self._cache) == self.steps:
            return
        from vision.demo import ensure_loop, frame_path

        folder = ensure_loop(self.cache_dir, cards=self.cards, seed=self.seed, steps=self.steps,
                             stop=self._stop)
        if folder is None:
            return  # drawn here instead, by _grab
        try:
            for i in range(self.steps):
                self._cache[i] = np.frombuffer(frame_path(folder, i).read_bytes(), np.uint8)
        except OSError:
            self._cache.clear()

    def _grab(self):
        i = self._i % self.steps
        self._i += 1
        if i not in self._cache:
            from vision.demo import scene_args
            from vision.scene import clear_caches, make_scene

            scene = make_scene(self.seed, **scene_args(i, cards=self.cards, steps=self.steps))
            self._cache[i] = np.frombuffer(scene.jpeg, np.uint8)
            del scene
            if len(self._cache) == self.steps:  # the loop is complete: the textures are not needed
                clear_caches()
            release_freed_memory()  # the drawing's full-frame temporaries
        img = cv2.imdecode(self._cache[i], cv2.IMREAD_COLOR)  # the same pixels as scene.image
        if img is None:
            raise BadFrameError("demo frame could not be decoded")
        return img


def _lores(width: int, height: int) -> tuple[int, int]:
    """0.8 of the main stream, even sizes (the ISP wants them)."""
    return int(width * 0.8) // 2 * 2, int(height * 0.8) // 2 * 2


def open_source(spec: str = "auto", *, width: int = 1920, height: int = 1080, exposure: float = 0,
                cache_dir: str | Path | None = None, on_status=None) -> FrameSource:
    """A source from the ``camera.source`` setting: ``auto`` (Pi camera, then
    /dev/video0, then demo), ``demo``, ``picamera2``, ``v4l2`` or ``v4l2:/dev/videoN``,
    ``file:PATH``. The source is not started. Raises SourceSpecError for a bad spec."""
    spec = (spec or "auto").strip()
    kind, _, arg = spec.partition(":")
    kind = kind.lower()
    if kind == "auto":
        if picamera2_available():
            return Picamera2Source(main=(width, height), lores=_lores(width, height), exposure=exposure,
                                   on_status=on_status)
        for dev in sorted(Path("/dev").glob("video[0-9]*")):
            cap = cv2.VideoCapture(str(dev), cv2.CAP_V4L2)
            ok = cap.isOpened() and cap.read()[0]
            cap.release()
            if ok:
                return OpenCVSource(str(dev), width=width, height=height, exposure=exposure,
                                    on_status=on_status)
        return DemoSource(cache_dir=cache_dir, on_status=on_status)
    if kind == "demo":
        return DemoSource(cache_dir=cache_dir, on_status=on_status)
    if kind == "picamera2":
        return Picamera2Source(main=(width, height), lores=_lores(width, height), exposure=exposure,
                               on_status=on_status)
    if kind == "v4l2":
        return OpenCVSource(arg or "/dev/video0", width=width, height=height, exposure=exposure,
                            on_status=on_status)
    if kind == "file":
        if not arg:
            raise SourceSpecError("camera source file: needs a path (file:/path/to/photos)")
        return FileSource(arg, on_status=on_status)
    raise SourceSpecError(f"unknown camera source {spec!r}: use auto, demo, picamera2, v4l2:/dev/videoN or file:PATH")
