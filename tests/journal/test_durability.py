"""What a power cut leaves behind: every event whose append returned, and nothing else."""
from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from kiosk.journal import Journal
from tests.journal.helpers import created, play_hand


def test_every_commit_is_fsynced_through_a_wal(db):
    with Journal(db) as j:
        s = j.storage_settings()
    assert s["journal_mode"] == "wal"
    assert s["synchronous"] == 2  # FULL: the WAL is fsynced at each COMMIT


def power_cut_copy(db: Path, dest: Path, *, with_shm: bool) -> Path:
    """The files as a power cut would leave them while the kiosk runs (no checkpoint, no
    clean close). The -shm is only a cache; after a real cut it may be stale or gone."""
    dest.mkdir()
    suffixes = ["", "-wal"] + (["-shm"] if with_shm else [])
    for suffix in suffixes:
        shutil.copyfile(f"{db}{suffix}", dest / f"{db.name}{suffix}")
    return dest / db.name


def test_an_event_is_in_the_files_as_soon_as_append_returns(db, tmp_path):
    with Journal(db) as j:
        mid = j.create_match(created())
        for _ in range(3):
            play_hand(j, mid, 45)
        state = j.append(mid, {"type": "trump", "seat": j.load(mid).dealer, "trump": "copes"})
        wal = Path(f"{db}-wal")
        assert wal.stat().st_size > 0  # not yet checkpointed: the events live in the WAL
        for with_shm in (True, False):
            copy = power_cut_copy(db, tmp_path / f"cut-{with_shm}", with_shm=with_shm)
            with Journal(copy) as after:
                assert after.moved_aside is None
                assert after.integrity_check() == ["ok"]
                assert after.load(mid).events == state.events
                assert after.current_match().match.phase == state.phase


def test_a_refused_event_leaves_no_trace_in_the_wal(db):
    with Journal(db) as j:
        mid = j.create_match(created())
        size = Path(f"{db}-wal").stat().st_size
        for bad in ({"type": "trump", "seat": 3, "trump": "oros"}, {"type": "hand_scored"}):
            try:
                j.append(mid, bad)
            except Exception:
                pass
        assert Path(f"{db}-wal").stat().st_size == size
        assert len(j.events(mid)) == 1


def test_a_clean_close_checkpoints_into_the_main_file(db):
    with Journal(db) as j:
        mid = j.create_match(created())
        play_hand(j, mid, 40)
    assert not Path(f"{db}-wal").exists() or Path(f"{db}-wal").stat().st_size == 0
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    assert conn.execute("SELECT count(*) FROM events").fetchone()[0] == 4
