"""What the deal-through tracker remembers of the pile (:class:`vision.deck.pile.Pile`): a settled
state per card dealt (the table under the pile first), and an ask held back for one look more
(:mod:`vision.deck.again`); the last look's "a hand is there" over a card."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kiosk.game import Card
from vision.deck.darker import tone_map
from vision.deck.model import Naming


@dataclass
class Settled:
    detail: np.ndarray | None
    card: Card | None = None
    pending: bool = False  # lies there unread (asked about): replaced by what comes next
    darker: np.ndarray | None = None  # the same table in the darker exposure (detail size), if one was taken
    where: np.ndarray | None = None  # the outline of what was dealt (detail px)

    def at_exposure(self, dark: np.ndarray | None) -> np.ndarray | None:
        """This state's picture at the exposure of ``dark`` (a darker frame's detail copy; None:
        the normal exposure): its own darker frame if one was taken, else its detail tone-mapped."""
        if dark is None or self.detail is None:
            return self.detail
        return self.darker if self.darker is not None else tone_map(self.detail, dark)


@dataclass(frozen=True)
class Held:
    """An ask held back for one look more (:mod:`vision.deck.again`): the pile's state the card came
    over, and what the ask would have said (the look's detail and darker copies, the card's outline
    if one was found, the classifier's unsure naming, a reflection on it)."""

    state: Settled
    detail: np.ndarray
    dark: np.ndarray | None
    where: np.ndarray | None
    naming: Naming | None
    glare: bool
    seen: np.ndarray | None = None  # no outline found: where the look saw the table change (a mask, detail px)


@dataclass(frozen=True)
class Handed:
    """A look's "a hand is there" over a card (:meth:`vision.deck.pile.Pile._rests`): what it saw (detail
    size), whether that was a darker frame, and the card's outline."""

    seen: np.ndarray
    dark: bool
    quad: np.ndarray
