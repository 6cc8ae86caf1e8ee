"""What the deal-through tracker (:mod:`vision.deck.tracker`) tells the kiosk: its events
and the pile's tally."""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.game import Card
from vision.deck.darker import DarkerRequest
from vision.deck.model import Naming

COUNTED = "counted"
ALREADY = "already_counted"
SHOW_AGAIN = "show_again"
TWO_CARDS = "two_cards"
UNDER = "card_under"  # ``card`` counted, and a card under it came unseen: lift ``card``, show that one, lay ``card`` back
GLARE = "glare"
HAND = "hand"
TAKEN_BACK = "taken_back"
DARKER = "darker"  # not for the player: the caller is to answer ``event.darker`` with feed_darker()
ASK_KINDS = (SHOW_AGAIN, TWO_CARDS, GLARE, UNDER)  # the kiosk asks the player to do something about the card


@dataclass(frozen=True)
class DealEvent:
    """Something the kiosk shows: ``kind`` is one of the module's event names."""

    kind: str
    card: Card | None = None
    naming: Naming | None = None
    frame_number: int = 0
    darker: DarkerRequest | None = None  # kind DARKER: the darker frame wanted
    earlier: bool = False  # about the frame that asked for a darker frame, not the darker frame (a card came between)
    under: bool = False  # kind COUNTED: the card under the one counted next, come and covered unread, named where it lay


@dataclass(frozen=True)
class Tally:
    """The pile so far: its points, its tricks (cards / 4) and the cards in dealing order."""

    cards: tuple[Card, ...]
    points: int
    tricks: int
