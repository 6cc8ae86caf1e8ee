"""``botifarra-kiosk`` command line.

Each subcommand lives in its own module under ``kiosk.commands`` and is imported only
when used, so ``botifarra-kiosk score`` never loads Kivy or OpenCV.

A command module provides ``add_arguments(parser)`` and ``run(args) -> int``.
Exit status: 0 success, 2 bad input (one line on stderr naming what is wrong), 1 fault.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import sys

from kiosk import __version__

# name -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "run": ("kiosk.commands.run", "start the kiosk (full screen touch UI)"),
    "score": ("kiosk.commands.score", "score a match given as JSON; print the result as JSON"),
    "export": ("kiosk.commands.export", "write matches from the journal as JSON"),
    "import": ("kiosk.commands.import_", "add a match (JSON) to the journal"),
    "matches": ("kiosk.commands.matches", "list the journal's matches"),
    "backup": ("kiosk.commands.backup", "copy the journal consistently (safe while the kiosk runs)"),
    "read": ("kiosk.commands.read", "read marked cards in photos"),
    "deck": ("kiosk.commands.deck", "learn, list, remove, export and import ordinary decks (no stickers)"),
    "kit": ("kiosk.commands.kit", "make the printable marked-deck kit (stickers, mat)"),
    "diag": ("kiosk.commands.diag", "print a diagnostics report for a bug report"),
    "club": ("kiosk.commands.club", "club mode: publish the journal to a tournament's organiser"),
    "hand": ("kiosk.commands.hand", "check played hands trick by trick: winners, points, renunci"),
    "seats": ("kiosk.commands.seats", "trick mode's set-up: learn where each seat plays (camera.seats)"),
}


class OneLineParser(argparse.ArgumentParser):
    """Usage errors as ONE line on stderr (exit 2), like every other refusal; ``--help``
    shows the usage."""

    def error(self, message: str):
        from kiosk.commands import one_line
        self.exit(2, f"{self.prog}: {one_line(message)} (see {self.prog} --help)\n")


@functools.cache  # built once per process and command: argparse's own words cost ~8 ms a build
def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    parser = OneLineParser(prog="botifarra-kiosk", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    for name, (module_name, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        if only is None or name == only:
            module = importlib.import_module(module_name)
            module.add_arguments(p)
            p.set_defaults(_module=module)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    command = next((a for a in argv if not a.startswith("-")), None)
    if command not in COMMANDS:
        command = None
    parser = build_parser(only=command)
    args = parser.parse_args(argv)
    if not getattr(args, "_module", None):
        parser.print_help()
        return 0 if command is None and not argv else 2
    return int(args._module.run(args) or 0)
