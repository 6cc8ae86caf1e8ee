"""How a meeting counts in the standings: the tournament's scoring option.

- ``wins`` (Lloret, Torrefarrera, Vilaplana): a win 1, a draw ½, a loss 0; a bye 1.
- ``league`` (club leagues): 3 points a win, 1 a draw, 0 a loss per meeting; a bye 3 (the
  pair was ready to play; like the Swiss bye, it counts as a win).

Either way the ranking is the score, then the points difference over the whole
championship, then the points scored. Kept in the tournament's file (``meta.scoring``),
chosen with ``botifarra-club serve --scoring``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Scoring:
    name: str
    win: float
    draw: float
    loss: float
    bye: float

    def score(self, *, won: int, drawn: int, lost: int, byes: int) -> float:
        return won * self.win + drawn * self.draw + lost * self.loss + byes * self.bye


SCORINGS = {s.name: s for s in (Scoring("wins", 1.0, 0.5, 0.0, 1.0), Scoring("league", 3.0, 1.0, 0.0, 3.0))}
DEFAULT = "wins"


def scoring_named(name: str) -> Scoring:
    """Raises ValueError for a name that is not one of :data:`SCORINGS`."""
    try:
        return SCORINGS[name]
    except KeyError:
        raise ValueError(f"scoring {name!r}: use one of {', '.join(SCORINGS)}") from None
