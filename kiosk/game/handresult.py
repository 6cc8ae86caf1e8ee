"""A hand's result before it is saved: what a table proposes and confirms.

:class:`HandResult` is the typed face of the three events that close a hand
(``hand_scored``, ``penalty``, ``misdeal``); ``event`` is the journal's form, which the
core validates when it is applied (``Match.apply``), and ``from_event`` reads it back
as it was written (nothing checked, nothing lost).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass


class ResultKind(enum.StrEnum):
    HAND_SCORED = "hand_scored"
    PENALTY = "penalty"
    MISDEAL = "misdeal"


@dataclass(frozen=True)
class HandResult:
    """One hand's result to confirm: a scored hand gives ``piles`` (card codes by pair,
    one or both; in a game without pairs, every seat's pile in seat order) or ``points``
    (one pair's; every seat's in a game without pairs); a penalty its ``offender`` ("A"/"B"); a
    misdeal nothing. ``source`` says how it was scored ("camera", "cards", "points"),
    ``evidence`` the photo's path.

    Example::

        >>> HandResult.scored(points={"A": 45}, source="points").event
        {'type': 'hand_scored', 'points': {'A': 45}, 'source': 'points', 'evidence': None}
    """

    kind: ResultKind
    piles: Mapping[str, Sequence[str]] | Sequence[Sequence[str]] | None = None
    points: Mapping[str, int] | Sequence[int] | None = None
    offender: str | int | None = None  # a pair ("A"/"B"), or a seat in a game without pairs
    source: str | None = None
    evidence: str | None = None

    @classmethod
    def scored(cls, *, piles: Mapping[str, Sequence[str]] | Sequence[Sequence[str]] | None = None,
               points: Mapping[str, int] | Sequence[int] | None = None, source: str,
               evidence: str | None = None) -> "HandResult":
        return cls(ResultKind.HAND_SCORED, piles=piles, points=points, source=source, evidence=evidence)

    @classmethod
    def from_event(cls, event: Mapping) -> "HandResult":
        """The journal's event of a hand result (``KeyError`` without a type, ``ValueError``
        for another event)."""
        return cls(ResultKind(event["type"]), piles=event.get("piles"), points=event.get("points"),
                   offender=event.get("offender"), source=event.get("source"),
                   evidence=event.get("evidence"))

    @property
    def event(self) -> dict:
        """The journal's form (what ``Match.apply`` takes); a result that says its source
        also says its evidence, null or a path."""
        event: dict = {"type": self.kind.value}
        for name, value in (("piles", self.piles), ("points", self.points),
                            ("offender", self.offender), ("source", self.source)):
            if value is not None:
                event[name] = value
        if self.source is not None or self.evidence is not None:
            event["evidence"] = self.evidence
        return event
