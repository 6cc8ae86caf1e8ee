"""The journal's SQLite file: connection settings, schema versions, damage handling.

Schema history (``PRAGMA user_version``):

1. ``matches(id, created_at)`` and the append-only ``events(match_id, seq, type, data,
   created_at)``; ``data`` is the event as JSON.
2. ``matches`` gains ``updated_at``, ``over``, ``summary`` (JSON: team names, players,
   totals, winner, hands, phase) and ``last_write`` (a counter: which match the table
   touched last, even within one second) so the match list and ``current_match`` do not fold
   every match; triggers refuse UPDATE/DELETE of events. Summaries left NULL by the
   migration are filled in by folding when the journal opens.

The game of a match other than the pair game (issue 24: four each for himself, three,
two) is in its ``match_created`` event (``"variant"``) and in the summary JSON
(``"variant"``, one total per seat): no table or column changed, so no new version; a pair
match's events and summary are written exactly as before, and a summary without
``"variant"`` is a pair match. A kiosk from before games cannot fold such a match (three or
two names, per-seat points) and shows it as unreadable, resuming the others (a four each
for himself match with no hand scored yet it would take for a pair match); a version bump
would instead have shut it out of the whole file.

A migration is a list of statements run in ONE transaction together with the new
``user_version``, so a power cut mid-migration leaves the previous version intact.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from kiosk.files import fsync_dir
from kiosk.journal.errors import CorruptJournal, JournalVersionError, NotAJournal

APPLICATION_ID = int.from_bytes(b"BOTI", "big")  # marks the file as ours (PRAGMA application_id)

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (  # 0 -> 1
        f"PRAGMA application_id = {APPLICATION_ID}",
        """CREATE TABLE matches (
               id INTEGER PRIMARY KEY AUTOINCREMENT,
               created_at TEXT NOT NULL)""",
        """CREATE TABLE events (
               match_id INTEGER NOT NULL REFERENCES matches(id),
               seq INTEGER NOT NULL,
               type TEXT NOT NULL,
               data TEXT NOT NULL,
               created_at TEXT NOT NULL,
               PRIMARY KEY (match_id, seq)) WITHOUT ROWID""",
    ),
    (  # 1 -> 2
        "ALTER TABLE matches ADD COLUMN updated_at TEXT",
        "ALTER TABLE matches ADD COLUMN over INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE matches ADD COLUMN summary TEXT",
        "ALTER TABLE matches ADD COLUMN last_write INTEGER NOT NULL DEFAULT 0",
        """UPDATE matches SET updated_at = COALESCE(
               (SELECT max(e.created_at) FROM events e WHERE e.match_id = matches.id),
               created_at)""",
        """UPDATE matches SET last_write = (
               SELECT count(*) FROM matches m
               WHERE (m.updated_at, m.id) <= (matches.updated_at, matches.id))""",
        "CREATE INDEX matches_by_state ON matches(over, last_write)",
        """CREATE TRIGGER events_no_update BEFORE UPDATE ON events
               BEGIN SELECT RAISE(ABORT, 'journal events are append-only'); END""",
        """CREATE TRIGGER events_no_delete BEFORE DELETE ON events
               BEGIN SELECT RAISE(ABORT, 'journal events are append-only'); END""",
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)

BUSY_TIMEOUT_S = 10.0


@dataclass(frozen=True)
class MovedAside:
    """A damaged journal that was moved aside (with its -wal/-shm) and replaced by a new one."""

    path: Path       # where the journal lives (now a new, empty journal)
    moved_to: Path   # the damaged file's new name; its -wal/-shm sit next to it
    reason: str      # technical detail (SQLite's message)

    def message(self, lang: str = "ca") -> str:
        """A sentence the kiosk can show to the people at the table."""
        name = self.moved_to.name
        return {
            "ca": f"El registre de partides estava malmès: s'ha guardat a part ({name}) "
                  "i se n'ha començat un de nou. Aviseu el responsable del bar.",
            "es": f"El registro de partidas estaba dañado: se ha guardado aparte ({name}) "
                  "y se ha empezado uno nuevo. Avisad al responsable del bar.",
            "en": f"The match journal was damaged: it was set aside as {name} and a new "
                  "one was started. Please tell the bar staff.",
        }.get(lang, "")


def utc_iso(ts: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))


def connect(path: Path) -> sqlite3.Connection:
    """Open ``path`` with the journal's settings; raises ``sqlite3.Error`` or ``OSError``.

    ``isolation_level=None``: we issue BEGIN/COMMIT ourselves. ``check_same_thread=False``:
    the Journal serialises access with its own lock.
    """
    conn = sqlite3.connect(
        str(path), timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False)
    try:
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            # e.g. a read-only file system: the file is not damaged, we just cannot write
            raise sqlite3.OperationalError(f"{path}: cannot use write-ahead logging here "
                                           f"(journal_mode stayed {mode})")
        # FULL: the WAL is fsynced at every COMMIT, so a returned append survives a power cut
        # even before the WAL is checkpointed into the main file.
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA busy_timeout = %d" % int(BUSY_TIMEOUT_S * 1000))
    except BaseException:
        conn.close()
        raise
    return conn


SQLITE_HEADER = b"SQLite format 3\x00"


def probe(path: Path) -> None:
    """Check an existing file WITHOUT writing to it; raise if it is damaged or not ours.

    Why a separate read-only look first: a read-write connection that finds a damaged
    database still checkpoints its WAL into it and deletes the WAL when it closes,
    destroying the very evidence we want to keep. A read-only connection does neither.
    """
    if not (path.exists() or path.is_symlink()):
        return
    if path.is_dir():  # SQLite's own message for this is a vague "unable to open"
        raise IsADirectoryError(f"{path} is a directory")
    with open(path, "rb") as f:
        head = f.read(len(SQLITE_HEADER))
    if head and head != SQLITE_HEADER:
        raise sqlite3.DatabaseError(f"not an SQLite database (it starts with {head[:8]!r})")
    if not head:
        return  # an empty file is a new database
    conn = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True,
                           timeout=BUSY_TIMEOUT_S, isolation_level=None)
    try:
        check(conn, path)
    except sqlite3.OperationalError as exc:
        if not _needs_recovery(exc, path):
            raise
        recover = True
    else:
        recover = False
    finally:
        conn.close()
    if recover:
        _probe_a_copy(path)


# A read-only connection cannot rebuild a WAL's index that a kill or a power cut left stale
# (SQLite's SQLITE_READONLY_RECOVERY / _CANTINIT), nor roll back a hot rollback journal (a
# kill while a new file is switched to WAL: SQLITE_READONLY_ROLLBACK): "attempt to write a
# readonly database", although the file and its folder are writable: not a read-only journal.
_RECOVERY = ("SQLITE_READONLY_RECOVERY", "SQLITE_READONLY_CANTINIT", "SQLITE_READONLY_ROLLBACK")


def _needs_recovery(exc: sqlite3.OperationalError, path: Path) -> bool:
    name = getattr(exc, "sqlite_errorname", "")
    return (name in _RECOVERY or (not name and "readonly" in str(exc))) \
        and os.access(path, os.W_OK) and os.access(path.parent, os.W_OK | os.X_OK)


def _probe_a_copy(path: Path) -> None:
    """The look of :func:`probe` at a copy of the file and its WAL, where a read-write
    connection rebuilds the WAL's index or rolls back a hot journal: the journal itself stays
    untouched until it is known to be sound (its own opening then recovers it as SQLite always
    does)."""
    with tempfile.TemporaryDirectory(prefix="journal-probe-", dir=path.parent) as tmp:
        copy = Path(tmp) / path.name
        shutil.copyfile(path, copy)
        for suffix in ("-wal", "-journal"):
            beside = path.with_name(path.name + suffix)
            if beside.exists():
                shutil.copyfile(beside, copy.with_name(copy.name + suffix))
        conn = sqlite3.connect(copy, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        try:
            check(conn, path)
        finally:
            conn.close()


def check(conn: sqlite3.Connection, path: Path) -> None:
    """Raise if the open file is damaged, someone else's, or from a newer kiosk."""
    # bytes, decoded leniently: on damaged pages quick_check quotes whatever bytes it found
    # (and SQLite's own error message may quote them too: Python then fails to decode it)
    conn.text_factory = bytes
    try:
        result = [r[0].decode("utf-8", errors="replace") if isinstance(r[0], bytes) else str(r[0])
                  for r in conn.execute("PRAGMA quick_check").fetchall()]
    except UnicodeDecodeError as exc:
        raise sqlite3.DatabaseError("quick_check: database disk image is malformed (" +
                                    exc.object.decode("utf-8", errors="replace")[:120] + ")") from None
    finally:
        conn.text_factory = str
    if result != ["ok"]:
        raise sqlite3.DatabaseError("quick_check: " + "; ".join(result[:3]))
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise JournalVersionError(
            f"{path} has journal schema version {version}; this kiosk knows up to "
            f"{SCHEMA_VERSION} (written by a newer kiosk; left untouched)")
    has_tables = conn.execute(
        "SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").fetchone()[0]
    if app_id != APPLICATION_ID and (version or has_tables):
        raise NotAJournal(f"{path} is an SQLite database of another program; left untouched")


