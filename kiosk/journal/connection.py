"""``Connection``: the journal's one SQLite connection, the lock around it, and how the
errors met while using it are told (:meth:`Connection.guard`). The journal's reader, its
upkeep and its writer each hold the same Connection; only the journal swaps the SQLite
connection inside it (a standby journal that becomes writable)."""

from __future__ import annotations

import sqlite3
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from kiosk.journal.errors import CorruptJournal, JournalError
from kiosk.journal.faults import FaultKind, classify, error_for


class Connection:
    """The SQLite connection of the journal at ``path`` (``conn`` is None until opened).

    Threads: every use goes through :meth:`guard` (or holds ``lock``), so any thread may
    read while the kiosk's UI thread writes."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lock = threading.RLock()
        self.conn: sqlite3.Connection | None = None

    def execute(self, sql: str, params: tuple = ()) -> sqlite3.Cursor:
        return self.conn.execute(sql, params)

    @contextmanager
    def guard(self, *, writing: bool) -> Iterator[None]:
        """SQLite errors met while the journal is in use, as JournalErrors the kiosk can
        show: CorruptJournal if the file went bad under us (reopen the Journal to set it
        aside), else SaveFailed (writing) or JournalError (reading)."""
        with self.lock:
            try:
                yield
            except (sqlite3.Error, UnicodeDecodeError) as exc:
                kind = classify(exc, self.path)
                if kind is FaultKind.DAMAGED:
                    raise CorruptJournal(
                        f"the journal {self.path} is damaged ({exc}); "
                        + ("this change is NOT saved" if writing else "it cannot be read"),
                        path=self.path, reason=str(exc)) from exc
                if writing:
                    raise error_for(kind, self.path, str(exc), writing=True) from exc
                raise JournalError(f"the journal {self.path} could not be read: {exc}",
                                   path=self.path, reason=str(exc)) from exc

    def begin(self) -> None:
        # IMMEDIATE takes the write lock before we read the last seq, so a CLI import in
        # another process cannot interleave.
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise error_for(classify(exc, self.path), self.path, str(exc), writing=True) from exc

    def commit(self) -> None:
        self.conn.execute("COMMIT")  # fsyncs the WAL (synchronous=FULL); errors: guard

    def rollback(self) -> None:
        try:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass  # the original error is the one to report
