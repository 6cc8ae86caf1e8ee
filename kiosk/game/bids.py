"""The typed words of bidding: the phase a hand is in, and a bid the core allows now.

A :class:`Bid` is what ``Contract.bids`` (and ``Match.bids()``) hand out; its ``event`` is
the journal's form of it (``legal_bids()`` lists those). Phases and bid kinds are string
enums, so a member compares equal to its key (``Phase.DOUBLING == "doubling"``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from typing import Callable, Sequence

from kiosk.game.errors import BotifarraError, IllegalBidError, Message, player
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


def seat_namer(players: Sequence[str | None] | None) -> Callable[[int], Message]:
    """How a bid's error names a seat: by its player's name when the table gave one."""
    def who(seat: int) -> Message:
        return player(seat, players[seat] if players and 0 <= seat < len(players) else None)
    return who


def check_play(trump: Trump | None, closed: bool) -> None:
    """Play starts once, after trump is chosen (every game). Raises ``IllegalBidError``."""
    if trump is None:
        raise IllegalBidError("trump has not been chosen yet, so play cannot start")
    if closed:
        raise IllegalBidError("play has already started")


def double_too_soon(level: Doubling, trump: Trump | None, closed: bool) -> IllegalBidError | None:
    """Why ``level`` cannot be said at this point of the hand: a double comes after trump is
    chosen and before play starts (every game)."""
    if trump is None:
        return IllegalBidError("{level} comes after trump is chosen", level=level.key)
    if closed:
        return IllegalBidError("play has started, it is too late for {level}", level=level.key)
    return None


def double_out_of_turn(level: Doubling, doubling: Doubling) -> IllegalBidError | None:
    """Why ``level`` cannot follow ``doubling``: each double in its turn (every game)."""
    if level != doubling + 1:
        if level <= doubling:
            return IllegalBidError("{level} was already said", level=level.key)
        return IllegalBidError("{level} is only possible after {needed}", level=level.key,
                               needed=Doubling(level - 1).key)
    return None


def said_trump(event: dict) -> Trump:
    """The trump a ``trump`` bid names. Raises ``IllegalBidError``."""
    try:
        return Trump.parse(event.get("trump"))
    except BotifarraError as e:
        raise IllegalBidError.from_error(e) from None


def said_level(event: dict) -> Doubling:
    """The level a ``double`` bid reaches: contro, recontro or Sant Vicenç. Raises
    ``IllegalBidError``."""
    try:
        level = Doubling.parse(event.get("level"))
    except BotifarraError as e:
        raise IllegalBidError.from_error(e) from None
    if level is Doubling.NONE:
        raise IllegalBidError("a double must be contro, recontro or sant_vicenc")
    return level