def migrate(conn: sqlite3.Connection) -> int:
    """Bring the schema to SCHEMA_VERSION; returns the version the file had."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        start = conn.execute("PRAGMA user_version").fetchone()[0]
        for version in range(start, SCHEMA_VERSION):
            for statement in MIGRATIONS[version]:
                conn.execute(statement)
        if start != SCHEMA_VERSION:
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return start


def move_aside(path: Path, reason: str, *, now: float) -> MovedAside:
    """Rename the damaged file and its -wal/-shm/-journal to ``<name>.damaged-<UTC time>``
    (keeping SQLite's suffixes, so the set opens together for a rescue). Never deletes."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(now))
    target = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while any(Path(f"{target}{s}").exists() for s in ("", "-wal", "-shm", "-journal")):
        target = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
        n += 1
    for suffix in ("-wal", "-shm", "-journal", ""):  # main file last: it is what we test for
        src = Path(f"{path}{suffix}")
        if src.exists() or src.is_symlink():
            try:
                os.rename(src, f"{target}{suffix}")
            except OSError as exc:
                raise CorruptJournal(
                    f"the journal {path} is damaged ({reason}) and could not be moved "
                    f"aside: {exc}", path=path, reason=reason) from exc
    fsync_dir(path.parent)
    return MovedAside(path=path, moved_to=target, reason=reason)


def open_read_only(path: Path) -> sqlite3.Connection:
    """A connection that only reads ``path``, for a journal that cannot be written now (full
    disk, read-only place, another kiosk): the table still sees its match. Falls back to
    ignoring the WAL (``immutable``: when even the -shm cannot be made), then to an empty
    in-memory journal (no readable file at all)."""
    uri = path.resolve().as_uri()
    if path.is_file():
        for query in ("?mode=ro", "?mode=ro&immutable=1"):
            conn = sqlite3.connect(uri + query, uri=True, timeout=BUSY_TIMEOUT_S,
                                   isolation_level=None, check_same_thread=False)
            try:
                check(conn, path)
                if conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION:
                    return conn
            except (sqlite3.Error, JournalVersionError, NotAJournal):
                pass
            conn.close()
    conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    migrate(conn)
    return conn
