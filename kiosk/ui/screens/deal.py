"""Score by dealing an ordinary deck face up (``camera.marks = deck:NAME``).

The camera score screen with what deal-through reading needs on top: the card just read
shown large with a tick, what the reader asks for ("ja comptada", show it again, one at a
time, move it out of the reflection, the hand over the pile) and "Treu l'última". Events
come from the reader's thread through the table session's one hand-off to the UI loop.
"""

from __future__ import annotations

from kivy.properties import BooleanProperty, StringProperty

from kiosk.game import Card
from kiosk.game.cards import RANK_NAMES
from kiosk.ui.i18n import N_, _
from kiosk.ui.screens.base import load_kv
from kiosk.ui.screens.score_camera import ScoreCameraScreen

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


class DealScreen(ScoreCameraScreen):
    last_card = StringProperty("")
    ticked = BooleanProperty(False)
    ask = StringProperty("")

    def refresh(self) -> None:
        super().refresh()
        self.last_card = card_words(self.cards[-1]) if self.cards else ""
        self.ticked = bool(self.cards)

    def start_camera(self) -> None:
        super().start_camera()
        if self.service is not None:
            self.status = _("Deal the pile face up, one card at a time")

    def _show_status(self, status: str) -> None:
        if status == "running":
            self.status = _("Deal the pile face up, one card at a time")
        else:
            super()._show_status(status)

    def _on_result(self, event) -> None:
        """UI thread: what the reader saw (a ``vision.deck.tracker.DealEvent``), handed over
        by the table session after the cards it counted."""
        self._show_event(event.kind, event.card.code if event.card is not None else "")

    def _show_event(self, kind: str, card: str) -> None:
        if kind == "counted":
            self.last_card, self.ticked, self.ask = card_words(card), True, ""
        elif kind == "taken_back" and card:
            self._remove(card)
        elif kind in ASKS:
            self.ticked = False
            self.ask = _(ASKS[kind]).format(card=card_words(card) if card else "")
            self.app.hardware.feedback("error")
        elif kind == "hand":
            self.ask = ""

    def _remove(self, code: str) -> None:
        self.cards = [c for c in self.cards if c != code]
        self.session.update_draft(team=self.team, cards=list(self.cards), source="camera")
        self.last_card = card_words(self.cards[-1]) if self.cards else ""
        self.ticked = bool(self.cards)
        self._update()

    def take_back(self) -> None:
        """"Treu l'última": forget the last card (the player lifts it off the pile)."""
        if not self.cards:
            return
        if self.service is not None:
            self.service.take_back()
        self._remove(self.cards[-1])
        self.ask = _("Lift the last card off the pile")

    def restart_pile(self) -> None:
        super().restart_pile()
        self.last_card, self.ticked, self.ask = "", False, ""
