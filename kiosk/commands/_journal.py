"""What the journal commands (export, import, matches, backup) share: ``--db`` and opening."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_db_argument(parser: argparse.ArgumentParser) -> None:
    from kiosk import paths
    parser.add_argument("--db", type=Path, metavar="PATH",
                        help=f"the journal file (default: {paths.default_db()})")


def db_path(args: argparse.Namespace) -> Path:
    from kiosk import paths
    return args.db if args.db is not None else paths.default_db()


def fail(command: str, message: str, status: int) -> int:
    """One line on stderr (status 2: bad input; 1: a fault)."""
    print(f"botifarra-kiosk {command}: {' '.join(str(message).split())}", file=sys.stderr)
    return status


def open_existing(path: Path):
    """Open a journal for reading: never moves a damaged file aside (the kiosk does that,
    and tells the people at the table); raises JournalError instead."""
    from kiosk.journal import Journal
    return Journal(path, recover=False)
