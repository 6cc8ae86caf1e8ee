"""Frames from files: an image, a folder of images, or a video (demos, replays, tests)."""

from __future__ import annotations

from pathlib import Path

import cv2

from vision.errors import BadFrameError, NoCameraError
from vision.sources.base import FrameSource

IMAGE_EXTS = {".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"}
VIDEO_EXTS = {".mp4", ".avi", ".mkv", ".mov", ".mjpeg", ".webm"}


class FileSource(FrameSource):
    """Frames from files: one image (repeated), a folder of images (in name order), or a
    video. ``loop``: start again at the end (demos, replays); otherwise the status
    becomes "ended". ``fps`` paces the frames. ``still``: an image file served by
    ``capture_still`` (a full-resolution photo of what the frames show); without it a still
    is the next frame."""

    name = "file"

    def __init__(self, path, *, loop: bool = True, fps: float = 10, still=None, on_status=None):
        super().__init__(on_status=on_status)
        self.path = Path(path)
        self.still_path = Path(still) if still is not None else None
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

    def _grab_still(self):
        if self.still_path is None:
            return self._grab()
        img = cv2.imread(str(self.still_path), cv2.IMREAD_COLOR)
        if img is None:
            raise BadFrameError(f"{self.still_path}: not an image")
        return img

    def _close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None
