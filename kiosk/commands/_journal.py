"""What the journal commands (export, import, matches, backup) share: ``--db`` and opening."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_db_argument(parser: argparse.ArgumentParser) -> None:
    from kiosk import paths
    parser.add_argument("--db", type=Path, metavar="PATH",
                        help=f"the journal file (default: {paths.default_db()})")


def db_path(args: argparse.Namespace) -> Path:
    from kiosk import paths
    return args.db if args.db is not None else paths.default_db()


def open_existing(path: Path):
    """Open a journal for reading: never moves a damaged file aside (the kiosk does that,
    and tells the people at the table); raises JournalError instead. A journal that
    cannot be written now (full disk, read-only, another kiosk) is still read."""
    from kiosk.journal import Journal, SaveFailed
    try:
        return Journal(path, recover=False)
    except SaveFailed as exc:
        # a full disk, a read-only place, a busy or in-use journal: reading still works
        return Journal.standby(path, exc, exclusive=False)
