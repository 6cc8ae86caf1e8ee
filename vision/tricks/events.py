"""What the trick reader says happened in a frame: a card named at its seat, or an ask.

The table shows :class:`TrickPlay` as the card played and answers a :class:`TrickAsk` with
the card (``TrickReader.answer``).
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.game.cards import Card


@dataclass(frozen=True)
class TrickPlay:
    """A card named at its seat, in its trick (``frame``: the frame it was read in)."""

    trick: int
    seat: int
    card: Card
    frame: int


@dataclass(frozen=True)
class TrickAsk:
    """A card at ``seat`` the reader cannot name (``reason`` "unnamed"), names as one
    already played ("played": ``card``), or did not see before its trick was taken off
    ("taken"): the table is asked to show or say it."""

    trick: int
    seat: int
    reason: str
    frame: int
    card: Card | None = None


TrickEvent = TrickPlay | TrickAsk
