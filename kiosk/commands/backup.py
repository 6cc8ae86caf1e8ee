"""``botifarra-kiosk backup DEST [--keep N] [--db PATH]``: a consistent copy of the journal.

Uses SQLite's backup API, so it is safe while the kiosk is writing. DEST is a file, or a
directory that receives ``journal-YYYYMMDD-HHMMSS.sqlite`` (UTC); with ``--keep N`` only the
newest N such files are kept there (for a nightly timer). Restore: see docs/journal.md.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from kiosk.commands import fail
from kiosk.commands._journal import add_db_argument, db_path, open_existing


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dest", type=Path, metavar="DEST", help="backup file or directory")
    parser.add_argument("--keep", type=int, metavar="N",
                        help="in a DEST directory, keep only the newest N backups")
    add_db_argument(parser)


def run(args: argparse.Namespace) -> int:
    from kiosk.journal import JournalError

    if args.keep is not None and args.keep < 1:
        return fail("backup", "--keep must be at least 1", 2)
    path = db_path(args)
    if not path.exists():
        return fail("backup", f"there is no journal at {path}", 2)
    into_dir = args.dest.is_dir() or str(args.dest).endswith("/")
    if args.keep is not None and not into_dir:
        return fail("backup", "--keep needs DEST to be a directory", 2)
    dest = (args.dest / time.strftime("journal-%Y%m%d-%H%M%S.sqlite", time.gmtime())
            if into_dir else args.dest)
    try:
        with open_existing(path) as journal:
            journal.backup(dest)
    except (JournalError, OSError) as exc:
        return fail("backup", str(exc), 1)
    print(dest)
    if args.keep is not None:
        old = sorted(args.dest.glob("journal-*.sqlite"))[:-args.keep]
        for f in old:
            f.unlink()
    return 0
