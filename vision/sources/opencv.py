"""A USB camera through OpenCV (V4L2 on Linux)."""

from __future__ import annotations

import os

import cv2

from vision.errors import BadFrameError, CameraLostError, NoCameraError
from vision.sources.base import FrameSource

# V4L2 clamps an asked size to the nearest mode it has: asking more than any sensor gives
# the largest mode (the full-resolution still of a USB camera).
LARGEST = (10000, 10000)


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

    def _grab_still(self):
        """Switch to the largest mode, take one frame (after two the driver may still hold
        from the video mode), and come back to the video size."""
        cap = self._cap
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, LARGEST[0])
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, LARGEST[1])
        try:
            img = None
            for _ in range(3):
                ok, got = cap.read()
                if ok and got is not None and got.size:
                    img = got
            if img is None:
                raise BadFrameError(f"camera {self.device} gave no still")
            return img
        finally:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.width)
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.height)

    def _close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None
