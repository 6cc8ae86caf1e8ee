"""The organiser's SQLite file: the tournament's source of truth.

Table events are stored once by (table, match, seq) (``INSERT OR IGNORE``: a resend is a
no-op), and acked only after the transaction that stored them has committed. Everything
else (pairs, rounds, pairings, corrections) is the organiser's own input; corrections are
never updated or deleted, a later one overrides an earlier one (the audit trail).
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from clubwire.payloads import EndConditions

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS events (
           tbl TEXT NOT NULL, match INTEGER NOT NULL, seq INTEGER NOT NULL,
           data TEXT NOT NULL, round INTEGER, received_at REAL NOT NULL,
           PRIMARY KEY (tbl, match, seq)) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS confirmations (
           tbl TEXT NOT NULL, match INTEGER NOT NULL, by TEXT NOT NULL, upto INTEGER NOT NULL,
           at REAL NOT NULL, PRIMARY KEY (tbl, match))""",
    """CREATE TABLE IF NOT EXISTS tables (
           tbl TEXT PRIMARY KEY, online INTEGER NOT NULL, since REAL NOT NULL, state TEXT)""",
    """CREATE TABLE IF NOT EXISTS pairs (
           id INTEGER PRIMARY KEY, name TEXT NOT NULL, players TEXT NOT NULL,
           entered_round INTEGER NOT NULL, withdrawn_round INTEGER)""",
    """CREATE TABLE IF NOT EXISTS rounds (
           number INTEGER PRIMARY KEY, started_at REAL NOT NULL, conditions TEXT NOT NULL,
           preset TEXT NOT NULL, manual INTEGER NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS pairings (
           round INTEGER NOT NULL, tbl TEXT, pair_a INTEGER NOT NULL, pair_b INTEGER,
           PRIMARY KEY (round, pair_a))""",
    """CREATE TABLE IF NOT EXISTS corrections (
           id INTEGER PRIMARY KEY, at REAL NOT NULL, round INTEGER NOT NULL, tbl TEXT NOT NULL,
           totals_a INTEGER NOT NULL, totals_b INTEGER NOT NULL, before TEXT, reason TEXT NOT NULL)""",
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    # this tournament file's identity: tables keep their acks per organiser id
    "INSERT OR IGNORE INTO meta (key, value) VALUES ('id', lower(hex(randomblob(8))))",
    """CREATE TRIGGER IF NOT EXISTS corrections_kept BEFORE DELETE ON corrections
           BEGIN SELECT RAISE(ABORT, 'corrections are an audit trail'); END""",
    """CREATE TRIGGER IF NOT EXISTS corrections_unchanged BEFORE UPDATE ON corrections
           BEGIN SELECT RAISE(ABORT, 'corrections are an audit trail'); END""",
)


@dataclass(frozen=True)
class Pair:
    id: int
    name: str
    players: list[str]
    entered_round: int          # the first round it can be paired in
    withdrawn_round: int | None # not paired from this round on

    def active_in(self, round_number: int) -> bool:
        return self.entered_round <= round_number and (
            self.withdrawn_round is None or round_number < self.withdrawn_round)


@dataclass(frozen=True)
class RoundInfo:
    number: int
    started_at: float
    conditions: EndConditions
    preset: str
    manual: bool


@dataclass(frozen=True)
class Pairing:
    round: int
    table: str | None        # None: the bye
    pair_a: int
    pair_b: int | None


@dataclass(frozen=True)
class Correction:
    id: int
    at: float
    round: int
    table: str
    totals: dict
    before: dict | None
    reason: str


@dataclass(frozen=True)
class Incoming:
    """One stored table event (what the fold reads)."""

    table: str
    match: int
    seq: int
    event: dict
    round: int | None


