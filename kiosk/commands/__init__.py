"""One module per ``botifarra-kiosk`` subcommand (see kiosk.cli), and what they share.

Exit status: 0 success, 2 bad input, 1 a fault. A failure is ONE line on stderr that starts
with ``botifarra-kiosk COMMAND:`` and says what is wrong.
"""

from __future__ import annotations

import sys


class InputUnreadable(OSError):
    """A command's input file (or standard input) cannot be read as UTF-8 text."""


def fail(command: str, message: object, status: int = 2) -> int:
    """Print the one-line message for ``command`` on stderr and return ``status``."""
    print(f"botifarra-kiosk {command}: {' '.join(str(message).split())}", file=sys.stderr)
    return status


def read_input(name: str) -> str:
    """The text of file ``name``, or of standard input for ``-``."""
    try:
        if name == "-":
            return sys.stdin.read()
        with open(name, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputUnreadable(f"cannot read {name}: {getattr(exc, 'strerror', None) or exc}") from exc
