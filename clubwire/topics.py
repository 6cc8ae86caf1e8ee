"""The MQTT topics of club mode. The table is its own topic level, so the broker's ACL
(``pattern write botifarra/table/%u/...``) confines each table's login to its own topics.

A table's login name IS its table name: that is what lets one ``pattern`` line cover
every table instead of a line per table.

- ``botifarra/table/<t>/events``  table -> organiser: one journal event (QoS 1)
- ``botifarra/table/<t>/confirm`` table -> organiser: the opponents confirmed a result
- ``botifarra/table/<t>/state``   table -> everyone, retained: score, hand k, minutes left
- ``botifarra/table/<t>/online``  table -> everyone, retained: "online" / "offline" (will)
- ``botifarra/table/<t>/ack``     organiser -> table: stored up to seq (QoS 1)
- ``botifarra/table/<t>/round``   organiser -> table, retained: pairing + end conditions
- ``botifarra/organiser/id``      organiser -> everyone, retained: its tournament file's id
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from clubwire.errors import BadBrokerURL, BadTableName

PREFIX = "botifarra/table"
ORGANISER_USER = "organiser"
ORGANISER_ID = "botifarra/organiser/id"
# A topic level may hold anything but the separators and wildcards; the name is also the
# table's broker login, so no surrounding spaces either.
_NAME = re.compile(r"^[^/+#\x00\s](?:[^/+#\x00]{0,62}[^/+#\x00\s])?$")

TABLE_TO_ORGANISER = ("events", "confirm", "state", "online")
ORGANISER_TO_TABLE = ("ack", "round")


def check_table(name: str) -> str:
    """``name`` if it can be a table's topic level and login; raises BadTableName."""
    if not isinstance(name, str) or not _NAME.match(name):
        raise BadTableName(f"table name {name!r}: 1-64 characters without '/', '+', '#' or "
                           "spaces at either end (it is a topic level and the table's broker login)")
    if name == ORGANISER_USER:
        raise BadTableName(f"table name {name!r} is the organiser's login")
    return name


def topic(table: str, leaf: str) -> str:
    return f"{PREFIX}/{check_table(table)}/{leaf}"


def subscription(leaf: str) -> str:
    """Every table's ``leaf`` topic (the organiser's subscriptions)."""
    return f"{PREFIX}/+/{leaf}"


def split(topic_name: str) -> tuple[str, str] | None:
    """``(table, leaf)`` of a club topic, or None for any other topic."""
    parts = topic_name.split("/")
    if len(parts) != 4 or "/".join(parts[:2]) != PREFIX or not _NAME.match(parts[2]):
        return None
    return parts[2], parts[3]


def parse_broker(url: str) -> tuple[str, int, bool]:
    """``mqtt://host[:1883]`` / ``mqtts://host[:8883]`` -> (host, port, tls)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise BadBrokerURL(f"broker {url!r}: {exc}") from None
    if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname or parts.path not in ("", "/"):
        raise BadBrokerURL(f"broker {url!r}: write mqtt://HOST[:PORT] or mqtts://HOST[:PORT]")
    tls = parts.scheme == "mqtts"
    return parts.hostname, port or (8883 if tls else 1883), tls
