"""Tap the cards: the 48-card grid where one pair's pile is picked, counted live and checked
with the same rules as a camera read (whole tricks, no card twice)."""

from __future__ import annotations

from kiosk.game import DECK, Card, HandResult, Suit, card_points
from kiosk.ui.i18n import _, ngettext

SUIT_ROWS: tuple[Suit, ...] = (Suit.OROS, Suit.COPES, Suit.ESPASES, Suit.BASTOS)
RANK_COLUMNS: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)


class CardPicker:
    """The cards of ``team``'s pile. ``other`` (cards known to be in the other pile, e.g. from
    a scan) cannot be picked: no card twice."""

    def __init__(self, team: str = "A", cards=(), *, other=()) -> None:
        self.team = team
        self.selected: set[Card] = {Card.parse(c) for c in cards}
        self.other: set[Card] = {Card.parse(c) for c in other}

    def toggle(self, card: Card | str) -> bool:
        card = Card.parse(card)
        if card in self.other:
            return False
        if card in self.selected:
            self.selected.discard(card)
        else:
            self.selected.add(card)
        return True

    def clear(self) -> None:
        self.selected.clear()

    def set_team(self, team: str) -> None:
        self.team = team

    @property
    def card_points(self) -> int:
        return card_points(self.selected)

    @property
    def tricks(self) -> int:
        return len(self.selected) // 4

    @property
    def points(self) -> int:
        """Card points plus one per trick (only meaningful when the pile is whole tricks)."""
        return self.card_points + self.tricks

    @property
    def problem(self) -> str | None:
        """Why the pile cannot be scored yet, in the current language, or None."""
        n = len(self.selected)
        if n % 4:
            return ngettext("{n} card: a pile is whole tricks (4 cards each)",
                            "{n} cards: a pile is whole tricks (4 cards each)", n).format(n=n)
        if self.selected & self.other:
            return _("A card is in both piles")
        return None

    @property
    def ordered(self) -> list[Card]:
        return [c for c in DECK if c in self.selected]

    def result(self, *, source: str = "cards", evidence: str | None = None) -> HandResult:
        """The pile as the hand's result to confirm."""
        return HandResult.scored(piles={self.team: [c.code for c in self.ordered]}, source=source,
                                 evidence=evidence)
