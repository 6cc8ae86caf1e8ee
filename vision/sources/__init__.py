"""Frame sources behind one small interface, one module per backend (the pibooth layout).

A :class:`FrameSource` owns one thread that grabs frames from its device and keeps only
the latest one; readers call ``latest(timeout, after=n)``; ``capture_still()`` asks for one
full-resolution picture. Nothing ever raises out of that thread: a missing camera, an
unplugged one, or a frame that cannot be read sets ``status`` (a short string, see
the kiosk's camera screen for what to show) and ``error`` (a typed
:class:`vision.errors.CameraError`), and the thread tries again with a growing pause
(0.5 s doubling to 5 s) until the camera comes back or ``stop()`` is called. ``FAULT`` is
the one status that is not retried: Picamera2 cannot be imported on a Raspberry Pi.

Backends: :class:`OpenCVSource` (USB / V4L2, ``opencv``), :class:`Picamera2Source` (Pi camera
modules, ``picamera2``, imported only when it opens), :class:`FileSource` (an image, a folder
of images, a video, ``files``), :class:`DemoSource` (generated frames, ``demo``).
``open_source(spec)`` picks one from the ``camera.source`` setting.
"""

from __future__ import annotations

from pathlib import Path

import cv2

from vision.errors import SourceSpecError
from vision.sources.base import (BAD_FRAME, ENDED, FAULT, LOST, NO_CAMERA, RUNNING, STARTING,  # noqa: F401
                                 STOPPED, Frame, FrameSource, release_freed_memory)
from vision.sources.demo import DemoSource
from vision.sources.files import IMAGE_EXTS, VIDEO_EXTS, FileSource  # noqa: F401
from vision.sources.opencv import OpenCVSource
from vision.sources.picamera2 import (Picamera2Source, import_error, on_raspberry_pi,  # noqa: F401
                                      picamera2_available)


def _lores(width: int, height: int) -> tuple[int, int]:
    """0.8 of the main stream, even sizes (the ISP wants them)."""
    return int(width * 0.8) // 2 * 2, int(height * 0.8) // 2 * 2


def open_source(spec: str = "auto", *, width: int = 1920, height: int = 1080, exposure: float = 0,
                cache_dir: str | Path | None = None, on_status=None) -> FrameSource:
    """A source from the ``camera.source`` setting: ``auto`` (Pi camera, then
    /dev/video0, then demo; but on a Raspberry Pi whose Picamera2 cannot be imported, the
    Pi camera source, which reports the FAULT with the import error), ``demo``, ``picamera2``, ``v4l2`` or ``v4l2:/dev/videoN``,
    ``file:PATH``. The source is not started. Raises SourceSpecError for a bad spec."""
    spec = (spec or "auto").strip()
    kind, _, arg = spec.partition(":")
    kind = kind.lower()
    if kind == "auto":
        if picamera2_available() or (on_raspberry_pi() and import_error() is not None):
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
