"""``botifarra-kiosk hand check FILE...|-``: check played hands trick by trick.

Each FILE (``-``: standard input) holds one played hand as a JSON object (it may span
lines), a JSON array of them, or JSON lines: one hand per line, blank lines skipped. For each hand, in order,
one JSON line: ``{"winners": [...], "points": {"A": .., "B": ..}, "renunci": null | {...}}``
(docs/game-core.md, "Checking a played hand"). Bad input of any kind: exit 2, one line on
stderr naming the file, the line and what is wrong, nothing on stdout.
"""

from __future__ import annotations

import argparse
import json
import sys

from kiosk.commands import InputUnreadable, fail, read_input
from kiosk.commands._bulk import cycle_collector_paused


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    check = actions.add_parser("check", help="winners, points and the first renunci of played hands",
                               description="winners, points and the first renunci of played hands")
    check.add_argument("files", nargs="+", metavar="FILE|-",
                       help="a played hand as JSON, a JSON array of hands, or JSON lines of hands "
                            "(- reads standard input)")


class _BadHand(ValueError):
    """A hand that cannot be checked, said with its place (``FILE line N: ...``)."""


def _hands(name: str, text: bytes) -> list[tuple[str, object]]:
    """The hands of one file, each with its place for an error message."""
    from kiosk.game import BotifarraError
    from kiosk.game.matchinput import loads

    where = "standard input" if name == "-" else name
    try:
        data = loads(text)
        if isinstance(data, list):
            return [(f"{where} hand {number}", hand) for number, hand in enumerate(data, start=1)]
        return [(where, data)]
    except BotifarraError as whole:
        lines = text.split(b"\n")
        if sum(1 for line in lines if line.strip()) <= 1:
            raise _BadHand(f"{where}: {whole}") from None
    hands = []
    for number, line in enumerate(lines, start=1):
        if line.strip():
            try:
                hands.append((f"{where} line {number}", loads(line)))
            except BotifarraError as e:
                raise _BadHand(f"{where} line {number}: {e}") from None
    return hands


def run(args: argparse.Namespace) -> int:
    from kiosk.game import BotifarraError
    from kiosk.game.handcheck import check_hand, read_played_hand
    from kiosk.game.matchinput import MAX_BYTES

    out = []
    try:
        with cycle_collector_paused():
            for name in args.files:
                text = read_input(name, MAX_BYTES)
                if len(text) > MAX_BYTES:
                    raise _BadHand(f"{name}: more than {MAX_BYTES // 2**20} MB")
                for where, data in _hands(name, text):
                    try:
                        result = check_hand(read_played_hand(data))
                    except BotifarraError as e:
                        raise _BadHand(f"{where}: {e}") from None
                    out.append(json.dumps(result.to_json()))
    except (InputUnreadable, _BadHand) as e:
        return fail("hand check", e, 2)
    if out:
        sys.stdout.write("\n".join(out) + "\n")
    return 0
