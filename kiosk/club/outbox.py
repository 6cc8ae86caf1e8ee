"""What a table knows of its deliveries, kept next to the journal in ``<journal>.club``
(an SQLite sidecar file).

The journal itself is the outbox: every event is already durable there. The sidecar only
remembers how far the organiser has acknowledged each match, which round a match belongs
to, the latest round order received and the opponents' confirmations. Why a sidecar and
not a table inside the journal: the journal's schema stays the kiosk's own (no version
bump for a feature many kiosks never use), and losing the sidecar costs nothing but a
resend, which the organiser ignores by (table, match, seq).
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from pathlib import Path

from clubwire.payloads import Confirmation, RoundAssignment

_SCHEMA = (
    # acks per organiser's tournament file: a new tournament (a new organiser database)
    # has none of this table's events, however far the previous one had acked them
    "CREATE TABLE IF NOT EXISTS acked (organiser TEXT NOT NULL, match INTEGER NOT NULL, "
    "  upto INTEGER NOT NULL, confirmed INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (organiser, match))",
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS match_round (match INTEGER PRIMARY KEY, round INTEGER)",
    "CREATE TABLE IF NOT EXISTS assignment (id INTEGER PRIMARY KEY CHECK (id = 1), "
    "  payload BLOB NOT NULL, received_at REAL NOT NULL)",
    "CREATE TABLE IF NOT EXISTS confirmation (match INTEGER PRIMARY KEY, by TEXT NOT NULL, "
    "  upto INTEGER NOT NULL, at REAL NOT NULL)",
)


def sidecar_path(journal_path: str | os.PathLike) -> Path:
    p = Path(journal_path)
    return p.with_name(p.name + ".club")


class Outbox:
    """The delivery bookkeeping of one table (thread-safe; one SQLite connection).

    Args:
        journal_path: the kiosk's journal; the sidecar is ``<journal>.club`` beside it.
        table: this table's name (what messages read back from the sidecar carry).

    Example::

        box = Outbox(tmp / "journal.sqlite", "7")
        box.mark_acked("org-1", 1, 5)
        assert box.all_acked("org-1") == {1: (5, False)}
    """

    def __init__(self, journal_path: str | os.PathLike, table: str, *,
                 clock=time.time) -> None:
        self.path = sidecar_path(journal_path)
        self.table = table
        self._clock = clock
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False,
                                     timeout=10.0)
        self._conn.execute("PRAGMA journal_mode = WAL")
        # NORMAL is enough: a lost ack only causes an idempotent resend.
        self._conn.execute("PRAGMA synchronous = NORMAL")
        for statement in _SCHEMA:
            self._conn.execute(statement)

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def all_acked(self, organiser: str) -> dict[int, tuple[int, bool]]:
        """match -> (acked up to seq, confirmation acked), by that organiser."""
        with self._lock:
            return {m: (u, bool(c)) for m, u, c in self._conn.execute(
                "SELECT match, upto, confirmed FROM acked WHERE organiser = ?", (organiser,))}

    def mark_acked(self, organiser: str, match: int, upto: int, *, confirmed: bool = False) -> None:
        """Never moves backwards: acks can arrive out of order after a reconnect."""
        with self._lock:
            self._conn.execute(
                "INSERT INTO acked (organiser, match, upto, confirmed) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(organiser, match) DO UPDATE SET upto = max(upto, excluded.upto), "
                "confirmed = max(confirmed, excluded.confirmed)", (organiser, match, upto, int(confirmed)))

    def organiser(self) -> str:
        """The organiser this table last heard from ('' = none yet)."""
        with self._lock:
            row = self._conn.execute("SELECT value FROM meta WHERE key = 'organiser'").fetchone()
        return row[0] if row else ""

    def set_organiser(self, organiser: str) -> None:
        with self._lock:
            self._conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('organiser', ?)", (organiser,))

    # -- rounds ----------------------------------------------------------------------

    def save_assignment(self, assignment: RoundAssignment) -> None:
        """Keep the latest order; the same order received again (a retained resend) keeps
        its first time of receipt, which is what new matches are compared with."""
        with self._lock:
            row = self._conn.execute("SELECT payload FROM assignment WHERE id = 1").fetchone()
            if row and bytes(row[0]) == assignment.to_bytes():
                return
            self._conn.execute(
                "INSERT OR REPLACE INTO assignment (id, payload, received_at) VALUES (1, ?, ?)",
                (assignment.to_bytes(), self._clock()))

    def assignment(self) -> RoundAssignment | None:
        received = self.received_assignment()
        return received[0] if received else None

    def received_assignment(self) -> tuple[RoundAssignment, float] | None:
        """The latest round order and when this table received it (by its own clock)."""
        with self._lock:
            row = self._conn.execute("SELECT payload, received_at FROM assignment WHERE id = 1").fetchone()
        return (RoundAssignment.from_bytes(self.table, row[0]), row[1]) if row else None

    def bind_round(self, match: int, round_number: int | None) -> int | None:
        """Bind ``match`` to a round once (the first binding stays); returns the binding."""
        with self._lock:
            self._conn.execute("INSERT OR IGNORE INTO match_round (match, round) VALUES (?, ?)",
                               (match, round_number))
            return self._conn.execute("SELECT round FROM match_round WHERE match = ?",
                                      (match,)).fetchone()[0]

    def bound_round(self, match: int) -> tuple[bool, int | None]:
        with self._lock:
            row = self._conn.execute("SELECT round FROM match_round WHERE match = ?", (match,)).fetchone()
        return (row is not None, row[0] if row else None)

    # -- confirmations -----------------------------------------------------------------

    def save_confirmation(self, confirmation: Confirmation) -> None:
        with self._lock:
            self._conn.execute(
                "INSERT OR REPLACE INTO confirmation (match, by, upto, at) VALUES (?, ?, ?, ?)",
                (confirmation.match, confirmation.by, confirmation.upto, self._clock()))

    def confirmations(self) -> list[Confirmation]:
        with self._lock:
            rows = self._conn.execute("SELECT match, by, upto FROM confirmation ORDER BY match").fetchall()
        return [Confirmation(self.table, m, by, upto) for m, by, upto in rows]

    def confirmation(self, match: int) -> Confirmation | None:
        return next((c for c in self.confirmations() if c.match == match), None)
