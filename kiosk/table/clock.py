"""The tournament clock of a table session (butinet, torrefarrera): the time left, and
``time_up`` journalled once when it runs out. Its start is the journal's own timestamp of
the match, so a power cut does not reset it."""

from __future__ import annotations

import calendar
import time

from kiosk.table.state import SaveResult


class TournamentClock:
    """Mixed into :class:`kiosk.table.TableSession` (uses its journal, match, clock, _commit)."""

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
        return max(0.0, start + limit * 60 - self.clock())

    @property
    def time_up(self) -> bool:
        return bool(self.match is not None and not self.match.is_over and self.match.time_up)

    @property
    def can_call_time(self) -> bool:
        return bool(self.match is not None and "time_up" in self.match.available_events())

    def check_time(self) -> bool:
        """Every second: when the clock has run out, journal ``time_up`` once (if it was
        undone, the organiser calls time by hand). True when it was saved."""
        left = self.time_left
        if left is None or left > 0 or not self.can_call_time:
            return False
        if any(e.get("type") == "time_up" for e in self.match.events):
            return False
        return self.call_time().saved

    def call_time(self) -> SaveResult:
        """The hand in progress is the last; a hand being scored stays open."""
        return self._commit({"type": "time_up"}, keep_draft=True)
