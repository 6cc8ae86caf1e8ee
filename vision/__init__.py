"""Camera side of the kiosk: marked-card kit, pile reader, frame sources, camera service.

May import :mod:`kiosk.game`; never Kivy. Errors inherit :class:`VisionError`.
"""

from vision.errors import CameraError, VisionError  # noqa: F401
