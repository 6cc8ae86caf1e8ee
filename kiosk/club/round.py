"""What the table's screens show and enforce in a tournament round (Kivy-free).

The scoreboard shows :func:`banner` big ("Ronda 3 · Taula 7 · Parella 12 contra Parella
3"); the match is created with :func:`match_created_event`, so the game core itself ends
it at the target, after N hands and caps the points; the round's clock is the one end the
core cannot see, so :meth:`kiosk.club.table.ClubTable.tick` has the session call time when
it runs out.
A finished match is only a *confirmed* result once the opponents tapped
(:func:`result_state`); until then the organiser shows it as provisional.
"""

from __future__ import annotations

import enum
import math
import time
from dataclasses import dataclass

from clubwire.payloads import Confirmation, RoundAssignment
from kiosk.messages import translations

@dataclass(frozen=True)
class Banner:
    """The round as the scoreboard shows it."""

    title: str                 # "Ronda 3 · Taula 7 · Parella 12 contra Parella 3"
    ends: str                  # "101 punts · 12 mans · 60 min · màx. 121"
    minutes_left: int | None   # whole minutes, rounded up; 0 = time is up


class ResultState(enum.Enum):
    PLAYING = "playing"                      # the match goes on
    AWAITING_CONFIRMATION = "awaiting"       # over; the opponents must tap to confirm
    CONFIRMED = "confirmed"                  # the result counts as final


def banner(assignment: RoundAssignment, *, lang: str = "ca", now: float | None = None) -> Banner:
    _ = translations(lang).gettext  # the kiosk's one catalogue, in the language asked for
    title = _("Round {round} · Table {table} · Pair {pair_a} v Pair {pair_b}").format(
        round=assignment.round, table=assignment.table, pair_a=assignment.pair_a, pair_b=assignment.pair_b)
    c = assignment.conditions
    parts = [_("{target} points").format(target=c.target) if c.target else "",
             _("{hands} hands").format(hands=c.max_hands) if c.max_hands else "",
             _("{minutes} min").format(minutes=c.time_limit_min) if c.time_limit_min else "",
             _("max {cap}").format(cap=c.points_cap) if c.points_cap else ""]
    return Banner(title, " · ".join(x for x in parts if x), minutes_left(assignment, now=now))


def minutes_left(assignment: RoundAssignment, *, now: float | None = None) -> int | None:
    if not assignment.conditions.time_limit_min:
        return None
    end = assignment.started_at + 60 * assignment.conditions.time_limit_min
    left = end - (time.time() if now is None else now)
    return max(0, math.ceil(left / 60))


def match_created_event(assignment: RoundAssignment, *, first_dealer: int = 0,
                        players: list | None = None) -> dict:
    """The ``match_created`` event of the round's match: team A = ``pair_a``, and the end
    conditions in the rules, so the core ends the match at the target, after N hands and
    counts at most the cap."""
    c = assignment.conditions
    # No time limit in the match's own rules: the round's clock started when the organiser
    # started the round, not when this table began, and it is enforced from the round order
    # (ClubTable.tick); a second clock on screen would disagree.
    rules = {"preset": assignment.preset, "target": c.target, "max_hands": c.max_hands,
             "time_limit_min": None, "points_cap": c.points_cap}
    names = {"A": assignment.name_a or f"Parella {assignment.pair_a}",
             "B": assignment.name_b or f"Parella {assignment.pair_b}"}
    return {"type": "match_created", "rules": rules, "first_dealer": first_dealer,
            "players": players or [None] * 4, "team_names": names}


def confirming_team(match) -> str:
    """Who must tap: the pair that did not win (accepting the result costs the loser
    something, so theirs is the tap that means agreement); after a draw, pair B."""
    return "A" if match.winner == "B" else "B"


def result_state(match, confirmation: Confirmation | None) -> ResultState:
    if not match.is_over:
        return ResultState.PLAYING
    if confirmation is not None and confirmation.upto >= len(match.events):
        return ResultState.CONFIRMED
    return ResultState.AWAITING_CONFIRMATION
