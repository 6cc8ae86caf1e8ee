"""Score by camera: the camera's preview and what the session has read of the pile.

The screen owns a :class:`kiosk.ui.pilecamera.PileCamera` (``self.pile``: the camera started
and stopped with the screen, the status, what a still asks, the pair and the cards of the
session's draft) and puts a :class:`kiosk.ui.preview.CameraPreview` in its kv, which starts
the pile with the screen's preview when it is entered and stops it when it is left; the deal
screen owns the same two.
"""

from __future__ import annotations

from kivy.properties import ObjectProperty

from kiosk.ui.i18n import N_
from kiosk.ui.pilecamera import PileCamera
from kiosk.ui.screens.base import KioskScreen, load_kv

load_kv(__file__)


class ScoreCameraScreen(KioskScreen):
    pile = ObjectProperty(None)  # the PileCamera the kv draws

    def __init__(self, **kwargs):
        kwargs.setdefault("pile", PileCamera(kwargs.get("session"), kwargs.get("app"),
                                             running=N_("Spread the pile under the camera")))
        super().__init__(**kwargs)

    def refresh(self) -> None:
        self.pile.refresh()

    def stop_camera(self) -> None:  # (also when the app stops)
        self.pile.stop()

    def on_scan_button(self):
        return self.pile.scan()

    def on_confirm_button(self):
        self.pile.done()
        return True
