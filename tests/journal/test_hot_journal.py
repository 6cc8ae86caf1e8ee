"""A kill while a new journal file is still in SQLite's rollback mode (the moment it is switched
to write-ahead logging) leaves a hot rollback journal beside it. The journal's read-only first
look cannot roll it back (SQLITE_READONLY_ROLLBACK, "attempt to write a readonly database"): that
is not a read-only journal, and the kiosk must open it, not say the file is read-only. (Seen once
in hundreds of kills of test_crash on a loaded machine.)"""

from __future__ import annotations

import subprocess
import sys

from kiosk.journal import Journal

# A child opens the kiosk's journal in rollback mode (as a new file is until it is switched to
# write-ahead logging), writes more than its cache holds into it (pages spilled into the file,
# the old ones kept in the rollback journal), and is killed before the commit.
_KILLED_MID_WRITE = r"""
import os, sqlite3, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None)
assert c.execute("PRAGMA journal_mode = DELETE").fetchone()[0] == "delete"
c.execute("PRAGMA cache_size = 1")
c.execute("BEGIN")
c.execute("CREATE TABLE half (x)")
for _ in range(2000):
    c.execute("INSERT INTO half VALUES (?)", ("x" * 400,))
os.kill(os.getpid(), 9)
"""


def test_a_hot_rollback_journal_left_by_a_kill_is_rolled_back_not_called_read_only(tmp_path):
    db = tmp_path / "journal.sqlite"
    Journal(db).close()  # the kiosk's own file, closed cleanly
    child = subprocess.run([sys.executable, "-c", _KILLED_MID_WRITE, str(db)], check=False)
    assert child.returncode == -9
    hot = db.with_name(db.name + "-journal")
    assert hot.exists() and db.stat().st_size > 100_000  # pages of the unfinished write in the file
    with Journal(db, recover=False) as journal:  # rolled back: the kiosk's journal as it was
        assert journal.moved_aside is None and journal.writable
        assert journal.integrity_check() == ["ok"] and journal.matches() == []
    assert not hot.exists()
