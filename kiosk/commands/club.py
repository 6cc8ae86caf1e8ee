"""``botifarra-kiosk club publish --broker URL --table NAME --db PATH [--until-acked]``

Sends the journal's events the tournament organiser has not acknowledged yet (the same
publisher the kiosk runs in-process when the ``[club]`` settings are filled in). Without
``--until-acked`` it sends, waits ``--timeout`` seconds (10) for the acks and reports what
is still pending; with it, it exits 0 only once everything is acknowledged (status 1 if
``--timeout`` runs out first). A bad broker URL, table name or journal: status 2, one line.
The password comes from ``--password``, ``$BOTIFARRA_CLUB_PASSWORD`` or the settings.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from kiosk.commands import fail


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="club_command", metavar="ACTION", required=True)
    p = sub.add_parser("publish", help="send the journal's unacknowledged events to the organiser")
    p.add_argument("--broker", help="mqtt://HOST[:PORT] or mqtts://HOST[:PORT] (default: [club] broker)")
    p.add_argument("--table", help="this table's name = its broker login (default: [club] table)")
    p.add_argument("--db", type=Path, metavar="PATH", help="the journal (default: the kiosk's)")
    p.add_argument("--user", help="broker user (default: [club] user, else the table name)")
    p.add_argument("--password", help="broker password (default: $BOTIFARRA_CLUB_PASSWORD, [club] password)")
    p.add_argument("--ca-file", type=Path, metavar="PEM",
                   help="the CA certificate that signed the broker's, for mqtts:// (default: the system's)")
    p.add_argument("--until-acked", action="store_true", help="exit 0 only once everything is acknowledged")
    p.add_argument("--timeout", type=float, default=None, metavar="S",
                   help="give up after S seconds (default: 10, or never with --until-acked)")


def run(args: argparse.Namespace) -> int:
    from kiosk import paths
    from kiosk.club import ClubError
    from kiosk.settings import Settings

    settings = Settings.load()
    broker = args.broker or settings["club.broker"]
    table = args.table or settings["club.table"]
    if not broker:
        return fail("club", "no broker: give --broker mqtt://HOST:PORT or set [club] broker", 2)
    if not table:
        return fail("club", "no table: give --table NAME or set [club] table", 2)
    password = args.password or os.environ.get("BOTIFARRA_CLUB_PASSWORD") or settings["club.password"] or None
    db = args.db if args.db is not None else paths.default_db()
    if args.ca_file is not None and not args.ca_file.is_file():
        return fail("club", f"no CA certificate at {args.ca_file}", 2)
    if not db.is_file():
        return fail("club", f"no journal at {db}", 2)
    try:
        from kiosk.journal import Journal, JournalError
        with Journal(db, recover=False):
            pass
    except JournalError as exc:
        return fail("club", exc, 2)
    from kiosk.club.publisher import Publisher
    try:
        publisher = Publisher(db, table, broker, user=args.user or settings["club.user"] or None,
                              password=password, ca_file=str(args.ca_file) if args.ca_file else None)
    except ClubError as exc:
        return fail("club", exc, 2)
    timeout = args.timeout if args.timeout is not None else (None if args.until_acked else 10.0)
    publisher.start()
    try:
        return _wait(publisher, timeout, until_acked=args.until_acked)
    finally:
        publisher.stop()


def _wait(publisher, timeout: float | None, *, until_acked: bool) -> int:
    deadline = None if timeout is None else time.monotonic() + timeout
    started = time.monotonic()
    said_waiting = False
    while True:
        status = publisher.status()
        if status.error:
            return fail("club", status.error, 2)
        if publisher.wait_acked(timeout=0.5):
            print("club publish: every event is acknowledged by the organiser")
            return 0
        if deadline is not None and time.monotonic() >= deadline:
            status = publisher.status()
            state = "connected" if status.connected else "not connected to the broker"
            count = f"{status.pending} events" if status.pending >= 0 else "events"
            print(f"club publish: {count} not acknowledged yet ({state})", file=sys.stderr)
            return 1 if until_acked or not status.connected else 0
        if not status.connected and not said_waiting and time.monotonic() - started > 3:
            print("club publish: waiting for the broker...", file=sys.stderr)
            said_waiting = True
