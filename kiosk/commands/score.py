"""``botifarra-kiosk score FILE|-``: score a match given as JSON, print the result as JSON.

Bad input of any kind: exit 2, one line on stderr naming the hand and what is wrong,
nothing on stdout.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys

from kiosk.commands import InputUnreadable, fail, read_input


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
    # Scoring makes a few small objects per hand and no cycles: the cyclic collector would
    # only walk them again and again (a third of the time of a 100,000-hand match).
    # Reference counting still frees everything.
    collecting = gc.isenabled()
    gc.disable()
    try:
        result = score_match_json(loads(text))
    except BotifarraError as e:
        return _fail(str(e))
    finally:
        if collecting:
            gc.enable()
    sys.stdout.write(json.dumps(result, indent=args.indent, ensure_ascii=False) + "\n")
    return 0
