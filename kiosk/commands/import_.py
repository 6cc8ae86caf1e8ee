"""``botifarra-kiosk import FILE|- [--db PATH]``

Adds the match(es) in FILE (one match object, or ``{"matches": [...]}`` as ``export --all``
writes) to the journal in ONE transaction. Everything is checked first: bad input exits
with status 2, one line on stderr naming the match/hand and what is wrong, and nothing is
written (the journal file is not even created).
"""

from __future__ import annotations

import argparse
import sys

from kiosk.commands import InputUnreadable, fail, read_input
from kiosk.commands._bulk import cycle_collector_paused
from kiosk.commands._journal import add_db_argument, db_path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="a match JSON file, or - for standard input")
    add_db_argument(parser)


def run(args: argparse.Namespace) -> int:
    with cycle_collector_paused():
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    from kiosk.game import BotifarraError
    from kiosk.journal import InvalidEvent, Journal, JournalError
    from kiosk.game.matchinput import MAX_BYTES
    from kiosk.journal.exchange import read_matches

    try:
        text = read_input(args.file, MAX_BYTES)
    except InputUnreadable as exc:
        return fail("import", exc, 2)
    try:
        matches = read_matches(text)
    except (BotifarraError, InvalidEvent) as exc:
        return fail("import", f"{'standard input' if args.file == '-' else args.file}: {exc}", 2)
    if not matches:
        return fail("import", f"{args.file}: no matches in the file", 2)
    path = db_path(args)
    try:
        with Journal(path) as journal:
            if journal.moved_aside:
                print(journal.moved_aside.message("en"), file=sys.stderr)
            ids = journal.import_matches(matches)
    except JournalError as exc:
        return fail("import", str(exc), 1)
    for match_id, match in zip(ids, matches):
        totals = match.totals
        if isinstance(totals, dict):
            names = match.team_names
            score = f"{names['A']} {totals['A']} - {names['B']} {totals['B']}"
        else:  # a game without pairs: every player's total
            score = " - ".join(f"{name or f'seat {s}'} {t}"
                               for s, (name, t) in enumerate(zip(match.players, totals)))
        print(f"imported match {match_id}: {score} ({len(match.hands)} hands)")
    return 0
