"""History's replay of a hand played trick by trick: the four seats with each card of one
trick, its winner and both pairs' points after it; Previous / Next walk the 12 tricks.

History hands it the hand (``show``): the core keeps each hand played by camera as its cards
were laid (``Match.cards_of_hand``), read into the same ``TrickSeen`` values as the trick
screen's (kiosk/table/tricks.py).
"""

from __future__ import annotations

from kivy.properties import BooleanProperty, NumericProperty, StringProperty

from kiosk.table.tricks import TrickSeen, view_of_hand
from kiosk.ui.i18n import _
from kiosk.ui.screens.base import KioskScreen, load_kv, trump_name
from kiosk.ui.screens.tricks import card_colour, card_text

load_kv(__file__)


class ReplayScreen(KioskScreen):
    header = StringProperty("")
    status = StringProperty("")
    at = NumericProperty(0)  # the trick shown, 0-11
    has_prev = BooleanProperty(False)
    has_next = BooleanProperty(False)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.tricks: tuple[TrickSeen, ...] = ()
        self.points: list[dict] = []
        self.names: dict = {"A": "", "B": ""}
        self.hand_number = 0
        self.trump = ""

    def show(self, hand, *, number: int, team_names: dict) -> None:
        """Replay ``hand`` (a ``HandInPlay``), hand ``number`` of its match, from trick 1."""
        view = view_of_hand(hand)
        self.tricks = view.tricks
        self.points = [dict(t.points) for t in hand.tricks]
        self.names, self.hand_number, self.trump = dict(team_names), number, hand.trump.value
        self.at = 0
        self.refresh()

    def refresh(self) -> None:
        if not self.tricks:
            return
        self.at = max(0, min(self.at, len(self.tricks) - 1))
        trick, points = self.tricks[self.at], self.points[self.at]
        self.header = _("Hand {hand} · Trick {n} · {a} {pa} – {b} {pb}").format(
            hand=self.hand_number, n=trick.number, a=self.names["A"], pa=points["A"], b=self.names["B"],
            pb=points["B"]) + f"  ·  {trump_name(self.trump)}"
        self.status = _("Won by seat {n}").format(n=trick.winner + 1)
        for seat in range(4):
            code = trick.cards[seat]
            self.ids[f"seat{seat}"].info = {"text": card_text(code), "card": code or "",
                                            "name": _("Seat {n}").format(n=seat + 1) + (
                                                " · " + _("leads") if seat == trick.lead else ""),
                                            "ask": "", "turn": False, "won": trick.winner == seat,
                                            "bg": card_colour(code)}
        self.has_prev, self.has_next = self.at > 0, self.at < len(self.tricks) - 1

    def step(self, by: int) -> None:
        self.at += by
        self.refresh()
