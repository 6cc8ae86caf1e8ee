"""Cards, suits and the deck.

A card is written as its rank 1-12 followed by the suit letter: ``9O`` is the manilla of
oros, ``12B`` the rei of bastos. Glossary (code = Catalan):

- suit: oros (O), copes (C), espases (E), bastos (B)
- manilla = the 9, as = the 1, rei = 12, cavall = 11, sota = 10
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Iterable

from kiosk.game.errors import InvalidCardError


class Suit(enum.Enum):
    OROS = "O"
    COPES = "C"
    ESPASES = "E"
    BASTOS = "B"

    @property
    def letter(self) -> str:
        return self.value

    @property
    def catalan(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> "Suit":
        t = text.strip()
        for s in cls:
            if t.upper() == s.value or t.lower() == s.catalan:
                return s
        raise InvalidCardError("unknown suit {text!r}: use O, C, E, B or oros, copes, espases, bastos",
                           text=text)


# High to low inside a suit: 9 (manilla), 1 (as), 12 (rei), 11 (cavall), 10 (sota), 8 ... 2.
RANK_ORDER: tuple[int, ...] = (9, 1, 12, 11, 10, 8, 7, 6, 5, 4, 3, 2)
# Variant: the 3 ranks second, after the 9 (ordering only, points unchanged).
RANK_ORDER_THREE_SECOND: tuple[int, ...] = (9, 3, 1, 12, 11, 10, 8, 7, 6, 5, 4, 2)
POINTS: dict[int, int] = {9: 5, 1: 4, 12: 3, 11: 2, 10: 1}
RANK_NAMES: dict[int, str] = {9: "manilla", 1: "as", 12: "rei", 11: "cavall", 10: "sota"}
_STRENGTH = {rank: len(RANK_ORDER) - 1 - i for i, rank in enumerate(RANK_ORDER)}
_STRENGTH_THREE_SECOND = {rank: len(RANK_ORDER_THREE_SECOND) - 1 - i
                          for i, rank in enumerate(RANK_ORDER_THREE_SECOND)}


@dataclass(frozen=True, slots=True, repr=False)
class Card:
    rank: int
    suit: Suit

    def __post_init__(self) -> None:
        if not isinstance(self.rank, int) or not 1 <= self.rank <= 12:
            raise InvalidCardError("rank {rank!r} is not 1-12", rank=self.rank)
        if not isinstance(self.suit, Suit):
            raise InvalidCardError("suit {suit!r} is not a Suit", suit=self.suit)

    @classmethod
    def parse(cls, text: str) -> "Card":
        """``"9O"`` -> Card(9, OROS). Case-insensitive; raises InvalidCardError."""
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise InvalidCardError("unknown card {text!r}", text=text)
        t = text.strip().upper()
        if len(t) < 2 or not (t[:-1].isascii() and t[:-1].isdigit()):
            raise InvalidCardError("unknown card {text!r}: write rank 1-12 then O, C, E or B (e.g. 9O)",
                                   text=text)
        rank = int(t[:-1])
        if not 1 <= rank <= 12:
            raise InvalidCardError("unknown card {text!r}: rank must be 1-12", text=text)
        try:
            suit = Suit(t[-1])
        except ValueError:
            raise InvalidCardError("unknown card {text!r}: suit must be O, C, E or B", text=text) from None
        return cls(rank, suit)

    @property
    def code(self) -> str:
        return f"{self.rank}{self.suit.value}"

    @property
    def points(self) -> int:
        return POINTS.get(self.rank, 0)

    def strength(self, *, three_second: bool = False) -> int:
        """Higher is stronger inside the suit (11 for the manilla, 0 for the 2)."""
        return (_STRENGTH_THREE_SECOND if three_second else _STRENGTH)[self.rank]

    @property
    def catalan(self) -> str:
        name = RANK_NAMES.get(self.rank, str(self.rank))
        return f"{name} de {self.suit.catalan}"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r})"


def make_deck(*, without_low: bool = False) -> tuple[Card, ...]:
    """The 48-card deck in a fixed order (suit, then rank high to low).

    ``without_low`` drops the 2, 3 and 4 (36 cards, the three-player game).
    """
    return tuple(
        Card(rank, suit)
        for suit in Suit
        for rank in RANK_ORDER
        if not (without_low and rank in (2, 3, 4))
    )


DECK: tuple[Card, ...] = make_deck()
DECK_36: tuple[Card, ...] = make_deck(without_low=True)
CARD_POINTS_IN_DECK = sum(c.points for c in DECK)  # 60


def parse_cards(items: Iterable[str | Card]) -> list[Card]:
    return [Card.parse(x) for x in items]


def card_points(cards: Iterable[Card]) -> int:
    return sum(c.points for c in cards)
