"""``Upkeep``: what the journal's durability rests on, its full check, consistent copies."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from kiosk.files import fsync_dir
from kiosk.journal.connection import Connection
from kiosk.journal.errors import JournalError


class Upkeep:
    """The journal's upkeep over its connection ``db``; the journal owns one."""

    def __init__(self, db: Connection) -> None:
        self.db = db

    def storage_settings(self) -> dict[str, str | int]:
        """What the durability rests on, for diagnostics: journal mode, synchronous level
        (2 = FULL), schema version, SQLite version."""
        with self.db.lock:
            q = lambda pragma: self.db.conn.execute(f"PRAGMA {pragma}").fetchone()[0]  # noqa: E731
            return {"journal_mode": q("journal_mode"), "synchronous": q("synchronous"),
                    "schema_version": q("user_version"), "sqlite_version": sqlite3.sqlite_version}

    def integrity_check(self) -> list[str]:
        """SQLite's full check: ``["ok"]`` for a sound file."""
        with self.db.lock:
            return [r[0] for r in self.db.conn.execute("PRAGMA integrity_check")]

    def backup(self, dest: str | os.PathLike) -> Path:
        """Write a consistent copy of the journal to ``dest`` (SQLite's backup API: a
        snapshot even while the kiosk writes). The copy is a single self-contained file
        (rollback-journal mode, no -wal), checked, fsynced and renamed into place, so
        ``dest`` is either the old backup or the complete new one."""
        dest = Path(dest)
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = dest.with_name(f".{dest.name}.tmp-{os.getpid()}")
        tmp.unlink(missing_ok=True)
        try:
            copy = sqlite3.connect(str(tmp), isolation_level=None)
            try:
                with self.db.lock:
                    self.db.conn.backup(copy)
                copy.execute("PRAGMA journal_mode = DELETE")
                result = [r[0] for r in copy.execute("PRAGMA integrity_check")]
            finally:
                copy.close()
            if result != ["ok"]:
                raise JournalError(f"the backup copy failed its check: {result[:3]}")
            fd = os.open(tmp, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(tmp, dest)
            fsync_dir(dest.parent)
        except sqlite3.Error as exc:
            raise JournalError(f"backup to {dest} failed: {exc}") from exc
        finally:
            tmp.unlink(missing_ok=True)
        return dest
