"""``Reader``: what the journal reads back: a match's events, its state (their fold, kept
for the next append), the list of matches and the one to resume. The journal owns one."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, NamedTuple

from kiosk.journal.connection import Connection
from kiosk.journal.errors import UnknownMatch, UnreadableMatch
from kiosk.journal.records import MatchInfo, info as _info

if TYPE_CHECKING:
    from kiosk.game import Match


def match_type() -> type[Match]:
    # Imported when first needed, so opening a journal (the crash test's child, the CLI's
    # `matches`) does not pay for more than it uses.
    from kiosk.game import Match
    return Match


class CurrentMatch(NamedTuple):
    """The match the kiosk resumes: its id (to append to) and its state."""

    match_id: int
    match: Match


class Reader:
    """Reads through ``db``; keeps each match's latest fold (match id -> (last seq, Match)),
    so an append folds one event, not the whole match again."""

    def __init__(self, db: Connection) -> None:
        self.db = db
        self._folds: dict[int, tuple[int, Match]] = {}

    def events(self, match_id: int) -> list[dict]:
        """The match's events, oldest first."""
        with self.db.guard(writing=False):
            return self.events_now(match_id)

    def load(self, match_id: int) -> Match:
        """The match's current state (the fold of its events)."""
        with self.db.guard(writing=False):
            return self.state(match_id, self.last_seq(match_id))

    def matches(self) -> list[MatchInfo]:
        """Every match, oldest first."""
        with self.db.guard(writing=False):
            rows = self.db.execute(
                "SELECT id, created_at, updated_at, summary FROM matches ORDER BY id").fetchall()
        return [_info(*row) for row in rows]

    def current_match(self) -> CurrentMatch | None:
        """The latest unfinished match (the one the table was playing), or None."""
        with self.db.guard(writing=False):
            row = self.db.execute(
                "SELECT id FROM matches WHERE over = 0 AND summary NOT LIKE '{\"error\"%' "
                "ORDER BY last_write DESC, id DESC LIMIT 1").fetchone()
            if row is None:
                return None
            return CurrentMatch(row[0], self.load(row[0]))

    # -- for the writer, inside its guard and transaction ------------------------------

    def last_seq(self, match_id: int) -> int:
        row = self.db.execute("SELECT max(seq) FROM events WHERE match_id = ?", (match_id,)).fetchone()
        if row[0] is None:
            raise UnknownMatch(f"no match {match_id} in the journal {self.db.path}")
        return row[0]

    def events_now(self, match_id: int) -> list[dict]:
        rows = self.db.execute("SELECT data FROM events WHERE match_id = ? ORDER BY seq", (match_id,)).fetchall()
        if not rows:
            raise UnknownMatch(f"no match {match_id} in the journal {self.db.path}")
        return [json.loads(r[0]) for r in rows]

    def state(self, match_id: int, last_seq: int) -> Match:
        kept = self._folds.get(match_id)
        if kept and kept[0] == last_seq:
            return kept[1]
        match = self.fold(match_id, self.events_now(match_id))
        self._folds[match_id] = (last_seq, match)
        return match

    def fold(self, match_id: int, events: list[dict]) -> Match:
        from kiosk.game import BotifarraError
        try:
            return match_type().from_events(events)
        except (BotifarraError, KeyError, TypeError, ValueError) as exc:
            # the file is sound but these events no longer make a match (hand-edited data,
            # a rule the core dropped): this match cannot be resumed, the others can
            raise UnreadableMatch(f"match {match_id} cannot be resumed: {exc}") from exc

    def remember(self, match_id: int, last_seq: int, match: Match) -> None:
        """The writer's new fold of ``match_id`` as of event ``last_seq``."""
        self._folds[match_id] = (last_seq, match)

    def forget(self) -> None:
        """Drop every kept fold (a rolled-back import, a reopened file)."""
        self._folds.clear()
