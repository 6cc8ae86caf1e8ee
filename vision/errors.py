"""One exception root for :mod:`vision` (also a built-in, like kiosk.game.errors)."""


class VisionError(Exception):
    """Root of every error raised by :mod:`vision`."""


class CameraError(VisionError, RuntimeError):
    """No camera, camera unplugged, or a frame that cannot be read."""


class ImageError(VisionError, ValueError):
    """A photo file that cannot be read as an image."""


class KitError(VisionError, ValueError):
    """Kit options that cannot be printed (sticker too big for the page, unknown marks)."""


class NoCameraError(CameraError):
    """No camera at the configured place (nothing plugged in, wrong device)."""


class CameraLostError(CameraError):
    """The camera stopped giving frames (unplugged, driver error)."""


class BadFrameError(CameraError):
    """A frame (or image file) that cannot be read."""


class SourceSpecError(VisionError, ValueError):
    """A camera source setting that does not make sense (``open_source`` spec)."""


class CameraDriverError(CameraError):
    """The camera's library cannot be loaded (Picamera2 on a Pi): a fault, not a cable."""
