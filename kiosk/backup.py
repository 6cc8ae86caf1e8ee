"""Rotated backups of the journal: ``python -m kiosk.backup [--db PATH] [--dest DIR] [--keep-days N]``.

Run nightly by ``botifarra-kiosk-backup.timer``. The copy is ``Journal.backup(dest)``
(SQLite's online backup API: a consistent snapshot even while the kiosk writes; checked
with ``PRAGMA integrity_check``, fsynced and renamed into place, so a power cut never
leaves a half backup that looks whole). Copies are named ``journal-YYYYmmdd-HHMMSS.sqlite``
(UTC, like ``botifarra-kiosk backup``); those older than ``--keep-days`` are removed, the
newest is always kept. A kiosk with no journal yet is not an error (the timer stays green).
"""

from __future__ import annotations

import argparse
import re
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

from kiosk import paths

NAME = re.compile(r"^journal-(\d{8}-\d{6})\.sqlite$")
STAMP = "%Y%m%d-%H%M%S"
KEEP_DAYS = 14


class BackupError(RuntimeError):
    """A backup that could not be made or did not check out."""


def backup(db: Path, dest_dir: Path, *, now: datetime | None = None) -> Path:
    """Copy the journal ``db`` to ``dest_dir/journal-YYYYmmdd-HHMMSS.sqlite``; return it."""
    from kiosk.journal import Journal, JournalError

    db, dest_dir = Path(db), Path(dest_dir)
    if not db.is_file():
        raise FileNotFoundError(f"no journal at {db}")
    now = now or _utcnow()
    final = dest_dir / f"journal-{now.strftime(STAMP)}.sqlite"
    try:
        with Journal(db, recover=False) as journal:
            return journal.backup(final)
    except JournalError as exc:
        raise BackupError(str(exc)) from exc


def _utcnow() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


def prune(dest_dir: Path, *, keep_days: int = KEEP_DAYS, now: datetime | None = None) -> list[Path]:
    """Remove backups older than ``keep_days`` (by the time in their name); keep the newest."""
    now = now or _utcnow()
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
    except (OSError, BackupError) as exc:
        print(f"kiosk.backup: {db}: {exc}", file=sys.stderr)
        return 1
    print(f"backup: {made} ({made.stat().st_size} bytes); removed {len(removed)} older than "
          f"{args.keep_days} days")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
