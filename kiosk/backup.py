"""Rotated backups of the journal: ``python -m kiosk.backup [--db PATH] [--dest DIR] [--keep-days N]``.

Run nightly by ``botifarra-kiosk-backup.timer``. Uses SQLite's online backup API
(``sqlite3.Connection.backup``), so a backup taken while the kiosk is writing is still a
consistent snapshot. Each copy is written to a temporary name, checked with
``PRAGMA integrity_check``, flushed to disk and only then renamed into place, so a power
cut never leaves a half backup that looks whole. Copies older than ``--keep-days`` are
removed; the newest copy is always kept.

(When ``Journal.backup(dest)`` lands on the journal branch, this module can call it; the
file format and the rotation stay the same.)
"""

from __future__ import annotations

import argparse
import os
import re
import sqlite3
import sys
from datetime import datetime, timedelta
from pathlib import Path

from kiosk import paths

NAME = re.compile(r"^journal-(\d{8}-\d{6})\.sqlite$")
STAMP = "%Y%m%d-%H%M%S"
KEEP_DAYS = 14


class BackupError(RuntimeError):
    """A backup that could not be made or did not check out."""


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def backup(db: Path, dest_dir: Path, *, now: datetime | None = None) -> Path:
    """Copy ``db`` to ``dest_dir/journal-YYYYmmdd-HHMMSS.sqlite``; return the new file."""
    db, dest_dir = Path(db), Path(dest_dir)
    if not db.is_file():
        raise FileNotFoundError(f"no journal at {db}")
    now = now or datetime.now()
    dest_dir.mkdir(parents=True, exist_ok=True)
    final = dest_dir / f"journal-{now.strftime(STAMP)}.sqlite"
    tmp = dest_dir / f".{final.name}.tmp"
    tmp.unlink(missing_ok=True)
    src = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        dst = sqlite3.connect(tmp)
        try:
            src.backup(dst)
            (result,) = dst.execute("PRAGMA integrity_check").fetchone()
        finally:
            dst.close()
    finally:
        src.close()
    if result != "ok":
        tmp.unlink(missing_ok=True)
        raise BackupError(f"the copy of {db} failed its integrity check: {result}")
    with open(tmp, "rb") as fh:
        os.fsync(fh.fileno())
    os.replace(tmp, final)
    _fsync_dir(dest_dir)
    return final


def prune(dest_dir: Path, *, keep_days: int = KEEP_DAYS, now: datetime | None = None) -> list[Path]:
    """Remove backups older than ``keep_days`` (by the time in their name); keep the newest."""
    now = now or datetime.now()
    dated = []
    for path in Path(dest_dir).glob("journal-*.sqlite"):
        match = NAME.match(path.name)
        if match:
            dated.append((datetime.strptime(match.group(1), STAMP), path))
    dated.sort()
    removed = []
    limit = now - timedelta(days=keep_days)
    for when, path in dated[:-1]:
        if when < limit:
            path.unlink(missing_ok=True)
            removed.append(path)
    return removed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m kiosk.backup", description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=None, help="journal file (default: the data dir's)")
    parser.add_argument("--dest", type=Path, default=None, help="backup folder (default: DATA_DIR/backups)")
    parser.add_argument("--keep-days", type=int, default=KEEP_DAYS, help="days of backups to keep (14)")
    args = parser.parse_args(argv)
    if args.keep_days < 1:
        print(f"kiosk.backup: --keep-days must be at least 1, not {args.keep_days}", file=sys.stderr)
        return 2
    db = args.db or paths.default_db()
    dest = args.dest or paths.data_dir() / "backups"
    if not db.exists():
        print(f"backup: no journal at {db} yet; nothing to back up")
        return 0
    try:
        made = backup(db, dest)
        removed = prune(dest, keep_days=args.keep_days)
    except (OSError, sqlite3.Error, BackupError) as exc:
        print(f"kiosk.backup: {db}: {exc}", file=sys.stderr)
        return 1
    print(f"backup: {made} ({made.stat().st_size} bytes); removed {len(removed)} older than "
          f"{args.keep_days} days")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
