"""``botifarra-kiosk export [--match ID | --all] [--db PATH] [-o FILE]``

Writes matches as the match JSON of issue 2: ``--match ID`` writes ONE match object (what
``botifarra-kiosk score`` reads); ``--all`` (the default) writes ``{"matches": [...]}``,
oldest first. ``import`` reads both. Bids of a hand still being bid are not part of the
match JSON, so they are not exported.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kiosk.commands import fail
from kiosk.commands._bulk import cycle_collector_paused
from kiosk.commands._journal import add_db_argument, db_path, open_existing
from kiosk.files import write_whole


def add_arguments(parser: argparse.ArgumentParser) -> None:
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--match", type=int, metavar="ID", help="export this match only")
    which.add_argument("--all", action="store_true", help="export every match (the default)")
    parser.add_argument("-o", "--output", type=Path, metavar="FILE",
                        help="write to FILE (atomically) instead of standard output")
    add_db_argument(parser)


def run(args: argparse.Namespace) -> int:
    with cycle_collector_paused():
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    from kiosk.journal import JournalError, UnknownMatch, UnreadableMatch
    from kiosk.journal.exchange import dumps

    path = db_path(args)
    if not path.exists():
        if args.match is not None:
            return fail("export", f"no match {args.match}: there is no journal at {path}", 2)
        return _write(dumps({"matches": []}), args.output)
    status = 0
    try:
        with open_existing(path) as journal:
            if args.match is not None:
                try:
                    return _write(dumps(journal.export_match(args.match)), args.output)
                except UnknownMatch as exc:
                    return fail("export", str(exc), 2)
            exported = []
            for info in journal.matches():
                try:
                    exported.append(journal.export_match(info.id))
                except UnreadableMatch as exc:
                    status = fail("export", f"left out: {exc}", 1)
    except JournalError as exc:
        return fail("export", str(exc), 1)
    _write(dumps({"matches": exported}), args.output)
    return status


def _write(text: str, output: Path | None) -> int:
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return 0
    try:
        write_whole(output, text, sync_dir=True)
    except OSError as exc:
        return fail("export", f"cannot write {output}: {exc.strerror or exc}", 1)
    return 0
