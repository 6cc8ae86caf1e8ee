"""``botifarra-kiosk score FILE|-``: score a match given as JSON, print the result as JSON.

Bad input of any kind: exit 2, one line on stderr naming the hand and what is wrong,
nothing on stdout.
"""

from __future__ import annotations

import argparse
import json
import sys

from kiosk.commands import InputUnreadable, fail, read_input
from kiosk.commands._bulk import cycle_collector_paused


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE|-", help="the match JSON (- reads standard input)")
    parser.add_argument("--indent", type=int, default=None, metavar="N",
                        help="indent the output JSON by N spaces (default: one line)")


def _fail(message: object) -> int:
    return fail("score", message, 2)


def run(args: argparse.Namespace) -> int:
    from kiosk.game import BotifarraError, score_match_json
    from kiosk.game.matchinput import MAX_BYTES, loads

    try:
        text = read_input(args.file, MAX_BYTES)
    except InputUnreadable as e:
        return _fail(e)
    try:
        with cycle_collector_paused():
            result = score_match_json(loads(text))
    except BotifarraError as e:
        return _fail(str(e))
    sys.stdout.write(json.dumps(result, indent=args.indent, ensure_ascii=False) + "\n")
    return 0
