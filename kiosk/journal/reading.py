"""What the journal reads back: a match's events, its state (their fold, cached), the
list of matches and the one to resume. Mixed into :class:`~kiosk.journal.store.Journal`."""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from kiosk.journal.errors import UnknownMatch, UnreadableMatch
from kiosk.journal.records import MatchInfo, info as _info


def _match_type():
    # Imported when first needed, so opening a journal (the crash test's child, the CLI's
    # `matches`) does not pay for more than it uses.
    from kiosk.game import Match
    return Match


class CurrentMatch(NamedTuple):
    """The match the kiosk resumes: its id (to append to) and its state."""

    match_id: int
    match: Any


class Reading:
    """Uses the Journal's ``_conn``, ``_guard``, ``_cache`` (match id -> (last seq, Match))
    and ``path``."""

    def events(self, match_id: int) -> list[dict]:
        """The match's events, oldest first."""
        with self._guard(writing=False):
            return self._events(match_id)

    def load(self, match_id: int):
        """The match's current state (the fold of its events)."""
        with self._guard(writing=False):
            return self._state(match_id, self._last_seq(match_id))

    def export_match(self, match_id: int) -> dict:
        """The match in the match JSON of issue 2 (``Match.to_json``)."""
        return self.load(match_id).to_json()

    def matches(self) -> list[MatchInfo]:
        """Every match, oldest first."""
        with self._guard(writing=False):
            rows = self._conn.execute(
                "SELECT id, created_at, updated_at, summary FROM matches ORDER BY id").fetchall()
        return [_info(*row) for row in rows]

    def current_match(self) -> CurrentMatch | None:
        """The latest unfinished match (the one the table was playing), or None."""
        with self._guard(writing=False):
            row = self._conn.execute(
                "SELECT id FROM matches WHERE over = 0 AND summary NOT LIKE '{\"error\"%' "
                "ORDER BY last_write DESC, id DESC LIMIT 1").fetchone()
            if row is None:
                return None
            return CurrentMatch(row[0], self.load(row[0]))

    def _last_seq(self, match_id: int) -> int:
        row = self._conn.execute(
            "SELECT max(seq) FROM events WHERE match_id = ?", (match_id,)).fetchone()
        if row[0] is None:
            raise UnknownMatch(f"no match {match_id} in the journal {self.path}")
        return row[0]

    def _events(self, match_id: int) -> list[dict]:
        rows = self._conn.execute(
            "SELECT data FROM events WHERE match_id = ? ORDER BY seq", (match_id,)).fetchall()
        if not rows:
            raise UnknownMatch(f"no match {match_id} in the journal {self.path}")
        return [json.loads(r[0]) for r in rows]

    def _state(self, match_id: int, last_seq: int):
        cached = self._cache.get(match_id)
        if cached and cached[0] == last_seq:
            return cached[1]
        match = self._fold(match_id, self._events(match_id))
        self._cache[match_id] = (last_seq, match)
        return match

    def _fold(self, match_id: int, events: list[dict]):
        from kiosk.game import BotifarraError
        try:
            return _match_type().from_events(events)
        except (BotifarraError, KeyError, TypeError, ValueError) as exc:
            # the file is sound but these events no longer make a match (hand-edited data,
            # a rule the core dropped): this match cannot be resumed, the others can
            raise UnreadableMatch(f"match {match_id} cannot be resumed: {exc}") from exc
