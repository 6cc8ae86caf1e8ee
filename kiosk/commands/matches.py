"""``botifarra-kiosk matches [--json] [--db PATH]``: the journal's matches, oldest first."""

from __future__ import annotations

import argparse
import json
from datetime import datetime

from kiosk.commands import fail
from kiosk.commands._journal import add_db_argument, db_path, open_existing


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true",
                        help="print a JSON list (id, dates, team names, players, totals, ...)")
    add_db_argument(parser)


def run(args: argparse.Namespace) -> int:
    from kiosk.journal import JournalError

    path = db_path(args)
    infos = []
    if path.exists():
        try:
            with open_existing(path) as journal:
                infos = journal.matches()
        except JournalError as exc:
            return fail("matches", str(exc), 1)
    if args.json:
        print(json.dumps([i.to_dict() for i in infos], ensure_ascii=False, indent=1))
        return 0
    if not infos:
        print(f"no matches in {path}")
        return 0
    print(table(infos))
    return 0


def _local(iso: str) -> str:
    try:
        return datetime.fromisoformat(iso.replace("Z", "+00:00")).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return iso


def _state(info) -> str:
    if info.error:
        return "unreadable"
    if not info.is_over:
        return "playing"
    if info.winner is not None:
        return f"won by {_team(info, info.winner)}"
    return {"abandoned": "abandoned", "time": "ended: time up", "hands": "ended: last hand"}.get(
        info.end_reason or "", "ended")


def _team(info, team: str | int) -> str:
    from kiosk.commands import one_line
    if isinstance(team, int):  # a seat: a game without pairs
        players = info.players or []
        name = players[team] if 0 <= team < len(players) else None
        return one_line(name or f"seat {team}")
    return one_line((info.team_names or {}).get(team) or team)  # no raw ESC or bidi codes


def _sides(info) -> tuple[str, str]:
    """The TEAMS and SCORE cells: two pairs, or every player of another game."""
    if isinstance(info.totals, list):
        return (" - ".join(_team(info, s) for s in range(len(info.totals))),
                "/".join(str(t) for t in info.totals))
    return (f"{_team(info, 'A')} - {_team(info, 'B')}",
            f"{info.totals.get('A', 0)}-{info.totals.get('B', 0)}")


def table(infos) -> str:
    rows = [("ID", "STARTED", "LAST", "TEAMS", "SCORE", "HANDS", "STATE")]
    for i in infos:
        rows.append((str(i.id), _local(i.created_at), _local(i.updated_at), *_sides(i),
                     str(i.hands), _state(i)))
    widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
    right = {0, 4, 5}
    return "\n".join("  ".join(cell.rjust(w) if c in right else cell.ljust(w)
                               for c, (cell, w) in enumerate(zip(r, widths))).rstrip()
                     for r in rows)
