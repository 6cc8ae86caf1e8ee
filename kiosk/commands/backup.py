"""``botifarra-kiosk backup [DEST] [--keep N] [--keep-days N] [--db PATH]``: a consistent copy
of the journal (kiosk.backup; SQLite's backup API, so it is safe while the kiosk writes).

DEST is a file, or a directory (an existing one, or written with a trailing ``/``) that
receives ``journal-YYYYmmdd-HHMMSS.sqlite`` (UTC); it defaults to ``DATA_DIR/backups``.
In a directory, ``--keep N`` keeps the newest N backups and ``--keep-days N`` those of the
last N days; the newest is always kept. The nightly ``botifarra-kiosk-backup.timer`` runs
``botifarra-kiosk backup --keep-days 14``; with no DEST and no journal yet there is nothing
to back up and that is not an error. A damaged journal is never moved aside here (exit 1).
Restore: see docs/journal.md.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from kiosk.commands import fail
from kiosk.commands._journal import add_db_argument, db_path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dest", nargs="?", metavar="DEST",
                        help="backup file or directory (default: DATA_DIR/backups/)")
    parser.add_argument("--keep", type=int, metavar="N",
                        help="in a DEST directory, keep only the newest N backups")
    parser.add_argument("--keep-days", type=int, metavar="N",
                        help="in a DEST directory, remove backups older than N days")
    add_db_argument(parser)


def run(args: argparse.Namespace) -> int:
    from kiosk import paths
    from kiosk.backup import BackupError, backup, prune

    for option, value in (("--keep", args.keep), ("--keep-days", args.keep_days)):
        if value is not None and value < 1:
            return fail("backup", f"{option} must be at least 1, not {value}", 2)
    path = db_path(args)
    if args.dest is None:
        dest, into_dir = paths.data_dir() / "backups", True
        if not path.exists():
            print(f"no journal at {path} yet; nothing to back up")
            return 0
    else:
        dest = Path(args.dest)
        into_dir = dest.is_dir() or args.dest.endswith(("/", "\\"))
        if not path.exists():
            return fail("backup", f"there is no journal at {path}", 2)
    pruning = args.keep is not None or args.keep_days is not None
    if pruning and not into_dir:
        return fail("backup", "--keep and --keep-days need DEST to be a directory", 2)
    try:
        made = backup(path, dest, into_dir=into_dir)
        removed = prune(dest, keep=args.keep, keep_days=args.keep_days) if pruning else []
    except (BackupError, OSError) as exc:
        return fail("backup", str(exc), 1)
    print(made)
    for old in removed:
        print(f"removed {old}")
    return 0
