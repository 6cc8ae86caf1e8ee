"""Score by dealing an ordinary deck face up (``camera.marks = deck:NAME``).

Like the camera screen it owns a :class:`kiosk.ui.pilecamera.PileCamera` (``self.pile``) and a
preview; on top, what deal-through reading needs: the card just read shown large with a
tick, what the reader asks for ("ja comptada", show it again, one at a time, move it out of
the reflection, the hand over the pile) and "Treu l'última". Events come from the reader's
thread through the table session's one hand-off to the UI loop.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kivy.properties import BooleanProperty, ObjectProperty, StringProperty

from kiosk.game import Card
from kiosk.game.cards import RANK_NAMES
from kiosk.ui.i18n import N_, _
from kiosk.ui.pilecamera import PileCamera
from kiosk.ui.screens.base import KioskScreen, load_kv

if TYPE_CHECKING:
    from vision.deck.tracker import DealEvent

load_kv(__file__)
SUIT_NAMES = {"O": N_("oros"), "C": N_("copes"), "E": N_("espases"), "B": N_("bastos")}
ASKS = {
    "already_counted": N_("{card}: already counted. Take it off the pile."),
    "show_again": N_("Not sure which card this is: lift it and lay it down again."),
    "two_cards": N_("Two cards at once: deal them one at a time."),
    "glare": N_("A reflection on the card: move it until it no longer shines."),
}


def card_words(code: str) -> str:
    card = Card.parse(code)
    name = RANK_NAMES.get(card.rank)
    words = f"{card.rank} {_(SUIT_NAMES[card.suit.letter])}"
    return f"{words} ({name})" if name else words


class DealScreen(KioskScreen):
    pile = ObjectProperty(None)  # the PileCamera the kv draws, as on the camera screen
    last_card = StringProperty("")
    ticked = BooleanProperty(False)
    ask = StringProperty("")

    def __init__(self, **kwargs):
        kwargs.setdefault("pile", PileCamera(kwargs.get("session"), kwargs.get("app"), on_deal=self._on_result,
                                             running=N_("Deal the pile face up, one card at a time")))
        super().__init__(**kwargs)

    def refresh(self) -> None:
        self.pile.refresh()
        self._show_last()

    def on_scan_button(self):
        return self.pile.scan()

    def on_confirm_button(self):
        self.pile.done()
        return True

    def stop_camera(self) -> None:  # (also when the app stops)
        self.pile.stop()

    def _show_last(self) -> None:
        cards = self.pile.cards
        self.last_card = card_words(cards[-1]) if cards else ""
        self.ticked = bool(cards)

    def _on_result(self, event: DealEvent) -> None:
        """UI thread: what the reader saw, handed over by the table session after the cards
        it counted."""
        self._show_event(event.kind, event.card.code if event.card is not None else "")

    def _show_event(self, kind: str, card: str) -> None:
        if kind == "counted":
            self.last_card, self.ticked, self.ask = card_words(card), True, ""
        elif kind == "taken_back" and card:
            self.pile.remove(card)
            self._show_last()
        elif kind in ASKS:
            self.ticked = False
            self.ask = _(ASKS[kind]).format(card=card_words(card) if card else "")
            self.app.hardware.feedback("error")
        elif kind == "hand":
            self.ask = ""

    def take_back(self) -> None:
        """"Treu l'última": forget the last card (the player lifts it off the pile)."""
        if not self.pile.cards:
            return
        if self.pile.service is not None:
            self.pile.service.take_back()
        self.pile.remove(self.pile.cards[-1])
        self._show_last()
        self.ask = _("Lift the last card off the pile")
