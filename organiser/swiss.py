"""Swiss pairing by wins then points difference, with no rematch and a bye never given
twice. Pure and deterministic: the same standings and history give the same round.

Why a full search (with a budget) rather than the greedy "top against next": the greedy
way paints itself into a corner in late rounds and then has to allow a rematch (bbpPairings
#27, lichess #7393). Here a rematch or a second bye is never produced: if no pairing
exists without one, :class:`PairingImpossible` asks the organiser for a manual round.
"""

from __future__ import annotations

from dataclasses import dataclass


class PairingImpossible(ValueError):
    """No round without a rematch or a second bye exists (or none was found in budget)."""


@dataclass(frozen=True)
class Entrant:
    """A pair still in the tournament, as the standings see it before the round."""

    pair: int
    score: float = 0.0          # won + ½ drawn
    diff: int = 0               # points difference
    points_for: int = 0
    had_bye: bool = False


@dataclass(frozen=True)
class Round:
    """The pairings: ``tables[i]`` plays at table i+1 (pair_a = team A); ``bye`` sits out."""

    tables: tuple[tuple[int, int], ...]
    bye: int | None


def rank_key(e: Entrant) -> tuple:
    return (-e.score, -e.diff, -e.points_for, e.pair)


def pair_round(entrants: list[Entrant], played: set[frozenset[int]], *, budget: int = 200_000) -> Round:
    """Pair ``entrants`` (each pair once) avoiding every pairing in ``played``.

    The bye goes to the lowest-ranked pair that has not had one (and whose sitting out
    leaves a pairable field); each pair meets the highest-ranked opponent it has not met
    that still lets the rest be paired.

    Raises:
        PairingImpossible: no such round (a manual override is needed).
    """
    ranked = sorted(entrants, key=rank_key)
    if len({e.pair for e in ranked}) != len(ranked):
        raise ValueError("a pair is listed twice")
    if len(ranked) < 2:
        raise PairingImpossible("fewer than two pairs to pair")
    steps = [budget]
    if len(ranked) % 2 == 0:
        tables = _match([e.pair for e in ranked], played, steps)
        if tables is None:
            raise PairingImpossible(_why(steps))
        return Round(tuple(tables), None)
    for candidate in reversed(ranked):
        if candidate.had_bye:
            continue
        rest = [e.pair for e in ranked if e.pair != candidate.pair]
        tables = _match(rest, played, steps)
        if tables is not None:
            return Round(tuple(tables), candidate.pair)
        if steps[0] <= 0:
            break
    raise PairingImpossible(_why(steps))


def _why(steps: list[int]) -> str:
    if steps[0] <= 0:
        return "no pairing found within the search budget: pair this round by hand"
    return "every pairing would repeat a match or give a second bye: pair this round by hand"


def _match(order: list[int], played: set[frozenset[int]], steps: list[int]) -> list[tuple[int, int]] | None:
    """Depth-first: the first unpaired pair against each allowed opponent in rank order."""
    if not order:
        return []
    steps[0] -= 1
    if steps[0] <= 0:
        return None
    first, rest = order[0], order[1:]
    for i, opponent in enumerate(rest):
        if frozenset((first, opponent)) in played:
            continue
        tail = _match(rest[:i] + rest[i + 1:], played, steps)
        if tail is not None:
            return [(first, opponent)] + tail
        if steps[0] <= 0:
            return None
    return None
