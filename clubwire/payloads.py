"""The typed payloads club mode carries, and their JSON (UTF-8) on the wire.

Each class has ``to_bytes()`` and ``from_bytes(table, payload)``; the table always comes
from the topic (the ACL vouches for it), never from the payload alone, so a table cannot
speak for another one even by writing another name into its JSON.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

from clubwire.errors import BadMessage


def _load(payload: bytes | str) -> dict:
    try:
        data = json.loads(payload)
    except (ValueError, UnicodeDecodeError) as exc:
        raise BadMessage(f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise BadMessage("a club message is a JSON object")
    return data


def _int(data: dict, key: str, *, minimum: int = 0, optional: bool = False) -> int | None:
    value = data.get(key)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise BadMessage(f"{key!r} must be a whole number >= {minimum}, not {value!r}")
    return value


def _dump(obj) -> bytes:
    return json.dumps(asdict(obj), ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()


@dataclass(frozen=True)
class EventMessage:
    """One journal event of one match at one table. ``seq`` is the event's place in the
    match (1 = match_created): (table, match, seq) is what makes a resend idempotent.
    ``round`` is the tournament round the table was playing when the match began."""

    table: str
    match: int
    seq: int
    event: dict
    round: int | None = None

    def to_bytes(self) -> bytes:
        return _dump(self)

    @classmethod
    def from_bytes(cls, table: str, payload: bytes | str) -> "EventMessage":
        data = _load(payload)
        event = data.get("event")
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise BadMessage("'event' must be a journal event (an object with a 'type')")
        return cls(table=table, match=_int(data, "match", minimum=1), seq=_int(data, "seq", minimum=1),
                   event=event, round=_int(data, "round", minimum=1, optional=True))


@dataclass(frozen=True)
class Ack:
    """The organiser stored every event of ``match`` up to and including ``upto`` (a
    cumulative ack: a gap stops it, so the table resends from the first missing seq)."""

    table: str
    match: int
    upto: int
    confirmed: bool = False  # the opponents' confirmation of the result is stored too
    organiser: str = ""      # which tournament file stored it (the organiser's id)

    def to_bytes(self) -> bytes:
        return _dump(self)

    @classmethod
    def from_bytes(cls, table: str, payload: bytes | str) -> "Ack":
        data = _load(payload)
        return cls(table=table, match=_int(data, "match", minimum=1), upto=_int(data, "upto"),
                   confirmed=bool(data.get("confirmed", False)), organiser=str(data.get("organiser") or ""))


@dataclass(frozen=True)
class Confirmation:
    """The opponents tapped to confirm the match's final result at the table."""

    table: str
    match: int
    by: str       # the team that confirmed ("A" or "B")
    upto: int     # the result confirmed is the fold of events 1..upto

    def to_bytes(self) -> bytes:
        return _dump(self)

    @classmethod
    def from_bytes(cls, table: str, payload: bytes | str) -> "Confirmation":
        data = _load(payload)
        if data.get("by") not in ("A", "B"):
            raise BadMessage("'by' must be 'A' or 'B'")
        return cls(table=table, match=_int(data, "match", minimum=1), by=data["by"],
                   upto=_int(data, "upto", minimum=1))


@dataclass(frozen=True)
class TableReport:
    """What a table shows now (retained, for the organiser's overview)."""

    table: str
    match: int | None
    totals: dict = field(default_factory=lambda: {"A": 0, "B": 0})
    hands: int = 0                  # hands recorded, misdeals included
    hand: int = 1                   # the hand being played now (k of N)
    max_hands: int | None = None
    minutes_left: float | None = None
    over: bool = False
    winner: str | None = None
    round: int | None = None

    def to_bytes(self) -> bytes:
        return _dump(self)

    @classmethod
    def from_bytes(cls, table: str, payload: bytes | str) -> "TableReport":
        data = _load(payload)
        totals = data.get("totals") or {}
        if not isinstance(totals, dict):
            raise BadMessage("'totals' must be an object")
        minutes = data.get("minutes_left")
        return cls(table=table, match=_int(data, "match", minimum=1, optional=True),
                   totals={"A": int(totals.get("A", 0)), "B": int(totals.get("B", 0))},
                   hands=_int(data, "hands"), hand=_int(data, "hand"),
                   max_hands=_int(data, "max_hands", minimum=1, optional=True),
                   minutes_left=float(minutes) if isinstance(minutes, (int, float)) else None,
                   over=bool(data.get("over")), winner=data.get("winner") if data.get("winner") in ("A", "B") else None,
                   round=_int(data, "round", minimum=1, optional=True))


@dataclass(frozen=True)
class EndConditions:
    """When a round's match ends: ``target`` points, ``max_hands`` hands or
    ``time_limit_min`` minutes, whichever comes first; at most ``points_cap`` count."""

    target: int | None = 101
    max_hands: int | None = 12
    time_limit_min: int | None = 60
    points_cap: int | None = 121

    def rules_overrides(self) -> dict:
        """The fields of ``kiosk.game.Rules`` these conditions set."""
        return asdict(self)


@dataclass(frozen=True)
class RoundAssignment:
    """The organiser's order for one table: which pairs play it in which round, and how
    the match ends. Retained on the table's ``round`` topic."""

    table: str
    round: int
    pair_a: int
    pair_b: int
    name_a: str
    name_b: str
    conditions: EndConditions
    started_at: float          # seconds since the epoch (the round's clock starts here)
    preset: str = "reglament"

    def to_bytes(self) -> bytes:
        return _dump(self)

    @classmethod
    def from_bytes(cls, table: str, payload: bytes | str) -> "RoundAssignment":
        data = _load(payload)
        cond = data.get("conditions")
        if not isinstance(cond, dict):
            raise BadMessage("'conditions' must be an object")
        started = data.get("started_at")
        if isinstance(started, bool) or not isinstance(started, (int, float)):
            raise BadMessage("'started_at' must be a time in seconds")
        try:
            conditions = EndConditions(**{k: cond.get(k) for k in ("target", "max_hands",
                                                                  "time_limit_min", "points_cap")})
        except TypeError as exc:
            raise BadMessage(f"'conditions': {exc}") from None
        return cls(table=table, round=_int(data, "round", minimum=1), pair_a=_int(data, "pair_a", minimum=1),
                   pair_b=_int(data, "pair_b", minimum=1), name_a=str(data.get("name_a") or ""),
                   name_b=str(data.get("name_b") or ""), conditions=conditions,
                   started_at=float(started), preset=str(data.get("preset") or "reglament"))
