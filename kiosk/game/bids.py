"""The typed words of bidding: the phase a hand is in, and a bid the core allows now.

A :class:`Bid` is what ``Contract.bids`` (and ``Match.bids()``) hand out; its ``event`` is
the journal's form of it (``legal_bids()`` lists those). Phases and bid kinds are string
enums, so a member compares equal to its key (``Phase.DOUBLING == "doubling"``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from kiosk.game.rules import Doubling, Trump


class Phase(enum.StrEnum):
    """Where a hand's bidding stands (``OVER``: the match is over)."""

    CHOOSE_TRUMP = "choose_trump"
    DELEGATED = "delegated"
    DOUBLING = "doubling"
    PLAYING = "playing"
    OVER = "over"


BIDDING_PHASES = (Phase.CHOOSE_TRUMP, Phase.DELEGATED, Phase.DOUBLING)


class BidKind(enum.StrEnum):
    TRUMP = "trump"
    DELEGATE = "delegate"
    DOUBLE = "double"
    PLAY = "play"


@dataclass(frozen=True, slots=True)
class Bid:
    """One bid allowed now: ``seat`` says it (None for ``play``, which the table says);
    ``trump`` the trump named, ``level`` the doubling it reaches.

    Example::

        >>> Bid(BidKind.DOUBLE, 1, level=Doubling.CONTRO).event
        {'type': 'double', 'seat': 1, 'level': 'contro'}
    """

    kind: BidKind
    seat: int | None = None
    trump: Trump | None = None
    level: Doubling | None = None

    @property
    def event(self) -> dict:
        """The journal's event for this bid (what ``Match.apply`` takes)."""
        event: dict = {"type": self.kind.value}
        if self.seat is not None:
            event["seat"] = self.seat
        if self.trump is not None:
            event["trump"] = self.trump.value
        if self.level is not None:
            event["level"] = self.level.key
        return event
