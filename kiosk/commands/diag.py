"""``botifarra-kiosk diag [--db PATH] [--json]``: one report to paste into a bug report.

The probes live in :mod:`kiosk.diagnostics.probes` (the settings screen reads them too);
this command only parses, collects and prints.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from kiosk.commands import fail
from kiosk.diagnostics.probes import (SECTIONS, collect, render, section_journal,  # noqa: F401
                                      section_lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", type=Path, default=None,
                        help="journal file to check (default: the kiosk's journal)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")


def run(args: argparse.Namespace) -> int:
    if args.db is not None and not Path(args.db).is_file():
        return fail("diag", f"--db {args.db}: no such file", 2)
    report = collect(args.db)
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False, default=str))
    else:
        sys.stdout.write(render(report))
    return 0
