"""Faults of the journal file itself: damaged pages behind an intact header, another
program's database, two kiosks on one journal. Through the CLI and the kiosk's opening."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys

import pytest

from kiosk.journal import FaultKind, Journal, JournalInUse
from kiosk.journal.startup import fallback_path, open_for_kiosk
from tests.faults.common import ROOT, cli, files_of, healthy_journal, match_file, one_line
from tests.journal.helpers import play_hand


def undecodable_schema(db) -> None:
    """Damage that makes SQLite quote invalid UTF-8 (an index name in the schema page
    scribbled over); the 16-byte header is intact."""
    healthy_journal(db, hands=10)
    data = bytearray(db.read_bytes())
    at = data.find(b"matches_by_state", 100)
    assert at > 100
    data[at:at + 3] = b"\xff\xfe\xfd"
    db.write_bytes(bytes(data))


def scribbled_pages(db, seed: int = 0) -> None:
    """Pages after the first overwritten with noise (a worn SD card); header intact."""
    healthy_journal(db, hands=10)
    data = bytearray(db.read_bytes())
    rng = random.Random(seed)
    for offset in range(4096, len(data), 4096):
        data[offset:offset + 4096] = rng.randbytes(4096)
    db.write_bytes(bytes(data))


DAMAGE = [undecodable_schema, scribbled_pages]


@pytest.mark.parametrize("damage", DAMAGE, ids=lambda f: f.__name__)
def test_damaged_pages_are_refused_by_the_cli_in_one_line_and_left_alone(tmp_path, damage):
    db = tmp_path / "journal.sqlite"
    damage(db)
    assert db.read_bytes()[:16] == b"SQLite format 3\x00"
    before = files_of(tmp_path)
    for args in (["matches"], ["matches", "--json"], ["export"], ["export", "--match", "1"],
                 ["backup", str(tmp_path / "copy.sqlite")]):
        err = one_line(cli(*args, "--db", str(db)), 1)
        assert "damaged" in err or "malformed" in err or "backup" in err, err
    after = files_of(tmp_path)  # reading commands never move anything aside
    assert after["journal.sqlite"] == before["journal.sqlite"]
    assert not any(".damaged-" in name for name in after)


@pytest.mark.parametrize("damage", DAMAGE, ids=lambda f: f.__name__)
def test_damaged_pages_are_moved_aside_by_import_and_the_kiosk(tmp_path, damage):
    db = tmp_path / "journal.sqlite"
    damage(db)
    original = db.read_bytes()
    proc = cli("import", str(match_file(tmp_path)), "--db", str(db))
    assert proc.returncode == 0, proc.stderr
    assert b"damaged" in proc.stderr and b"Traceback" not in proc.stderr
    aside = [p for p in tmp_path.iterdir() if ".damaged-" in p.name and "-" not in p.suffix[-4:]]
    assert any(p.read_bytes() == original for p in tmp_path.iterdir() if ".damaged-" in p.name)
    assert aside
    damage(tmp_path / "second.sqlite")
    journal = open_for_kiosk(tmp_path / "second.sqlite")
    try:
        assert journal.writable and journal.moved_aside is not None
        assert journal.moved_aside.moved_to.read_bytes()[:16] == b"SQLite format 3\x00"
        assert journal.current_match() is None  # a new journal: said on screen
    finally:
        journal.close()


@pytest.mark.parametrize("seed", range(12))
def test_no_damage_makes_opening_crash(tmp_path, seed):
    db = tmp_path / "journal.sqlite"
    healthy_journal(db, hands=8)
    data = bytearray(db.read_bytes())
    rng = random.Random(seed)
    for _ in range(rng.randint(1, 40)):  # random bytes anywhere after the header
        at = rng.randrange(16, len(data))
        data[at] = rng.randrange(256)
    db.write_bytes(bytes(data))
    for args in (["matches"], ["export"]):
        proc = cli(*args, "--db", str(db))
        assert b"Traceback" not in proc.stderr and len(proc.stderr.splitlines()) <= 1
    journal = open_for_kiosk(db)  # never raises: damaged, standby or fine
    journal.close()


def foreign_database(path) -> bytes:
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    con.execute("INSERT INTO invoices (total) VALUES (12.5)")
    con.commit()
    con.close()
    return path.read_bytes()


def test_another_programs_database_is_left_untouched_and_the_kiosk_starts_elsewhere(tmp_path):
    db = tmp_path / "caixa.sqlite"
    before = foreign_database(db)
    for args in (["matches"], ["export"], ["import", str(match_file(tmp_path))]):
        err = one_line(cli(*args, "--db", str(db)), 1)
        assert "another program" in err
    journal = open_for_kiosk(db)
    try:
        fault = journal.startup_fault
        assert fault.kind is FaultKind.NOT_OURS and fault.fallback == fallback_path(db)
        assert journal.path == fallback_path(db) and journal.writable
        assert "caixa.sqlite" in fault.message("ca") and fault.fallback.name in fault.message("ca")
        journal.create_match({"type": "match_created", "rules": {"preset": "reglament"},
                              "first_dealer": 0, "players": [None] * 4, "team_names": None})
    finally:
        journal.close()
    assert db.read_bytes() == before
    assert not any(".damaged-" in p.name for p in tmp_path.iterdir())


HOLDER = """
import sys, time
from kiosk.journal.startup import open_for_kiosk
j = open_for_kiosk(sys.argv[1])
assert j.writable, j.startup_fault
print("holding", flush=True)
sys.stdin.readline()
j.close()
"""


def test_a_second_kiosk_is_told_and_saves_nothing_until_the_first_stops(tmp_path):
    db = tmp_path / "journal.sqlite"
    match_id = healthy_journal(db)
    first = subprocess.Popen([sys.executable, "-c", HOLDER, str(db)], cwd=ROOT, text=True,
                             env=dict(os.environ, PYTHONPATH=str(ROOT)),
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert first.stdout.readline().strip() == "holding"
        second = open_for_kiosk(db)
        try:
            assert second.startup_fault.kind is FaultKind.IN_USE and not second.writable
            assert "altre marcador" in second.startup_fault.message("ca")
            assert second.current_match().match_id == match_id  # the match is shown
            with pytest.raises(JournalInUse, match="NOT saved"):
                play_hand(second, match_id, 44)
            # the CLI still reads (and an import is not a kiosk: SQLite serialises it)
            listed = cli("matches", "--db", str(db))
            assert listed.returncode == 0 and b"Nosaltres" in listed.stdout
            first.stdin.write("\n")
            first.stdin.flush()
            assert first.wait(timeout=20) == 0
            play_hand(second, match_id, 44)  # the first kiosk is gone: the retry works
            assert second.writable and len(second.load(match_id).hands) == 4
            with pytest.raises(JournalInUse):
                Journal(db, exclusive=True)  # and now the second one holds the lock
        finally:
            second.close()
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
