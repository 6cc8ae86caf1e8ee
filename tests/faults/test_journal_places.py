"""Faults of the place the journal lives: a full disk, a read-only file or directory.

The file is never moved aside, the kiosk starts on it read-only (its match on screen),
nothing is said to be saved that was not, and saving works again once the fault clears.
"""

from __future__ import annotations

import pytest

from kiosk.journal import FaultKind, Journal, JournalFull, JournalReadOnly, SaveFailed
from kiosk.journal.startup import open_for_kiosk
from tests.faults import places
from tests.faults.common import cli, files_of, healthy_journal, match_file, one_line
from tests.journal.helpers import play_hand

needs_mount = pytest.mark.skipif(not places.can_mount(), reason="needs root to mount a tmpfs")


@pytest.fixture
def disk(tmp_path):
    if not places.can_mount():
        yield tmp_path / "disk"
        return
    with places.small_disk(tmp_path / "disk") as where:
        yield where


@pytest.mark.parametrize("mode", [places.FULL_MODE])
def test_a_full_disk_at_start_keeps_the_journal_and_its_match(disk, tmp_path, mode):
    db = disk / "journal.sqlite"
    disk.mkdir(exist_ok=True)
    match_id = healthy_journal(db)
    before = files_of(disk)
    if mode == "tmpfs":
        filler = places.fill(disk)
        journal = open_for_kiosk(db)
        assert not journal.writable and journal.startup_fault.kind is FaultKind.FULL
    else:  # no mount possible: SQLite's own limit makes the disk "full" for this connection
        journal = open_for_kiosk(db)
        pages = journal._conn.execute("PRAGMA page_count").fetchone()[0]
        journal._conn.execute(f"PRAGMA max_page_count = {pages}")
    try:
        current = journal.current_match()
        assert current is not None and current.match_id == match_id  # still on screen
        assert len(current.match.hands) == 3
        hands_before = len(journal.load(match_id).hands)
        with pytest.raises(JournalFull) as info:
            for _ in range(50):  # max_page_count: the first hands may still fit
                play_hand(journal, match_id, 44)
        assert "NOT saved" in str(info.value) and isinstance(info.value, SaveFailed)
        if mode == "tmpfs":
            assert not any(".damaged-" in n for n in files_of(disk))
            assert files_of(disk)["journal.sqlite"] == before["journal.sqlite"]
            # the CLI on a full disk: exit 1, one line, nothing moved aside
            err = one_line(cli("import", str(match_file(tmp_path)), "--db", str(db)), 1)
            assert "full" in err
            assert cli("matches", "--db", str(db)).returncode == 0  # reading still works
            filler.unlink()
        else:
            journal._conn.execute("PRAGMA max_page_count = 1000000")
        saved = len(journal.load(match_id).hands)
        play_hand(journal, match_id, 44)  # the fault cleared: the same call works
        assert journal.writable and len(journal.load(match_id).hands) == saved + 1 > hands_before
    finally:
        journal.close()
    with Journal(db) as again:
        assert again.integrity_check() == ["ok"]
        assert len(again.load(match_id).hands) == saved + 1


@needs_mount
def test_a_disk_filling_up_mid_match_saves_nothing_half_and_retries(disk):
    db = disk / "journal.sqlite"
    match_id = healthy_journal(db, hands=1)
    journal = open_for_kiosk(db)
    assert journal.writable
    try:
        filler = places.fill(disk)
        events = len(journal.events(match_id))
        with pytest.raises(JournalFull):
            for _ in range(50):
                play_hand(journal, match_id, 44)
        saved = journal.events(match_id)
        assert len(saved) >= events  # only whole events, each one committed
        filler.unlink()
        play_hand(journal, match_id, 44)
        assert len(journal.events(match_id)) > len(saved)
    finally:
        journal.close()


@pytest.mark.parametrize("mode", [places.READ_ONLY_DIR_MODE])
def test_a_read_only_directory_keeps_the_journal_and_shows_it(disk, tmp_path, mode):
    if mode == "none":
        pytest.skip("root without mount: no way to make a directory read-only")
    db = disk / "journal.sqlite"
    disk.mkdir(exist_ok=True)
    match_id = healthy_journal(db)
    before = files_of(disk)
    places.set_read_only(disk, True)
    try:
        journal = open_for_kiosk(db)
        try:
            assert journal.startup_fault.kind is FaultKind.READ_ONLY and not journal.writable
            assert journal.current_match().match_id == match_id
            with pytest.raises(JournalReadOnly, match="NOT saved"):
                play_hand(journal, match_id, 44)
            err = one_line(cli("import", str(match_file(tmp_path)), "--db", str(db)), 1)
            assert "read-only" in err
            listed = cli("matches", "--db", str(db))
            assert listed.returncode == 0 and b"Nosaltres" in listed.stdout
            assert files_of(disk) == before
            places.set_read_only(disk, False)
            play_hand(journal, match_id, 44)  # writable again: the retry works
            assert journal.writable and len(journal.load(match_id).hands) == 4
        finally:
            journal.close()
    finally:
        places.set_read_only(disk, False)


@pytest.mark.parametrize("mode", [places.READ_ONLY_FILE_MODE])
def test_a_read_only_file_keeps_the_journal_and_shows_it(disk, tmp_path, mode):
    if mode == "none":
        pytest.skip("root without chattr: no way to make a file read-only")
    db = disk / "journal.sqlite"
    disk.mkdir(exist_ok=True)
    match_id = healthy_journal(db)
    before = db.read_bytes()
    places.set_immutable(db, True)
    try:
        journal = open_for_kiosk(db)
        try:
            assert journal.startup_fault.kind is FaultKind.READ_ONLY and not journal.writable
            assert journal.current_match().match_id == match_id
            with pytest.raises(JournalReadOnly, match="NOT saved"):
                play_hand(journal, match_id, 44)
            one_line(cli("import", str(match_file(tmp_path)), "--db", str(db)), 1)
            assert cli("export", "--db", str(db)).returncode == 0
            assert db.read_bytes() == before
            assert not any(".damaged-" in p.name for p in disk.iterdir())
            places.set_immutable(db, False)
            play_hand(journal, match_id, 44)
            assert journal.writable
        finally:
            journal.close()
    finally:
        places.set_immutable(db, False)


def test_a_missing_directory_that_cannot_be_made_is_a_typed_fault(tmp_path):
    blocker = tmp_path / "data"
    blocker.write_text("a file where the data folder should be")
    db = blocker / "journal.sqlite"
    journal = open_for_kiosk(db)
    try:
        assert not journal.writable and journal.startup_fault is not None
        assert journal.current_match() is None
        with pytest.raises(SaveFailed, match="NOT saved"):
            journal.create_match({"type": "match_created", "rules": {"preset": "reglament"},
                                  "first_dealer": 0, "players": [None] * 4, "team_names": None})
        blocker.unlink()
        journal.create_match({"type": "match_created", "rules": {"preset": "reglament"},
                              "first_dealer": 0, "players": [None] * 4, "team_names": None})
        assert journal.writable and db.exists()
    finally:
        journal.close()
