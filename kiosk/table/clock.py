"""The tournament clock of a table (butinet, torrefarrera): the time left on the match.

Its start is the journal's own timestamp of the match, so a power cut does not reset it.
The clock only reads; journalling ``time_up`` when it runs out is the session's action
(``TableSession.check_time`` asks ``clock.due``).
"""

from __future__ import annotations

import calendar
import time
from typing import Callable


class TournamentClock:
    """The time left on the match a :class:`kiosk.table.TableSession` shows.

    Owned by the session, which tells it each match it shows (``follow``); it keeps that
    match and the match's start, read from ``journal`` once per match.

    Args:
        journal: the :class:`kiosk.journal.Journal` whose ``matches()`` say when a match began.
        now: seconds since the epoch.

    Example::

        clock = TournamentClock(journal, now=lambda: 1_700_000_000.0)
        clock.follow(match_id, journal.load(match_id))
        clock.time_left  # None without a time limit
    """

    def __init__(self, journal, *, now: Callable[[], float] = time.time) -> None:
        self.journal = journal
        self.now = now
        self.match_id: int | None = None
        self.match = None
        self._started: tuple[int | None, float | None] = (None, None)

    def follow(self, match_id: int | None, match) -> None:
        """The match the table shows now (the session calls this on every change)."""
        self.match_id, self.match = match_id, match

    @property
    def started_at(self) -> float | None:
        """When the match was created, from the journal (the clock survives a power cut)."""
        if self.match_id is None:
            return None
        if self._started[0] != self.match_id:
            stamp = next((i.created_at for i in self.journal.matches() if i.id == self.match_id), None)
            at = None
            if stamp:
                try:
                    at = float(calendar.timegm(time.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ")))
                except ValueError:
                    at = None
            self._started = (self.match_id, at)
        return self._started[1]

    @property
    def time_limit_min(self) -> int | None:
        if self.match is None or self.match.is_over:
            return None
        rules = self.match.rules
        return getattr(rules, "base", rules).time_limit_min or None  # a game without pairs: its base

    @property
    def time_left(self) -> float | None:
        """Seconds left on the tournament clock (0 when it has run out); None without a limit."""
        limit, start = self.time_limit_min, self.started_at
        if not limit or start is None:
            return None
        return max(0.0, start + limit * 60 - self.now())

    @property
    def time_up(self) -> bool:
        return bool(self.match is not None and not self.match.is_over and self.match.time_up)

    @property
    def can_call_time(self) -> bool:
        return bool(self.match is not None and "time_up" in self.match.available_events())

    @property
    def ever_called(self) -> bool:
        """``time_up`` was journalled in this match (also when it was undone since)."""
        return self.match is not None and any(e.get("type") == "time_up" for e in self.match.events)

    @property
    def due(self) -> bool:
        """The clock has run out and time was never called in this match (if it was and
        was undone, the organiser calls time by hand)."""
        left = self.time_left
        return left is not None and left <= 0 and self.can_call_time and not self.ever_called
