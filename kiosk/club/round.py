"""What the table's screens show and enforce in a tournament round (Kivy-free).

The scoreboard shows :func:`banner` big ("Ronda 3 · Taula 7 · Parella 12 contra Parella
3"); the match is created with :func:`match_created_event`, so the game core itself ends
it at the target, after N hands and caps the points; the round's clock is the one end the
core cannot see, so :meth:`ClubRound.enforce_time` appends ``time_up`` when it runs out.
A finished match is only a *confirmed* result once the opponents tapped
(:func:`result_state`); until then the organiser shows it as provisional.
"""

from __future__ import annotations

import enum
import math
import time
from dataclasses import dataclass
from typing import Callable

from kiosk.club.messages import Confirmation, RoundAssignment, TableState
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


def table_state(table: str, match_id: int, events: list[dict], round_number: int | None,
                assignment: RoundAssignment | None, *, now: float) -> TableState | None:
    """What the table shows now (its retained ``state``), or None for an unreadable match."""
    from kiosk.game import BotifarraError, Match
    try:
        match = Match.from_events(events)
    except (BotifarraError, KeyError, TypeError, ValueError):
        return None  # the journal says why; there is no score to show
    if match.variant != "pairs":  # club mode is pairs only (issue 24): no pair score to show
        return None
    left = None
    if assignment is not None and round_number == assignment.round:
        left = minutes_left(assignment, now=now)
    return TableState(table, match_id, dict(match.totals), len(match.hands), match.hand_number,
                      match.rules.max_hands, left, match.is_over, match.winner, round_number)


def match_created_event(assignment: RoundAssignment, *, first_dealer: int = 0,
                        players: list | None = None) -> dict:
    """The ``match_created`` event of the round's match: team A = ``pair_a``, and the end
    conditions in the rules, so the core ends the match at the target, after N hands and
    counts at most the cap."""
    c = assignment.conditions
    # No time limit in the match's own rules: the round's clock started when the organiser
    # started the round, not when this table began, and it is enforced from the round order
    # (ClubRound.enforce_time, ClubTable.tick); a second clock on screen would disagree.
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


class ClubRound:
    """The table's part of a round, for the screens.

    Args:
        journal: the kiosk's Journal (the one writer appends through it).
        outbox: the table's :class:`kiosk.club.outbox.Outbox` (``publisher.outbox``): the
            round order received, the round each match belongs to, the confirmations.
        notify: wakes the publisher after a write (``publisher.notify``).

    Example::

        club = ClubRound(journal, publisher.outbox, notify=publisher.notify)
        if club.assignment: match_id = club.start_match()
        club.enforce_time(match_id)          # from the UI's clock, once a second
    """

    def __init__(self, journal, outbox, *, notify: Callable[[], None] = lambda: None,
                 clock: Callable[[], float] = time.time) -> None:
        self.journal = journal
        self.outbox = outbox
        self._notify = notify
        self._clock = clock

    @property
    def assignment(self) -> RoundAssignment | None:
        return self.outbox.assignment()

    def banner(self, lang: str = "ca") -> Banner | None:
        a = self.assignment
        return banner(a, lang=lang, now=self._clock()) if a else None

    def start_match(self) -> int:
        """Create the round's match in the journal and bind it to the round."""
        a = self.assignment
        if a is None:
            raise LookupError("no round order received from the organiser yet")
        match_id = self.journal.create_match(match_created_event(a))
        self.outbox.bind_round(match_id, a.round)
        self._notify()
        return match_id

    def enforce_time(self, match_id: int) -> bool:
        """Append ``time_up`` once the round's time has run out; True if it did now."""
        a = self.assignment
        found, bound = self.outbox.bound_round(match_id)
        if a is None or not found or bound != a.round or minutes_left(a, now=self._clock()) != 0:
            return False
        match = self.journal.load(match_id)
        if match.is_over or match.time_up or "time_up" not in match.available_events():
            return False
        self.journal.append(match_id, {"type": "time_up"})
        self._notify()
        return True

    def state(self, match_id: int) -> ResultState:
        return result_state(self.journal.load(match_id), self.outbox.confirmation(match_id))

    def confirm(self, match_id: int, by: str) -> None:
        """The opponents' tap: ``by`` must be :func:`confirming_team` of the finished match."""
        match = self.journal.load(match_id)
        if not match.is_over:
            raise ValueError("only a finished match's result can be confirmed")
        if by != confirming_team(match):
            raise ValueError(f"the result is confirmed by pair {confirming_team(match)}, the opponents")
        self.outbox.save_confirmation(Confirmation(self.outbox.table, match_id, by, len(match.events)))
        self._notify()
