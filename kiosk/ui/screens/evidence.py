"""The evidence photo of a hand read by the camera, for when the table disagrees: the
annotated photo fitted to the screen, what was read, a big Back. A tap zooms 2× around
the tapped point; another tap shows the whole photo again. The JPEG is decoded on a worker
thread and handed to the UI thread through the Clock."""

from __future__ import annotations

import threading

from kivy.graphics.texture import Texture
from kivy.logger import Logger
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.image import Image

from kiosk.ui.i18n import _, shown_names
from kiosk.ui.screens.base import KioskScreen, load_kv
from kiosk.ui.viewmodels.evidence import current_evidence

load_kv(__file__)

MAX_WIDTH = 1920  # a bigger photo is shrunk on the worker thread (the screen is never wider)


def decode(path: str):
    """Worker thread: the photo as a BGR array no wider than MAX_WIDTH, or None."""
    import cv2
    image = cv2.imread(path, cv2.IMREAD_COLOR)
    if image is None or image.ndim != 3 or image.size == 0:
        return None
    if image.shape[1] > MAX_WIDTH:
        h = max(1, int(image.shape[0] * MAX_WIDTH / image.shape[1]))
        image = cv2.resize(image, (MAX_WIDTH, h), interpolation=cv2.INTER_AREA)
    return image


class EvidencePhoto(Image):
    """The photo; a tap calls ``on_tap(x, y)`` of the screen."""
    screen = ObjectProperty(None, allownone=True)

    def on_touch_up(self, touch):
        if self.collide_point(*touch.pos) and self.screen is not None and self.texture is not None:
            self.screen.toggle_zoom(*touch.pos)
            return True
        return super().on_touch_up(touch)


class EvidenceScreen(KioskScreen):
    title = StringProperty("")
    caption = StringProperty("")
    message = StringProperty("")
    loading = BooleanProperty(False)
    zoomed = BooleanProperty(False)
    texture = ObjectProperty(None, allownone=True)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._image = None
        self._generation = 0
        self.zoom_origin = (0, 0)

    def refresh(self) -> None:
        ev = current_evidence(self.session)
        self._generation += 1
        self._image, self.texture, self.zoomed = None, None, False
        if ev is None:
            self.title, self.caption = _("Photo"), ""
            self.message = _("This hand has no photo")
            return
        self.title = _("Photo of hand {n}").format(n=ev.number)
        self.caption = ev.caption(shown_names(self.session.state.team_names))
        problem = ev.problem
        if problem:
            self.message = problem
            return
        self.message = _("Opening the photo…")
        self.loading = True
        generation, path = self._generation, ev.path

        def work():
            try:
                image = decode(path)
            except Exception:
                Logger.exception("kiosk: could not decode the evidence photo %s", path)
                image = None
            self.app.to_ui(self._loaded)(generation, image)

        threading.Thread(target=work, name="evidence-photo", daemon=True).start()

    def _loaded(self, generation: int, image) -> None:
        if generation != self._generation:
            return  # a newer photo was asked for meanwhile
        self.loading = False
        if image is None:
            self.message = _("The photo of this hand is damaged and cannot be shown")
            return
        self._image = image
        self.message = ""
        self._show(image)

    def _show(self, image) -> None:
        h, w = image.shape[:2]
        texture = Texture.create(size=(w, h), colorfmt="bgr")
        texture.flip_vertical()
        texture.blit_buffer(image.tobytes(), colorfmt="bgr", bufferfmt="ubyte")
        self.texture = texture

    def toggle_zoom(self, x: float, y: float) -> None:
        """2× around the tapped point (window coordinates), or back to the whole photo."""
        image = self._image
        if image is None:
            return
        if self.zoomed:
            self.zoomed = False
            self._show(image)
            return
        photo = self.ids.photo
        nw, nh = photo.norm_image_size
        if nw <= 0 or nh <= 0:
            return
        px, py = photo.to_widget(x, y)
        left, bottom = photo.center_x - nw / 2, photo.center_y - nh / 2
        h, w = image.shape[:2]
        fx = min(max((px - left) / nw, 0.0), 1.0)
        fy = min(max(1.0 - (py - bottom) / nh, 0.0), 1.0)  # from the top, as the array rows
        cw, ch = w // 2, h // 2
        x0 = int(min(max(fx * w - cw / 2, 0), w - cw))
        y0 = int(min(max(fy * h - ch / 2, 0), h - ch))
        self.zoomed = True
        self.zoom_origin = (x0, y0)  # the zoomed part's top-left pixel in the photo
        self._show(image[y0:y0 + ch, x0:x0 + cw].copy())

    def back(self) -> None:
        self._generation += 1
        self._image, self.texture = None, None
        self.app.close_overlay()

    def on_leave(self, *args):
        self._generation += 1
        self._image, self.texture = None, None

    def on_confirm_button(self):
        self.back()
        return True

    def on_undo_button(self):
        self.back()
        return True

    def on_scan_button(self):
        return True
