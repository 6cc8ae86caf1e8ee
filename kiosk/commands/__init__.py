"""One module per ``botifarra-kiosk`` subcommand (see kiosk.cli), and what they share.

Exit status: 0 success, 2 bad input, 1 a fault. A failure is ONE line on stderr that starts
with ``botifarra-kiosk COMMAND:`` and says what is wrong.
"""

from __future__ import annotations

import sys


class InputUnreadable(OSError):
    """A command's input file (or standard input) cannot be read."""


def one_line(message: object) -> str:
    """``message`` as one line a terminal shows as it is: whitespace runs become one space,
    control and format characters (ESC, NUL, bidi overrides) and lone surrogates become
    visible escapes."""
    text = " ".join(str(message).split())
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


def fail(command: str, message: object, status: int = 2) -> int:
    """Print the one-line message for ``command`` on stderr and return ``status``."""
    print(f"botifarra-kiosk {command}: {one_line(message)}", file=sys.stderr)
    return status


def read_input(name: str, limit: int) -> bytes:
    """The bytes of file ``name``, or of standard input for ``-``; at most ``limit`` bytes
    are read (one more tells the caller that the input is too big)."""
    try:
        if name == "-":
            return sys.stdin.buffer.read(limit + 1)
        with open(name, "rb") as f:
            return f.read(limit + 1)
    except OSError as exc:
        raise InputUnreadable(f"cannot read {name}: {exc.strerror or exc}") from exc
