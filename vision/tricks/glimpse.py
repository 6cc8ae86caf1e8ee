"""A card the camera never sees still, named by its name staying the same.

Under a lamp's reflection whose halo sways round a card, the card's pixels change in every
frame and something moves beside it (to the table watch, like a hand): it is never still.
Its outline stays put, though (vision/tricks/zones.py gives it as a patch not ``steady``),
and the deck names it the same in successive frames: the name is steady, not the light.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kiosk.game.cards import Card

NAME_FRAMES = 3  # successive frames such a card must be named the same in, at the same place
SAME_PLACE = 4.0  # work px its centre may move between them


@dataclass(frozen=True)
class Glimpse:
    """``card`` named at ``centre`` in ``times`` successive frames, ``since`` to ``frame``."""

    card: Card
    centre: tuple[float, float]
    frame: int
    since: int
    times: int


class Glimpses:
    """Per seat, the card not steady named so far.

    >>> g = Glimpses()
    >>> [g.see(1, Card.parse("3O"), (10.0, 20.0), n) for n in (5, 6, 7)]
    [None, None, 5]
    """

    def __init__(self) -> None:
        self.by_seat: dict[int, Glimpse] = {}

    def see(self, seat: int, card: Card | None, centre: tuple[float, float], frame: int) -> int | None:
        """``card`` named at ``seat`` in ``frame`` (None: not named, or ruled out). The frame
        it was first named in once it was named the same ``NAME_FRAMES`` times in a row."""
        last = self.by_seat.pop(seat, None)
        if card is None:
            return None
        again = last is not None and last.card == card and last.frame == frame - 1 \
            and np.hypot(*np.subtract(last.centre, centre)) <= SAME_PLACE
        glimpse = Glimpse(card, centre, frame, last.since if again else frame, last.times + 1 if again else 1)
        if glimpse.times >= NAME_FRAMES:
            return glimpse.since
        self.by_seat[seat] = glimpse
        return None

    def naming(self, seat: int, frame: int) -> bool:
        """Is a card at ``seat`` being named over successive frames (named in ``frame``)?"""
        glimpse = self.by_seat.get(seat)
        return glimpse is not None and glimpse.frame == frame
