"""A damaged or unreadable journal is moved aside (never overwritten) and a new one starts."""
from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

import pytest

from kiosk.journal import (
    CorruptJournal, Journal, JournalError, JournalVersionError, NotAJournal, SCHEMA_VERSION,
)
from tests.journal.helpers import created, play_hand

NOW = 1_795_000_000.0
STAMP = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(NOW))


def good_journal(path: Path) -> bytes:
    with Journal(path) as j:
        mid = j.create_match(created())
        for _ in range(3):
            play_hand(j, mid, 44)
    return path.read_bytes()


def garbage(path: Path) -> None:
    path.write_bytes(os.urandom(8192))


def text_file(path: Path) -> None:
    path.write_text("Partida del dijous: Anna i Marta 101, Pere i Joan 87\n" * 50)


def truncated(path: Path) -> None:
    data = good_journal(path)
    assert len(data) > 4096 * 2
    path.write_bytes(data[: len(data) // 2 + 100])


def scribbled(path: Path) -> None:
    """A valid header, then pages overwritten with noise (a worn SD card)."""
    data = bytearray(good_journal(path))
    for offset in range(4096, len(data), 4096):
        data[offset + 8: offset + 400] = os.urandom(392)
    path.write_bytes(bytes(data))


def bad_header(path: Path) -> None:
    data = bytearray(good_journal(path))
    data[:16] = b"SQLite format 2\x00"
    path.write_bytes(bytes(data))


def a_directory(path: Path) -> None:
    path.mkdir()
    (path / "something").write_text("x")


DAMAGE = [garbage, text_file, truncated, scribbled, bad_header, a_directory]


@pytest.mark.parametrize("damage", DAMAGE, ids=lambda f: f.__name__)
def test_damaged_file_is_moved_aside_and_a_new_journal_starts(db, damage):
    damage(db)
    before = db.read_bytes() if db.is_file() else None
    j = Journal(db, clock=lambda: NOW)
    try:
        moved = j.moved_aside
        assert moved is not None, "damage not detected"
        assert moved.path == db
        assert moved.moved_to == db.with_name(f"journal.sqlite.damaged-{STAMP}")
        if before is not None:  # never overwritten: the bytes are kept as they were
            assert moved.moved_to.read_bytes() == before
        else:
            assert (moved.moved_to / "something").read_text() == "x"
        assert "malmès" in moved.message("ca") and moved.moved_to.name in moved.message("ca")
        assert moved.moved_to.name in moved.message("en")
        assert moved.reason
        # the new journal works and is empty
        assert j.matches() == [] and j.integrity_check() == ["ok"]
        mid = j.create_match(created())
        play_hand(j, mid, 50)
    finally:
        j.close()
    with Journal(db) as again:
        assert again.moved_aside is None and again.load(mid).totals == {"A": 14, "B": 0}


@pytest.mark.parametrize("damage", DAMAGE, ids=lambda f: f.__name__)
def test_with_recover_false_a_damaged_file_raises_and_is_left_alone(db, damage):
    damage(db)
    listing = sorted(p.name for p in db.parent.iterdir())
    before = db.read_bytes() if db.is_file() else None
    with pytest.raises(CorruptJournal) as info:
        Journal(db, recover=False)
    assert isinstance(info.value, RuntimeError) and isinstance(info.value, JournalError)
    assert info.value.path == db and str(db) in str(info.value)
    after = sorted(p.name for p in db.parent.iterdir())
    # nothing renamed or removed (SQLite's read-only look may add an empty -wal/-shm)
    assert set(after) - set(listing) <= {"journal.sqlite-wal", "journal.sqlite-shm"}
    assert set(listing) <= set(after)
    if before is not None:
        assert db.read_bytes() == before


def test_the_wal_and_shm_move_with_the_damaged_file(db):
    # A WAL may hold committed events of its database: moving the main file alone would
    # lose them, or let SQLite try them on the new journal.
    text_file(db)
    wal, shm = Path(f"{db}-wal"), Path(f"{db}-shm")
    wal.write_bytes(b"\x37\x7f\x06\x82" + os.urandom(4000))
    shm.write_bytes(os.urandom(32768))
    files = {suffix: Path(f"{db}{suffix}").read_bytes() for suffix in ("", "-wal", "-shm")}
    with Journal(db, clock=lambda: NOW) as j:
        target = j.moved_aside.moved_to
        assert j.matches() == []
    for suffix, data in files.items():
        assert Path(f"{target}{suffix}").read_bytes() == data


def test_moving_aside_twice_in_one_second_keeps_both(db):
    for _ in range(2):
        garbage(db)
        Journal(db, clock=lambda: NOW).close()
    names = sorted(p.name for p in db.parent.iterdir() if "damaged" in p.name)
    assert names == [f"journal.sqlite.damaged-{STAMP}", f"journal.sqlite.damaged-{STAMP}-1"]


def test_a_newer_kiosks_journal_is_left_untouched(db):
    good_journal(db)
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(JournalVersionError, match="newer"):
        Journal(db)
    assert sorted(p.name for p in db.parent.iterdir() if "damaged" in p.name) == []


def test_another_programs_database_is_left_untouched(db):
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE contacts (name TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(NotAJournal):
        Journal(db)
    assert sqlite3.connect(db).execute("SELECT count(*) FROM contacts").fetchone() == (0,)


def test_an_empty_file_is_a_new_journal(db):
    db.write_bytes(b"")
    with Journal(db) as j:
        assert j.moved_aside is None and j.matches() == []


def test_a_missing_directory_is_created(tmp_path):
    with Journal(tmp_path / "a" / "b" / "journal.sqlite") as j:
        assert j.matches() == []


def test_damage_found_while_in_use_is_a_corrupt_journal_error(db):
    with Journal(db) as j:
        mid = j.create_match(created())
        for _ in range(60):
            play_hand(j, mid, 36)
    j = Journal(db)
    try:
        # the file rots under the running kiosk (all pages but the first)
        data = bytearray(db.read_bytes())
        assert len(data) > 4096 * 4
        data[4096:] = os.urandom(len(data) - 4096)
        db.write_bytes(bytes(data))
        with pytest.raises(CorruptJournal, match="damaged"):
            j.events(mid)
        with pytest.raises(CorruptJournal, match="NOT saved"):
            j.append(mid, {"type": "misdeal"})
    finally:
        j.close()
    with Journal(db) as fresh:  # what the kiosk does next: reopen, which sets it aside
        assert fresh.moved_aside is not None and fresh.matches() == []
