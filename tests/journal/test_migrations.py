"""Schema migrations, tested from every earlier version on real files.

The DDL below is a frozen copy of what each earlier kiosk wrote (NOT imported from
kiosk.journal.schema), so a change to the current migrations cannot silently change
what "a version-1 file" means here.
"""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from kiosk.journal import SCHEMA_VERSION, Journal, JournalError, schema
from tests.journal.helpers import created

APPLICATION_ID = 0x424F5449

V1_DDL = [
    f"PRAGMA application_id = {APPLICATION_ID}",
    "CREATE TABLE matches (id INTEGER PRIMARY KEY AUTOINCREMENT, created_at TEXT NOT NULL)",
    """CREATE TABLE events (match_id INTEGER NOT NULL REFERENCES matches(id),
           seq INTEGER NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL,
           created_at TEXT NOT NULL, PRIMARY KEY (match_id, seq)) WITHOUT ROWID""",
    "PRAGMA user_version = 1",
]


def hand(dealer: int, points_a: int) -> list[dict]:
    return [{"type": "trump", "seat": dealer, "trump": "oros"}, {"type": "play"},
            {"type": "hand_scored", "points": {"A": points_a}, "source": "points",
             "evidence": "/var/lib/botifarra-kiosk/evidence/h1.jpg"}]


# Two matches as a version-1 kiosk stored them: one won by A, one left mid-bidding.
WON = [created()] + [e for i in range(8) for e in hand(i % 4, 50)]
UNFINISHED = [created(first_dealer=1)] + hand(1, 30) + [
    {"type": "trump", "seat": 2, "trump": "botifarra"}]


def make_v1(path: Path) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    for statement in V1_DDL:
        conn.execute(statement)
    for match_id, (events, day) in enumerate([(WON, "2026-11-01"), (UNFINISHED, "2026-11-02")], 1):
        conn.execute("INSERT INTO matches (id, created_at) VALUES (?, ?)",
                     (match_id, f"{day}T20:00:00Z"))
        for seq, event in enumerate(events, 1):
            conn.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?)",
                         (match_id, seq, event["type"], json.dumps(event),
                          f"{day}T20:{seq:02d}:00Z"))
    conn.close()


def make_v0_empty_file(path: Path) -> None:
    path.write_bytes(b"")


def make_v0_empty_database(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 0")
    conn.close()


EARLIER = {0: [make_v0_empty_file, make_v0_empty_database], 1: [make_v1]}


def test_every_earlier_version_has_a_fixture():
    assert sorted(EARLIER) == list(range(SCHEMA_VERSION))


@pytest.mark.parametrize("make", [m for ms in EARLIER.values() for m in ms],
                         ids=lambda m: m.__name__)
def test_an_earlier_file_opens_at_the_current_version(db, make):
    make(db)
    with Journal(db) as j:
        assert j.moved_aside is None
        assert j.integrity_check() == ["ok"]
        mid = j.create_match(created())
        j.append(mid, {"type": "trump", "seat": 0, "trump": "oros"})
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID


def test_version_1_data_survives_with_its_dates_and_resumes(db):
    make_v1(db)
    with Journal(db) as j:
        assert j.migrated_from == 1
        won, unfinished = j.matches()
        assert (won.id, won.winner, won.is_over, won.hands) == (1, "A", True, 8)
        assert won.totals == {"A": 112, "B": 0}
        assert won.created_at == "2026-11-01T20:00:00Z"
        assert won.updated_at == f"2026-11-01T20:{len(WON):02d}:00Z"
        assert unfinished.totals == {"A": 0, "B": 6} and not unfinished.is_over
        current = j.current_match()
        assert current.match_id == 2
        assert j.events(2) == UNFINISHED  # stored exactly as the version-1 kiosk wrote them
        assert current.match.events[1:] == UNFINISHED[1:]  # mid-bidding, exactly as left
        assert current.match.phase == "doubling" and current.match.contract.trump.value == "botifarra"
        assert j.events(1)[3]["evidence"] == "/var/lib/botifarra-kiosk/evidence/h1.jpg"
        # and it goes on
        state = j.append(2, {"type": "play"})
        assert state.phase == "playing"
    with Journal(db) as j:
        assert j.migrated_from == SCHEMA_VERSION
        assert j.current_match().match.phase == "playing"


def test_migrated_file_refuses_to_change_events(db):
    make_v1(db)
    Journal(db).close()
    conn = sqlite3.connect(db)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("DELETE FROM events WHERE match_id = 1")


def test_a_failing_migration_leaves_the_previous_version_intact(db, monkeypatch):
    make_v1(db)
    before = db.read_bytes()
    broken = schema.MIGRATIONS + (("CREATE TABLE extra (x)", "THIS IS NOT SQL"),)
    with monkeypatch.context() as m:
        m.setattr(schema, "MIGRATIONS", broken)
        m.setattr(schema, "SCHEMA_VERSION", len(broken))
        with pytest.raises(JournalError, match="syntax"):
            Journal(db, recover=False)
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    assert conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'extra'").fetchone()[0] == 0
    conn.close()
    with Journal(db) as j:  # and the real migration still works afterwards
        assert j.migrated_from == 1 and len(j.matches()) == 2
    assert len(before) > 0
