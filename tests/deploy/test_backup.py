"""kiosk.backup and `botifarra-kiosk backup` as the nightly timer runs it: a consistent copy
of a real journal (Journal.backup: SQLite's backup API) while the kiosk has it open, renamed
into place, and rotated after 14 days or to the newest N."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

from kiosk.backup import BackupError, backup, prune
from kiosk.journal import Journal
from tests.journal.helpers import created, play_hand

ROOT = Path(__file__).resolve().parents[2]


def make_journal(path: Path, hands: int = 3) -> Journal:
    journal = Journal(path)
    match_id = journal.create_match(created())
    for points in range(hands):
        play_hand(journal, match_id, 30 + points)
    return journal


def test_backup_copies_the_journal_while_the_kiosk_has_it_open(tmp_path):
    db = tmp_path / "journal.sqlite"
    kiosk = make_journal(db)              # still open, as the running kiosk's
    made = backup(db, tmp_path / "backups", into_dir=True, now=datetime(2026, 11, 22, 3, 30, 0))
    play_hand(kiosk, kiosk.matches()[0].id, 40)   # the kiosk carries on writing
    kiosk.close()
    assert made.name == "journal-20261122-033000.sqlite"
    with Journal(made, recover=False) as copy:
        (match,) = [copy.load(m.id) for m in copy.matches()]
        assert len(match.hands) == 3      # the snapshot, not the hand played after it
    con = sqlite3.connect(made)
    assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    con.close()
    assert not list((tmp_path / "backups").glob(".*"))


def test_a_file_that_is_not_a_journal_is_refused(tmp_path):
    db = tmp_path / "journal.sqlite"
    db.write_bytes(b"not a database" * 300)
    try:
        backup(db, tmp_path / "backups", into_dir=True)
    except BackupError as exc:
        assert "journal" in str(exc)
    else:
        raise AssertionError("a damaged journal was backed up")
    assert not list((tmp_path / "backups").glob("journal-*"))


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


def test_prune_keeps_the_newest_n(tmp_path):
    now = datetime(2026, 11, 22, 4, 0, 0)
    for days in (0, 1, 2, 3):
        stamp = (now - timedelta(days=days)).strftime("%Y%m%d-%H%M%S")
        (tmp_path / f"journal-{stamp}.sqlite").write_bytes(b"x")
    removed = prune(tmp_path, keep=2)
    assert [p.name for p in removed] == ["journal-20261119-040000.sqlite", "journal-20261120-040000.sqlite"]
    assert len(list(tmp_path.glob("journal-*.sqlite"))) == 2
    # both limits at once: the stricter wins, the newest stays
    assert len(prune(tmp_path, keep=5, keep_days=1, now=now + timedelta(days=30))) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["journal-20261122-040000.sqlite"]


def test_a_file_dest_gets_the_copy_itself(tmp_path):
    db = tmp_path / "journal.sqlite"
    make_journal(db, hands=1).close()
    made = backup(db, tmp_path / "copy.sqlite")
    assert made == tmp_path / "copy.sqlite"
    with Journal(made, recover=False) as copy:
        assert len(copy.matches()) == 1


def kiosk_cli(*argv: str, data: Path) -> subprocess.CompletedProcess:
    env = {"BOTIFARRA_DATA_DIR": str(data), "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-m", "kiosk", *argv], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=30)


def test_the_nightly_command(tmp_path):
    """What botifarra-kiosk-backup.service runs: `botifarra-kiosk backup --keep-days 14`."""
    data = tmp_path / "data"
    data.mkdir()
    make_journal(data / "journal.sqlite", hands=1).close()
    result = kiosk_cli("backup", "--keep-days", "14", data=data)
    assert result.returncode == 0, result.stderr
    (made,) = (data / "backups").glob("journal-*.sqlite")
    assert result.stdout == f"{made}\n" and result.stderr == ""
    bad = kiosk_cli("backup", "--keep-days", "0", data=data)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
    assert "--keep-days" in bad.stderr
    # a kiosk with no journal yet: nothing to back up, and the timer stays green
    none = kiosk_cli("backup", "--keep-days", "14", data=tmp_path / "empty")
    assert none.returncode == 0 and "nothing to back up" in none.stdout, none.stderr
    assert not (tmp_path / "empty").exists()
    # ... but an explicit DEST with no journal is a mistake worth saying
    missing = kiosk_cli("backup", str(tmp_path / "b.sqlite"), data=tmp_path / "empty")
    assert missing.returncode == 2 and len(missing.stderr.strip().splitlines()) == 1
