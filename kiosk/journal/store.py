"""``Journal``: the append-only, crash-proof event store of the kiosk's matches.

The journal writes; it owns its :class:`~kiosk.journal.connection.Connection`, a
:class:`~kiosk.journal.reading.Reader` (reads and the kept folds) and an
:class:`~kiosk.journal.maintenance.Upkeep` (checks and backups), each with its own state."""

from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from kiosk.files import fsync_dir
from kiosk.journal import lock, schema
from kiosk.journal.connection import Connection
from kiosk.journal.errors import CorruptJournal, InvalidEvent, JournalError, SaveFailed, UnreadableMatch
from kiosk.journal.faults import FaultKind, JournalFault, classify, error_for
from kiosk.journal.maintenance import Upkeep
from kiosk.journal.reading import CurrentMatch, Reader, match_type
from kiosk.journal.records import MatchInfo, encode as _encode
from kiosk.journal.records import summary as _summary
from kiosk.journal.schema import MovedAside

if TYPE_CHECKING:
    from kiosk.game import Match

__all__ = ["CurrentMatch", "Journal", "MatchInfo"]


class Journal:
    """The kiosk's match journal: one SQLite file of append-only events per match.

    The state of a match is the fold of its events (``Match.from_events``), so reopening
    the journal resumes exactly where the table was, a half-entered bidding included.

    ``append`` validates the event with ``Match.apply`` first (an illegal event raises the
    core's ``BotifarraError`` and nothing is written), then commits it durably (WAL,
    ``synchronous=FULL``: the WAL is fsynced before ``append`` returns).

    A damaged or unreadable file is never overwritten: it is renamed (with its -wal/-shm)
    to ``<name>.damaged-<UTC time>``, a new journal is started, and ``moved_aside`` tells
    what happened (``moved_aside.message("ca")`` is a sentence for the screen). With
    ``recover=False`` a damaged file raises :class:`CorruptJournal` instead and is left as is.

    Threads: one connection guarded by a lock; any thread may call any method (the kiosk's
    UI thread is the only writer; a backup or export thread may read meanwhile). Other
    processes (the CLI) may use the same file at the same time.

    Args:
        path: the SQLite file (created if missing, with its directory).
        recover: move a damaged file aside and start afresh (default) or raise.
        clock: seconds since the epoch, for timestamps (``time.time``).

    Only *proven* damage moves a file aside (:mod:`kiosk.journal.faults`); a full disk, a
    read-only place or a lock leave it untouched and raise a :class:`SaveFailed` subclass.
    ``exclusive=True`` (the kiosk) also holds the single-instance lock (``<name>.lock``).

    Raises:
        CorruptJournal: damaged file and ``recover=False`` (or it could not be moved aside).
        JournalVersionError, NotAJournal: a newer kiosk's file, another program's database.
        JournalFull, JournalReadOnly, JournalBusy, JournalDirMissing, SaveFailed: the place
            is at fault; the file is kept as it is.
        JournalInUse: ``exclusive`` and another kiosk holds the journal.

    Example::

        j = Journal(tmp / "journal.sqlite")
        mid = j.create_match({"type": "match_created", "rules": {"preset": "reglament"},
                              "first_dealer": 0, "players": [None] * 4, "team_names": None})
        match = j.append(mid, {"type": "trump", "seat": 0, "trump": "oros"})
    """

    def __init__(self, path: str | os.PathLike, *, recover: bool = True,
                 clock: Callable[[], float] = time.time, exclusive: bool = False) -> None:
        self._setup(path, clock, exclusive)
        self._conn = self._open(recover)

    def _setup(self, path: str | os.PathLike, clock: Callable[[], float], exclusive: bool) -> None:
        self.path = Path(path)
        self._clock = clock
        self._exclusive = exclusive
        self._db = Connection(self.path)
        self._reader = Reader(self._db)
        self._upkeep = Upkeep(self._db)
        self.moved_aside: MovedAside | None = None
        self.migrated_from: int | None = None
        self.startup_fault: JournalFault | None = None  # what the kiosk shows at start
        self._standby: JournalError | None = None
        self._lock_fd: int | None = None

    @classmethod
    def standby(cls, path: str | os.PathLike, fault: JournalError, *,
                clock: Callable[[], float] = time.time, exclusive: bool = True) -> "Journal":
        """A journal that cannot be written now (``fault``: full disk, read-only place,
        another kiosk...): it reads what the file holds, so the table still sees its match,
        and every write first retries opening the file for writing; until that works each
        write raises the fault's :class:`SaveFailed` subclass. Nothing is written meanwhile."""
        self = cls.__new__(cls)
        self._setup(path, clock, exclusive)
        self._standby = fault
        self.startup_fault = JournalFault(classify(fault, self.path), self.path, str(fault))
        self._conn = schema.open_read_only(self.path)
        return self

    @property
    def _conn(self) -> sqlite3.Connection:
        """The SQLite connection in use (kept by the journal's Connection)."""
        return self._db.conn

    @_conn.setter
    def _conn(self, conn: sqlite3.Connection) -> None:
        self._db.conn = conn

    # -- reading and upkeep (owned objects) --------------------------------------------

    def events(self, match_id: int) -> list[dict]:
        """The match's events, oldest first."""
        return self._reader.events(match_id)

    def load(self, match_id: int) -> Match:
        """The match's current state (the fold of its events)."""
        return self._reader.load(match_id)

    def export_match(self, match_id: int) -> dict:
        """The match in the match JSON of issue 2 (``Match.to_json``)."""
        return self._reader.load(match_id).to_json()

    def matches(self) -> list[MatchInfo]:
        """Every match, oldest first."""
        return self._reader.matches()

    def current_match(self) -> CurrentMatch | None:
        """The latest unfinished match (the one the table was playing), or None."""
        return self._reader.current_match()

    def storage_settings(self) -> dict[str, str | int]:
        """What the durability rests on (see :meth:`Upkeep.storage_settings`)."""
        return self._upkeep.storage_settings()

    def integrity_check(self) -> list[str]:
        """SQLite's full check: ``["ok"]`` for a sound file."""
        return self._upkeep.integrity_check()

    def backup(self, dest: str | os.PathLike) -> Path:
        """A consistent, checked copy of the journal at ``dest`` (see :meth:`Upkeep.backup`)."""
        return self._upkeep.backup(dest)

    @property
    def writable(self) -> bool:
        """False while in standby (see :meth:`standby`)."""
        return self._standby is None

    def _retry(self) -> None:
        """In standby: try the file again; on success the journal is writable from now on."""
        if self._standby is None:
            return
        old = self._conn  # _open_checked points self._conn at the connection it tries
        try:
            try:
                conn = self._open(True)
            except BaseException:
                self._conn = old
                raise
        except SaveFailed as exc:
            self._standby = exc
            raise error_for(classify(exc, self.path), self.path, str(exc), writing=True) from exc
        except JournalError as exc:
            self._standby = exc
            raise SaveFailed(f"NOT saved: the journal {self.path} cannot be written: {exc}",
                             path=self.path, reason=str(exc)) from exc
        self._conn = conn
        old.close()
        self._reader.forget()
        self._standby = None

    # -- opening ---------------------------------------------------------------------

    def _open(self, recover: bool) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise error_for(classify(exc, self.path), self.path, exc.strerror or str(exc)) from exc
        if self._exclusive and self._lock_fd is None:
            self._lock_fd = lock.acquire(self.path)  # JournalInUse: another kiosk has it
        try:
            return self._open_and_recover(recover)
        except BaseException:
            lock.release(self._lock_fd)
            self._lock_fd = None
            raise

    def _open_and_recover(self, recover: bool) -> sqlite3.Connection:
        try:
            return self._open_checked()
        except (sqlite3.Error, OSError, JournalError, UnicodeDecodeError) as exc:
            kind = classify(exc, self.path)
            if kind is not FaultKind.DAMAGED:
                if isinstance(exc, JournalError):
                    raise
                raise error_for(kind, self.path, str(exc)) from exc
            reason = f"{type(exc).__name__}: {exc}"
            if not recover:
                raise CorruptJournal(
                    f"the journal {self.path} is damaged or unreadable ({reason})",
                    path=self.path, reason=reason) from exc
        self.moved_aside = schema.move_aside(self.path, reason, now=self._clock())
        try:
            return self._open_checked()
        except (sqlite3.Error, OSError) as exc:
            raise error_for(classify(exc, self.path), self.path, str(exc)) from exc

    def _open_checked(self) -> sqlite3.Connection:
        schema.probe(self.path)
        # SQLite quietly opens a file it cannot write read-only; the first save would fail
        if not (os.access(self.path.parent, os.W_OK) and
                (not self.path.exists() or os.access(self.path, os.W_OK))):
            raise error_for(FaultKind.READ_ONLY, self.path, "not writable")
        conn = schema.connect(self.path)
        try:
            self.migrated_from = schema.migrate(conn)
            # Reading once creates the -wal/-shm files; make their directory entries (and
            # a new database's) durable, or a power cut could lose a fsynced WAL's name.
            conn.execute("SELECT count(*) FROM matches").fetchone()
            fsync_dir(self.path.parent)
            self._conn = conn
            self._fill_summaries()
        except BaseException:
            conn.close()
            raise
        return conn

    def _fill_summaries(self) -> None:
        """Fold the matches a migration left without a summary."""
        ids = [r[0] for r in self._conn.execute(
            "SELECT id FROM matches WHERE summary IS NULL ORDER BY id")]
        for match_id in ids:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                try:
                    summary = _summary(self._reader.fold(match_id, self._reader.events_now(match_id)))
                except UnreadableMatch as exc:
                    summary = {"error": str(exc)}
                self._write_summary(match_id, summary, None)
                self._db.commit()
            except BaseException:
                self._db.rollback()
                raise

    def close(self) -> None:
        with self._db.lock:
            self._conn.close()
            lock.release(self._lock_fd)
            self._lock_fd = None

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- writing ---------------------------------------------------------------------

    def create_match(self, event: dict) -> int:
        """Start a match from its ``match_created`` event; returns the new match id."""
        self._retry()
        _, canon = _encode(event)
        if canon["type"] != "match_created":
            raise InvalidEvent(f"a match starts with a match_created event, not {canon['type']!r}")
        match = match_type().from_events([canon])
        # Stored as the core normalised it (the full rules, not just a preset name), so the
        # match keeps its rules even if a later kiosk changes a preset's defaults.
        with self._db.guard(writing=True):
            return self._insert_match([_encode(match.events[0])], match)

    def append(self, match_id: int, event: dict) -> Match:
        """Validate ``event`` against the match, save it durably, return the new Match."""
        data, canon = _encode(event)
        with self._db.guard(writing=True):
            self._retry()
            self._db.begin()
            try:
                last = self._reader.last_seq(match_id)
                new = self._reader.state(match_id, last).apply(canon)
                now = schema.utc_iso(self._clock())
                self._conn.execute(
                    "INSERT INTO events (match_id, seq, type, data, created_at) "
                    "VALUES (?, ?, ?, ?, ?)", (match_id, last + 1, canon["type"], data, now))
                self._write_summary(match_id, _summary(new), now)
                self._db.commit()
            except BaseException:
                self._db.rollback()
                raise
            self._reader.remember(match_id, last + 1, new)
            return new

    def import_matches(self, matches: list[Match] | list[dict]) -> list[int]:
        """Add whole matches (``Match`` objects, or match JSON dicts) in ONE transaction:
        either every match is added or none. Returns their new ids in order.

        Raises the core's ``BotifarraError`` for a match that does not validate (nothing
        is written); see :func:`kiosk.journal.exchange.parse_matches`.
        """
        from kiosk.game.variantmatch import VariantMatch
        from kiosk.journal.exchange import parse_matches
        Match = match_type()  # noqa: N806 - the class, imported when first needed
        if not all(isinstance(m, (Match, VariantMatch)) for m in matches):
            matches = parse_matches(list(matches))
        prepared = []
        for match in matches:
            events = [_encode(e) for e in match.iter_events()]
            # The stored events must fold back to the very same match.
            if Match.from_events([canon for _, canon in events]) != match:
                raise JournalError("internal: an imported match does not fold back to itself")
            prepared.append((events, match))
        with self._db.guard(writing=True):
            self._retry()
            self._db.begin()
            try:
                ids = [self._insert_match(events, match, transaction=False, imported=True)
                       for events, match in prepared]
                self._db.commit()
            except BaseException:
                self._db.rollback()
                self._reader.forget()  # ids handed out in the rolled-back transaction
                raise
            return ids

    def _insert_match(self, events: list[tuple[str, dict]], match: Match, *, transaction: bool = True,
                      imported: bool = False) -> int:
        now = schema.utc_iso(self._clock())
        if transaction:
            self._db.begin()
        try:
            cur = self._conn.execute(
                "INSERT INTO matches (created_at, updated_at) VALUES (?, ?)", (now, now))
            match_id = cur.lastrowid
            self._conn.executemany(
                "INSERT INTO events (match_id, seq, type, data, created_at) VALUES (?,?,?,?,?)",
                [(match_id, seq, canon["type"], data, now)
                 for seq, (data, canon) in enumerate(events, start=1)])
            self._write_summary(match_id, _summary(match), now)
            if imported:  # never outranks a match played here as the one to resume
                self._conn.execute("UPDATE matches SET last_write = 0 WHERE id = ?", (match_id,))
            if transaction:
                self._db.commit()
        except BaseException:
            if transaction:
                self._db.rollback()
            raise
        self._reader.remember(match_id, len(events), match)
        return match_id

    def _write_summary(self, match_id: int, summary: dict, now: str | None) -> None:
        self._conn.execute(
            "UPDATE matches SET summary = ?, over = ?, updated_at = COALESCE(?, updated_at), "
            "last_write = CASE WHEN ? IS NULL THEN last_write "
            "  ELSE (SELECT coalesce(max(last_write), 0) + 1 FROM matches) END "
            "WHERE id = ?", (json.dumps(summary, ensure_ascii=False),
                             int(bool(summary.get("is_over"))), now, now, match_id))
