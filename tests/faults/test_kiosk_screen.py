"""Every journal fault through the real kiosk window: the kiosk starts, shows the match it
can still read, and says what is wrong and what to do (a screenshot of each message)."""

from __future__ import annotations

import os
import re

import pytest

from tests.faults import places
from tests.faults.common import healthy_journal
from tests.faults.test_journal_files import foreign_database, undecodable_schema

pytestmark = pytest.mark.ui


def on_screen(d, *words: str) -> str:
    text = d.app.banner.text
    assert d.app.banner.height > 0 and all(w in text for w in words), text
    return text


@pytest.fixture
def disk(tmp_path):
    if not places.can_mount():
        pytest.skip("needs root to mount a tmpfs (CI runs as root)")
    with places.small_disk(tmp_path / "disk") as where:
        yield where


def test_full_disk_at_start_the_match_stays_on_screen(faulty_kiosk, disk):
    db = disk / "journal.sqlite"
    match_id = healthy_journal(db)
    before = db.read_bytes()
    filler = places.fill(disk)
    d = faulty_kiosk.start(db)
    assert d.screen == "scoreboard" and d.app.session.match_id == match_id
    assert len(d.app.session.match.hands) == 3
    on_screen(d, "disc és ple", "NO es guarden")
    faulty_kiosk.shot("disk_full")
    assert db.read_bytes() == before and not any(".damaged-" in p.name for p in disk.iterdir())
    filler.unlink()
    d.app.journal.append(match_id, {"type": "trump", "seat": d.app.session.match.dealer,
                                    "trump": "oros"})  # space again: saving works
    assert d.app.journal.writable


def test_read_only_directory_the_match_stays_on_screen(faulty_kiosk, disk):
    db = disk / "journal.sqlite"
    match_id = healthy_journal(db)
    places.set_read_only(disk, True)
    try:
        d = faulty_kiosk.start(db)
        assert d.screen == "scoreboard" and d.app.session.match_id == match_id
        on_screen(d, "només de lectura", "NO es guarden")
        faulty_kiosk.shot("read_only_dir")
    finally:
        places.set_read_only(disk, False)


def test_read_only_file_the_match_stays_on_screen(faulty_kiosk, disk):
    db = disk / "journal.sqlite"
    match_id = healthy_journal(db)
    places.set_immutable(db, True)
    try:
        d = faulty_kiosk.start(db)
        assert d.app.session.match_id == match_id
        on_screen(d, "només de lectura")
        faulty_kiosk.shot("read_only_file")
    finally:
        places.set_immutable(db, False)


def test_damaged_pages_are_set_aside_and_said(faulty_kiosk, tmp_path):
    db = tmp_path / "journal.sqlite"
    undecodable_schema(db)
    d = faulty_kiosk.start(db)
    moved = d.app.journal.moved_aside
    assert moved is not None and d.screen == "scoreboard"
    on_screen(d, "malmès", moved.moved_to.name)
    faulty_kiosk.shot("damaged_pages")


def test_another_programs_database_is_left_alone_and_said(faulty_kiosk, tmp_path):
    db = tmp_path / "caixa.sqlite"
    before = foreign_database(db)
    d = faulty_kiosk.start(db)
    assert d.screen == "scoreboard" and d.app.journal.writable
    on_screen(d, "caixa.sqlite", "altre programa", d.app.journal.path.name)
    faulty_kiosk.shot("not_ours")
    assert db.read_bytes() == before


def test_a_second_kiosk_is_told_and_shows_the_match(faulty_kiosk, tmp_path):
    from kiosk.journal import Journal
    db = tmp_path / "journal.sqlite"
    match_id = healthy_journal(db)
    with Journal(db, exclusive=True):  # the first kiosk (the lock is per open file)
        d = faulty_kiosk.start(db)
        assert d.app.session.match_id == match_id and not d.app.journal.writable
        on_screen(d, "altre marcador")
        faulty_kiosk.shot("second_kiosk")


def test_a_missing_data_folder_is_said(faulty_kiosk, tmp_path):
    blocker = tmp_path / "usb"
    blocker.write_text("not a folder")
    d = faulty_kiosk.start(blocker / "journal.sqlite")
    assert d.screen == "scoreboard"
    text = on_screen(d, "NO es guarden")
    assert re.search("carpeta|No es pot obrir|lectura", text)
    faulty_kiosk.shot("missing_dir")
    assert os.path.isfile(blocker)


@pytest.mark.slow
@pytest.mark.parametrize("fault", ["not_ours", "damaged_pages"])
def test_run_starts_on_every_fault_and_logs_it(tmp_path, fault):
    """``botifarra-kiosk run`` in a real process: the main loop starts, the scoreboard is
    shown with the fault's message, the process stays up."""
    from kiosk.journal import Journal
    from tests.ui.test_run_command import start, stop, wait_for
    db = tmp_path / "journal.sqlite"
    holder = None
    if fault == "not_ours":
        foreign_database(db)
    elif fault == "damaged_pages":
        undecodable_schema(db)
    else:
        healthy_journal(db)
        holder = Journal(db, exclusive=True)
    proc = start(tmp_path, "--db", str(db), "--windowed", "--size", "800x480")
    try:
        # the fault is logged as the first screen is built: wait for it, not the main loop
        out = wait_for(proc, "moved aside" if fault == "damaged_pages" else "journal fault at start",
                       timeout=60)
        assert re.search(r"kiosk\W+screen scoreboard", out), out[-3000:]
        assert "Traceback" not in out
        if fault != "damaged_pages":
            assert re.search(r"journal fault at start: (not_ours|in_use)", out), out[-3000:]
        else:
            assert "moved aside" in out
        assert proc.poll() is None, "the kiosk exited"
    finally:
        stop(proc)
        if holder is not None:
            holder.close()
