"""The camera's preview: a widget the camera screens put in their kv.

The capture thread hands it each frame already shrunk (``shrink``) and drawn on
(``keep``); no decoding or full-size copy happens on the UI thread. Between ``start()``
and ``stop()`` a Clock event blits the latest kept frame into the texture fifteen times a second,
and the camera light (``light``, set in the screen's kv) is on: a screen starts its preview
when it is entered and stops it when it is left.
"""

from __future__ import annotations

import threading

from kivy.clock import Clock
from kivy.graphics.texture import Texture
from kivy.lang import Builder
from kivy.properties import ObjectProperty
from kivy.uix.image import Image

PREVIEW_WIDTH = 960  # pixels: wide enough for the screen, small enough to blit
FRAMES_PER_S = 15

Builder.load_string("""
#:import theme kiosk.ui.theme
<CameraPreview>:
    # no frame yet (or no camera): the dark panel, not a blank white box
    color: (1, 1, 1, 1) if self.texture else (0, 0, 0, 0)
    fit_mode: 'contain'
    light: app.hardware.camera_light
    canvas.before:
        Color:
            rgba: theme.PANEL
        Rectangle:
            pos: self.pos
            size: self.size
""")


def shrink(image):
    """``image`` (BGR) at most PREVIEW_WIDTH wide."""
    import cv2
    full_w, full_h = image.shape[1], image.shape[0]
    if full_w <= PREVIEW_WIDTH:
        return image
    return cv2.resize(image, (PREVIEW_WIDTH, int(full_h * PREVIEW_WIDTH / full_w)),
                      interpolation=cv2.INTER_AREA)


class CameraPreview(Image):
    """An ``Image`` showing the latest frame ``keep`` was given (any thread), blitted on
    the UI thread between ``start()`` and ``stop()``, while ``light`` (a callable taking
    ``on: bool``, None for none) keeps the camera light on."""

    light = ObjectProperty(None, allownone=True)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._latest = None
        self._lock = threading.Lock()
        self._event = None

    def keep(self, image) -> None:
        """Capture thread: the frame to show next (a BGR array, already shrunk)."""
        with self._lock:
            self._latest = image

    def show_frame(self, frame) -> None:
        """Capture thread: a camera frame (or its image) as it comes, shrunk and kept."""
        self.keep(shrink(getattr(frame, "image", frame)))

    def start(self) -> None:
        """The screen is shown: frames are blitted, the camera light is on."""
        if self._event is None:
            self._event = Clock.schedule_interval(self._blit, 1 / FRAMES_PER_S)
            if self.light is not None:
                self.light(True)

    def stop(self) -> None:
        """The screen is left: no more blitting, the camera light off."""
        if self._event is not None:
            self._event.cancel()
            self._event = None
            if self.light is not None:
                self.light(False)

    def _blit(self, dt) -> None:
        with self._lock:
            image, self._latest = self._latest, None
        if image is None or image.ndim != 3:
            return
        h, w = image.shape[:2]
        if self.texture is None or tuple(self.texture.size) != (w, h):
            texture = Texture.create(size=(w, h), colorfmt="bgr")
            texture.flip_vertical()
            self.texture = texture
        # a C-contiguous array is a buffer already: no extra copy of the preview
        buf = image.reshape(-1) if image.flags["C_CONTIGUOUS"] else image.tobytes()
        self.texture.blit_buffer(buf, colorfmt="bgr", bufferfmt="ubyte")
        self.canvas.ask_update()