class Store:
    """Thread-safe (one connection, one lock). Example::

        store = Store(tmp / "club.sqlite")
        pid = store.add_pair("Parella 1", ["Anna", "Pere"])
    """

    def __init__(self, path: str | os.PathLike, *, clock=time.time) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._clock = clock
        self._lock = threading.RLock()
        self._conn = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False,
                                     timeout=10.0)
        self._conn.execute("PRAGMA journal_mode = WAL")
        # FULL: an ack promises the table its event is kept; it must survive a power cut.
        self._conn.execute("PRAGMA synchronous = FULL")
        for statement in _SCHEMA:
            self._conn.execute(statement)
        self.id: str = self._conn.execute("SELECT value FROM meta WHERE key = 'id'").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def option(self, key: str, default: str) -> str:
        """A tournament option kept in the file (``scoring``)."""
        with self._lock:
            row = self._conn.execute("SELECT value FROM meta WHERE key = ?", (f"option.{key}",)).fetchone()
        return row[0] if row else default

    def set_option(self, key: str, value: str) -> None:
        with self._lock:
            self._conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (f"option.{key}", value))

    def _tx(self):
        return _Tx(self)

    # -- table traffic -----------------------------------------------------------------

    def ingest(self, events: list[Incoming], confirmations: list[tuple[str, int, str, int]],
               online: dict[str, bool] | None = None, states: dict[str, dict] | None = None
               ) -> dict[tuple[str, int], int]:
        """Store a batch in ONE transaction (one fsync); returns each touched match's
        contiguous stored seq (what to ack)."""
        now = self._clock()
        touched = {(e.table, e.match) for e in events} | {(t, m) for t, m, _, _ in confirmations}
        with self._tx() as c:
            for table, is_online in (online or {}).items():
                self._set_online(c, table, is_online, now)
            for table, state in (states or {}).items():
                self._set_state(c, table, state, now)
            c.executemany(
                "INSERT OR IGNORE INTO events (tbl, match, seq, data, round, received_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(e.table, e.match, e.seq, json.dumps(e.event, sort_keys=True, ensure_ascii=False),
                  e.round, now) for e in events])
            c.executemany(
                "INSERT INTO confirmations (tbl, match, by, upto, at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT(tbl, match) DO UPDATE SET upto = max(upto, excluded.upto), by = excluded.by",
                [(t, m, by, upto, now) for t, m, by, upto in confirmations])
            return {key: self._contiguous(c, *key) for key in touched}

    @staticmethod
    def _contiguous(c: sqlite3.Connection, table: str, match: int) -> int:
        # seq runs 1..n without a gap exactly when max(seq) == count(*) over a prefix; find
        # the first gap otherwise (rare: only while a resend fills it)
        count, top = c.execute("SELECT count(*), coalesce(max(seq), 0) FROM events "
                               "WHERE tbl = ? AND match = ?", (table, match)).fetchone()
        if count == top:
            return top
        row = c.execute(
            "SELECT min(e.seq) FROM events e WHERE e.tbl = ? AND e.match = ? AND NOT EXISTS "
            "(SELECT 1 FROM events f WHERE f.tbl = e.tbl AND f.match = e.match AND f.seq = e.seq + 1)",
            (table, match)).fetchone()
        first = c.execute("SELECT 1 FROM events WHERE tbl = ? AND match = ? AND seq = 1",
                          (table, match)).fetchone()
        return row[0] if first else 0

    def events_after(self, table: str, match: int, seq: int) -> list[Incoming]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT seq, data, round FROM events WHERE tbl = ? AND match = ? AND seq > ? ORDER BY seq",
                (table, match, seq)).fetchall()
        return [Incoming(table, match, s, json.loads(d), r) for s, d, r in rows]

    def matches(self) -> list[tuple[str, int]]:
        with self._lock:
            return [tuple(r) for r in self._conn.execute("SELECT DISTINCT tbl, match FROM events")]

    def confirmation(self, table: str, match: int) -> int | None:
        """The seq up to which the opponents confirmed the result (None: not yet)."""
        with self._lock:
            row = self._conn.execute("SELECT upto FROM confirmations WHERE tbl = ? AND match = ?",
                                     (table, match)).fetchone()
        return row[0] if row else None

    @staticmethod
    def _set_online(c: sqlite3.Connection, table: str, online: bool, now: float) -> None:
        c.execute("INSERT INTO tables (tbl, online, since) VALUES (?, ?, ?) ON CONFLICT(tbl) DO "
                  "UPDATE SET since = CASE WHEN online = excluded.online THEN since ELSE excluded.since END, "
                  "online = excluded.online", (table, int(online), now))

    @staticmethod
    def _set_state(c: sqlite3.Connection, table: str, state: dict, now: float) -> None:
        c.execute("INSERT INTO tables (tbl, online, since, state) VALUES (?, 1, ?, ?) ON CONFLICT(tbl) "
                  "DO UPDATE SET state = excluded.state", (table, now, json.dumps(state)))

    def table_status(self) -> dict[str, tuple[bool, float, dict | None]]:
        """table -> (online, since when, latest retained state)."""
        with self._lock:
            return {t: (bool(o), s, json.loads(st) if st else None)
                    for t, o, s, st in self._conn.execute("SELECT tbl, online, since, state FROM tables")}

    # -- the organiser's input ---------------------------------------------------------

    def add_pair(self, name: str, players: list[str], *, entered_round: int | None = None) -> int:
        with self._tx() as c:
            if entered_round is None:  # a late entry joins from the next round
                entered_round = c.execute("SELECT coalesce(max(number), 0) + 1 FROM rounds").fetchone()[0]
            return c.execute("INSERT INTO pairs (name, players, entered_round) VALUES (?, ?, ?)",
                             (name, json.dumps(players, ensure_ascii=False), entered_round)).lastrowid

    def withdraw(self, pair: int) -> None:
        with self._tx() as c:
            nxt = c.execute("SELECT coalesce(max(number), 0) + 1 FROM rounds").fetchone()[0]
            if c.execute("UPDATE pairs SET withdrawn_round = ? WHERE id = ? AND withdrawn_round IS NULL",
                         (nxt, pair)).rowcount != 1:
                raise KeyError(f"no pair {pair} still playing")

    def pairs(self) -> list[Pair]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT id, name, players, entered_round, withdrawn_round FROM pairs ORDER BY id").fetchall()
        return [Pair(i, n, json.loads(p), e, w) for i, n, p, e, w in rows]

    def add_round(self, conditions: EndConditions, preset: str, pairings: list[Pairing], *,
                  manual: bool) -> RoundInfo:
        with self._tx() as c:
            number = c.execute("SELECT coalesce(max(number), 0) + 1 FROM rounds").fetchone()[0]
            now = self._clock()
            c.execute("INSERT INTO rounds (number, started_at, conditions, preset, manual) VALUES (?,?,?,?,?)",
                      (number, now, json.dumps(conditions.rules_overrides()), preset, int(manual)))
            c.executemany("INSERT INTO pairings (round, tbl, pair_a, pair_b) VALUES (?, ?, ?, ?)",
                          [(number, p.table, p.pair_a, p.pair_b) for p in pairings])
        return RoundInfo(number, now, conditions, preset, manual)

    def rounds(self) -> list[RoundInfo]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT number, started_at, conditions, preset, manual FROM rounds ORDER BY number").fetchall()
        return [RoundInfo(n, s, EndConditions(**json.loads(c)), p, bool(m)) for n, s, c, p, m in rows]

    def pairings(self) -> list[Pairing]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT round, tbl, pair_a, pair_b FROM pairings ORDER BY round, tbl IS NULL, "
                "length(tbl), tbl").fetchall()
        return [Pairing(*r) for r in rows]

    def add_correction(self, round_number: int, table: str, totals: dict, before: dict | None,
                       reason: str) -> int:
        with self._tx() as c:
            return c.execute(
                "INSERT INTO corrections (at, round, tbl, totals_a, totals_b, before, reason) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (self._clock(), round_number, table, int(totals["A"]), int(totals["B"]),
                 json.dumps(before) if before else None, reason)).lastrowid

    def corrections(self) -> list[Correction]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT id, at, round, tbl, totals_a, totals_b, before, reason FROM corrections "
                "ORDER BY id").fetchall()
        return [Correction(i, at, r, t, {"A": a, "B": b}, json.loads(bf) if bf else None, why)
                for i, at, r, t, a, b, bf, why in rows]


class _Tx:
    def __init__(self, store: Store) -> None:
        self.store = store

    def __enter__(self) -> sqlite3.Connection:
        self.store._lock.acquire()
        try:
            self.store._conn.execute("BEGIN IMMEDIATE")
        except BaseException:
            self.store._lock.release()
            raise
        return self.store._conn

    def __exit__(self, exc_type, exc, tb) -> None:
        try:
            if exc_type is None:
                self.store._conn.execute("COMMIT")
            elif self.store._conn.in_transaction:
                self.store._conn.execute("ROLLBACK")
        finally:
            self.store._lock.release()
