"""``botifarra-club``: the tournament organiser's app.

``botifarra-club serve --broker URL --db PATH --http HOST:PORT`` connects to the broker as
``organiser`` (password: ``--password`` or ``$BOTIFARRA_CLUB_PASSWORD``), keeps the
tournament in the SQLite file PATH and serves the live page and the API on HOST:PORT.
Exit status: 0 stopped, 2 bad input (one line on stderr), 1 a fault.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path


def _fail(message: object, status: int = 2) -> int:
    print(f"botifarra-club: {' '.join(str(message).split())}", file=sys.stderr)
    return status


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="botifarra-club", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    p = sub.add_parser("serve", help="run the organiser's app (broker link + web page + API)")
    p.add_argument("--broker", required=True, help="mqtt://HOST[:PORT] or mqtts://HOST[:PORT]")
    p.add_argument("--db", required=True, type=Path, help="the tournament's SQLite file (created if missing)")
    p.add_argument("--http", default="0.0.0.0:8080", metavar="HOST:PORT", help="where to serve (0.0.0.0:8080)")
    p.add_argument("--user", default="organiser", help="broker user (organiser)")
    p.add_argument("--password", help="broker password (default: $BOTIFARRA_CLUB_PASSWORD)")
    p.add_argument("--ca-file", help="CA certificate for mqtts://")
    p.add_argument("--scoring", choices=("wins", "league"),
                   help="standings: wins (1, ½, 0) or league (3/1/0 per meeting); kept in the file (default: wins)")
    p.add_argument("--title", default="Botifarra", help="the tournament's name on the page and the PDF")
    p.add_argument("--admin-token", help="require this token for changes (POST); default: "
                                         "$BOTIFARRA_CLUB_ADMIN_TOKEN, else none (keep the port on the bar's LAN)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from clubwire import ClubError, topics
    try:
        topics.parse_broker(args.broker)
    except ClubError as exc:
        return _fail(exc)
    host, _, port = args.http.rpartition(":")
    if not host or not port.isdigit():
        return _fail(f"--http {args.http!r}: write HOST:PORT, e.g. 0.0.0.0:8080")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    import uvicorn

    from organiser.link import BrokerLink
    from organiser.store import Store
    from organiser.tournament import Tournament
    from organiser.web import create_app

    try:
        store = Store(args.db)
    except Exception as exc:  # sqlite3.Error, OSError: a path we cannot use
        return _fail(f"--db {args.db}: {exc}")
    tournament = Tournament(store, scoring=args.scoring)
    link = BrokerLink(tournament, args.broker, user=args.user, ca_file=args.ca_file,
                      password=args.password or os.environ.get("BOTIFARRA_CLUB_PASSWORD"))
    link.start()
    try:
        app = create_app(tournament, title=args.title,
                         admin_token=args.admin_token or os.environ.get("BOTIFARRA_CLUB_ADMIN_TOKEN") or None)
        uvicorn.run(app, host=host, port=int(port),
                    log_level="warning", timeout_graceful_shutdown=2)
    finally:
        link.stop()
        store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
