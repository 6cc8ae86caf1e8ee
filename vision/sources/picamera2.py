"""A Raspberry Pi camera module through Picamera2, imported only when this source opens.

On a Raspberry Pi a Picamera2 that cannot be imported (a numpy built for another ABI, a
missing python3-picamera2) is a FAULT with the import error as its reason: never a quiet
fall-back to another camera or the demo photos (the kiosk would look fine and read nothing).
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from vision.errors import BadFrameError, CameraDriverError, CameraLostError, NoCameraError
from vision.sources.base import FrameSource

MODEL_FILE = Path("/proc/device-tree/model")
DARKER_FRAMES = 8  # frames to wait for a new exposure to reach the sensor (a few, at 30 fps)


def board_model(model_file: Path = MODEL_FILE) -> str | None:
    """The device-tree model (``Raspberry Pi 5 Model B Rev 1.0``), or None off a Pi."""
    try:
        return model_file.read_bytes().rstrip(b"\0\n").decode("utf-8", "replace") or None
    except OSError:
        return None


def on_raspberry_pi(model_file: Path = MODEL_FILE) -> bool:
    return "raspberry pi" in (board_model(model_file) or "").lower()


def import_error() -> str | None:
    """Why ``picamera2`` cannot be imported (its last error line), or None when it can."""
    try:
        from picamera2 import Picamera2  # noqa: F401
    except Exception as exc:  # ImportError, or numpy's ABI error raised as anything
        return f"{exc.__class__.__name__}: {exc}"
    return None


def picamera2_available() -> bool:
    if import_error() is not None:
        return False
    from picamera2 import Picamera2
    try:
        return bool(Picamera2.global_camera_info())
    except Exception:
        return False


class Picamera2Source(FrameSource):
    """A Raspberry Pi camera module through Picamera2.

    Two video streams, as in the Picamera2 FrameServer example: ``main`` (RGB888, for display
    and evidence) and ``lores`` (YUV420; its Y plane is the grayscale ``Frame.gray`` used for
    live recognition, so no colour conversion is needed). ``capture_still`` switches to the
    still configuration (the sensor's full resolution) for one picture and back
    (``switch_mode_and_capture_array``). ``exposure``: microseconds (0 = automatic).

    ``on_pi``: whether this is a Raspberry Pi (read from the device tree when None); there an
    import failure is a fault (:class:`CameraDriverError`), elsewhere simply no camera.
    """

    name = "picamera2"
    supports_exposure = True

    def __init__(self, *, main: tuple[int, int] = (1920, 1080), lores: tuple[int, int] = (1536, 864),
                 exposure: float = 0, on_pi: bool | None = None, on_status=None):
        super().__init__(on_status=on_status)
        self.main, self.lores, self.exposure = tuple(main), tuple(lores), exposure
        self.on_pi = on_raspberry_pi() if on_pi is None else bool(on_pi)
        self._cam = None
        self._still_config = None

    def _open(self) -> None:
        why = import_error()
        if why is not None:
            if self.on_pi:
                raise CameraDriverError(f"picamera2: {why}")
            raise NoCameraError(f"picamera2 is not installed ({why})")
        from picamera2 import Picamera2

        try:
            cam = Picamera2()
            config = cam.create_video_configuration(main={"size": self.main, "format": "RGB888"},
                                                    lores={"size": self.lores, "format": "YUV420"})
            self._still_config = cam.create_still_configuration(main={"format": "RGB888"})
            cam.configure(config)
            if self.exposure:
                cam.set_controls(self._set_exposure())
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

    def _grab_still(self, exposure_scale: float = 1.0):
        """The still configuration for one picture. A darker still (glare): the automatic
        exposure's time times ``exposure_scale`` with the same gain, then automatic again."""
        try:
            if exposure_scale == 1.0:
                return self._cam.switch_mode_and_capture_array(self._still_config, "main")
            with self._shorter_exposure(exposure_scale):
                return self._cam.switch_mode_and_capture_array(self._still_config, "main")
        except Exception as exc:
            raise CameraLostError(f"Pi camera still: {exc}") from exc

    def _grab_darker(self, exposure_scale: float):
        """A darker video frame: the automatic exposure's time times ``exposure_scale``, same
        gain. Controls reach the sensor a few frames late, so frames are taken until one's
        metadata shows the new exposure (at most ``DARKER_FRAMES``); then automatic again."""
        try:
            with self._shorter_exposure(exposure_scale) as want:
                for _ in range(DARKER_FRAMES):
                    (main, lores), got = self._cam.capture_arrays(["main", "lores"])
                    if abs(got["ExposureTime"] - want) <= 0.15 * want:
                        return main, lores[: self.lores[1], : self.lores[0]]
        except Exception as exc:
            raise CameraLostError(f"Pi camera darker frame: {exc}") from exc
        raise BadFrameError(f"the Pi camera did not take the darker exposure in {DARKER_FRAMES} frames")

    @contextlib.contextmanager
    def _shorter_exposure(self, exposure_scale: float):
        """The exposure's time (as the camera has it now) times ``exposure_scale``, same gain,
        for the ``with`` block (yields the time asked for, µs); the set exposure again after."""
        cam = self._cam
        meta = cam.capture_metadata()
        want = max(100, int(meta["ExposureTime"] * exposure_scale))
        cam.set_controls({"AeEnable": False, "AnalogueGain": float(meta["AnalogueGain"]), "ExposureTime": want})
        try:
            yield want
        finally:
            cam.set_controls(self._set_exposure())

    def _set_exposure(self) -> dict:
        """The controls of the ``exposure`` setting: automatic, or that many µs."""
        return {"AeEnable": True} if not self.exposure else {"AeEnable": False, "ExposureTime": int(self.exposure)}

    def _close(self) -> None:
        if self._cam is not None:
            try:
                self._cam.stop()
            finally:
                self._cam.close()
                self._cam = None
