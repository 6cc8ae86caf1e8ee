"""``Backlog``: what the publisher has to send, and the table's report.

The table session hands the publisher each state it builds (:meth:`Publisher.follow`): a
state whose match has more events than the backlog knows makes it read that match's new
events (a read of rows, never a fold), and the retained report (:class:`TableReport`) is
made from the state itself, so the core folds a match once, in the session's journal. A
journal written by someone else (``botifarra-kiosk club publish``, the simulated tables of
the club tests) is read when the publisher is told (:meth:`Publisher.notify`) and once at
the start: the backlog of an earlier night.

Only the publisher's own thread uses a Backlog.
"""

from __future__ import annotations

import calendar
import time
from dataclasses import dataclass
from typing import Callable

from clubwire.payloads import RoundAssignment, TableReport
from kiosk.club.outbox import Outbox
from kiosk.club.round import minutes_left
from kiosk.journal import Journal, MatchInfo
from kiosk.table import TableState


@dataclass
class Tracked:
    """What the publisher knows of one journal match."""

    events: list[dict]
    round: int | None
    summary: tuple = ()  # the journal's summary at the last scan: a scan re-reads a match only when it moved


def _summary(info: MatchInfo) -> tuple:
    return (info.updated_at, info.is_over, info.hands, tuple(sorted(info.totals.items())), info.phase)


class Backlog:
    """The events of each journal match and the round each belongs to.

    Args:
        journal: the kiosk's journal, opened read-only (the kiosk stays the writer).
        outbox: the publisher's sidecar (the round order received, each match's round).
    """

    def __init__(self, journal: Journal, outbox: Outbox) -> None:
        self.journal = journal
        self.outbox = outbox
        self.tracked: dict[int, Tracked] = {}
        self._state: TableState | None = None

    def refresh(self, *, scan: bool, state: TableState | None, round_known: bool) -> int:
        """Read what changed: every match whose journal summary moved when ``scan``, the
        match of the session's ``state`` when it has events not read yet. Returns how many
        matches wait for the round order before they can be sent."""
        if state is not None:
            self._state = state
        infos: list[MatchInfo] = []
        if scan:
            for info in self.journal.matches():
                if info.variant != "pairs":
                    continue  # club mode is pairs only (issue 24): nothing the organiser can score
                tracked = self.tracked.get(info.id)
                # The summary's time has one-second steps, so an unfinished match is always
                # re-read; a finished one only when its summary moves.
                if tracked is None or tracked.summary != _summary(info) or not info.is_over:
                    infos.append(info)
        handed = self._state
        if handed is not None and handed.match_id is not None and not any(i.id == handed.match_id for i in infos):
            tracked = self.tracked.get(handed.match_id)
            if tracked is None or len(tracked.events) < handed.events:
                bound, round_number = self.outbox.bound_round(handed.match_id)
                if bound:  # the usual case: only the match's rows are read
                    self.tracked[handed.match_id] = Tracked(self.journal.events(handed.match_id), round_number,
                                                            tracked.summary if tracked else ())
                else:  # a new match: its start time tells its round
                    infos.extend(i for i in self.journal.matches() if i.id == handed.match_id)
        waiting = 0
        for info in infos:
            bound, round_number = self.outbox.bound_round(info.id)
            if not bound:
                if not round_known:
                    waiting += 1  # not yet: the retained round order may be on its way
                    continue
                round_number = self.outbox.bind_round(info.id, self._round_for(info.created_at))
            self.tracked[info.id] = Tracked(self.journal.events(info.id), round_number, _summary(info))
        return waiting

    def _round_for(self, created_at: str) -> int | None:
        """The round a new match belongs to: the latest order received before it began.
        Both times are this kiosk's own clock (the organiser's may differ)."""
        received = self.outbox.received_assignment()
        if received is None:
            return None
        assignment, received_at = received
        created = calendar.timegm(time.strptime(created_at, "%Y-%m-%dT%H:%M:%SZ"))
        return assignment.round if created >= int(received_at) - 1 else None

    def report(self, table: str, assignment: RoundAssignment | None, *,
               clock: Callable[[], float] = time.time) -> TableReport | None:
        """What the table shows now (its retained ``state``), from the session's latest
        state; None without a session or while it shows an older match than the newest."""
        state = self._state
        if state is None or state.match_id is None or state.match_id != max(self.tracked, default=None):
            return None
        round_number = self.tracked[state.match_id].round
        left = None
        if assignment is not None and round_number == assignment.round:
            left = minutes_left(assignment, now=clock())
        return TableReport(table, state.match_id, dict(state.totals), state.hand_number - 1, state.hand_number,
                           state.max_hands, left, state.is_over, state.winner, round_number)
