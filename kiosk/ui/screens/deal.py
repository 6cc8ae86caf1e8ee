"""Score by dealing an ordinary deck face up (``camera.marks = deck:NAME``).

Like the camera screen it owns a :class:`kiosk.ui.pilecamera.PileCamera` (``self.pile``) and a
preview; on top, a :class:`kiosk.ui.dealthrough.DealThrough` (``self.deal``): the card just
read shown large with a tick, what the reader asks for and "Traieu l'última". Events come from
the reader's thread through the table session's one hand-off to the UI loop.
"""

from __future__ import annotations

from kivy.properties import ObjectProperty

from kiosk.ui.dealthrough import DealThrough
from kiosk.ui.i18n import N_
from kiosk.ui.pilecamera import PileCamera
from kiosk.ui.screens.base import KioskScreen, load_kv

load_kv(__file__)


class DealScreen(KioskScreen):
    pile = ObjectProperty(None)  # the PileCamera the kv draws, as on the camera screen
    deal = ObjectProperty(None)  # the DealThrough the kv draws: the card, the asks

    def __init__(self, **kwargs):
        pile = PileCamera(kwargs.get("session"), kwargs.get("app"), on_deal=lambda e: self.deal.show(e),
                          running=N_("Deal the pile face up, one card at a time"))
        kwargs.setdefault("pile", pile)
        kwargs.setdefault("deal", DealThrough(kwargs.get("app"), service=lambda: pile.service,
                                              cards=lambda: pile.cards, remove=pile.remove))
        super().__init__(**kwargs)

    def refresh(self) -> None:
        self.pile.refresh()
        self.deal.show_last()

    def on_scan_button(self):
        return self.pile.scan()

    def on_confirm_button(self):
        self.pile.done()
        return True

    def stop_camera(self) -> None:  # (also when the app stops)
        self.pile.stop()
