"""``botifarra-kiosk score FILE|-``: score a match given as JSON, print the result as JSON.

Bad input of any kind: exit 2, one line on stderr naming the hand and what is wrong,
nothing on stdout.
"""

from __future__ import annotations

import argparse
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

    try:
        text = read_input(args.file)
    except InputUnreadable as e:
        return _fail(e)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        return _fail(f"invalid JSON: {e.msg} (line {e.lineno}, column {e.colno})")
    try:
        result = score_match_json(data)
    except BotifarraError as e:
        return _fail(str(e))
    except RecursionError:
        return _fail("the JSON is nested too deeply")
    sys.stdout.write(json.dumps(result, indent=args.indent, ensure_ascii=False) + "\n")
    return 0
