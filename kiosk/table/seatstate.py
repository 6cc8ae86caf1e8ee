"""The typed state of a game without pairs (four each for himself, three, rector i
vicari): one item per seat in every tuple. Part of :class:`kiosk.table.TableState`
(``state.game``); read from the core by :mod:`kiosk.table.variants`."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SeatRow:
    """One finished hand of a game without pairs, one item per seat in every tuple."""
    number: int
    dealer: int
    kind: str                       # "played", "penalty" or "misdeal"
    trump: str | None
    doubling: str
    multiplier: int
    points: tuple[int, ...] | None  # what each pile made (None: penalty, misdeal)
    scored: tuple[int, ...]
    totals: tuple[int, ...]
    offender: int | None


@dataclass(frozen=True)
class SeatResult:
    """The result waiting on the confirmation: what each seat scores and its total after."""
    kind: str
    offender: int | None
    points: tuple[int, ...] | None
    scored: tuple[int, ...]
    totals_after: tuple[int, ...]
    match_over_after: bool


@dataclass(frozen=True)
class SeatGame:
    """A game without pairs as the table shows it: one total per seat (may be negative)."""
    key: str                          # four_individual, three, two
    seats: int
    players: tuple[str | None, ...]   # typed names by seat (None: "Seat n")
    totals: tuple[int, ...]
    dealer: int
    winner: int | None                # a seat (None: not over, a draw, or abandoned)
    end_reason: str | None
    target: int | None
    deck: int                         # cards in the game's deck (36 for three)
    doubled_by: tuple[int, ...] = ()
    rows: tuple[SeatRow, ...] = ()
    result: SeatResult | None = None  # the pending result, if one is being confirmed

    @property
    def leaders(self) -> tuple[int, ...]:
        best = max(self.totals) if self.totals else 0
        return tuple(s for s, t in enumerate(self.totals) if t == best)
