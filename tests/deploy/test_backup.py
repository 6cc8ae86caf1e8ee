"""kiosk.backup: a consistent copy through SQLite's backup API (even of a WAL journal with
an open writer), verified, renamed into place, and rotated after 14 days."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

from kiosk.backup import backup, prune

ROOT = Path(__file__).resolve().parents[2]


def make_journal(path: Path) -> sqlite3.Connection:
    con = sqlite3.connect(path)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("CREATE TABLE events (id INTEGER PRIMARY KEY, body TEXT)")
    con.executemany("INSERT INTO events (body) VALUES (?)", [(f"event {i}",) for i in range(200)])
    con.commit()
    return con


def test_backup_copies_committed_rows_while_the_writer_is_open(tmp_path):
    db = tmp_path / "journal.sqlite"
    writer = make_journal(db)             # still open: rows live in the WAL file
    writer.execute("INSERT INTO events (body) VALUES ('uncommitted')")   # not committed
    made = backup(db, tmp_path / "backups", now=datetime(2026, 11, 22, 3, 30, 0))
    writer.rollback()
    writer.close()
    assert made.name == "journal-20261122-033000.sqlite"
    copy = sqlite3.connect(made)
    assert copy.execute("SELECT count(*) FROM events").fetchone() == (200,)
    assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    copy.close()
    assert not list((tmp_path / "backups").glob(".*.tmp"))


def test_prune_keeps_14_days_and_always_the_newest(tmp_path):
    now = datetime(2026, 11, 22, 4, 0, 0)
    for days in (0, 1, 13, 15, 30):
        stamp = (now - timedelta(days=days)).strftime("%Y%m%d-%H%M%S")
        (tmp_path / f"journal-{stamp}.sqlite").write_bytes(b"x")
    (tmp_path / "notes.txt").write_text("not a backup")
    removed = prune(tmp_path, keep_days=14, now=now)
    assert len(removed) == 2
    assert len(list(tmp_path.glob("journal-*.sqlite"))) == 3 and (tmp_path / "notes.txt").exists()
    # a kiosk off for a month still keeps its last backup
    assert len(prune(tmp_path, keep_days=14, now=now + timedelta(days=60))) == 2
    assert len(list(tmp_path.glob("journal-*.sqlite"))) == 1


def test_module_entry_point(tmp_path):
    db = tmp_path / "data" / "journal.sqlite"
    db.parent.mkdir()
    make_journal(db).close()
    env = {"BOTIFARRA_DATA_DIR": str(tmp_path / "data"), "PATH": "/usr/bin:/bin"}
    result = subprocess.run([sys.executable, "-m", "kiosk.backup"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    assert "backup: " in result.stdout and "removed 0" in result.stdout
    assert len(list((tmp_path / "data" / "backups").glob("journal-*.sqlite"))) == 1
    bad = subprocess.run([sys.executable, "-m", "kiosk.backup", "--keep-days", "0"], cwd=ROOT,
                         env=env, capture_output=True, text=True, timeout=30)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
    env["BOTIFARRA_DATA_DIR"] = str(tmp_path / "empty")
    none = subprocess.run([sys.executable, "-m", "kiosk.backup"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=30)
    assert none.returncode == 0 and "nothing to back up" in none.stdout
