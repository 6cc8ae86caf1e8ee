"""Strict reading of match JSON text: the one validator ``score``, ``import`` and the
kiosk's import share. Standard library only, no I/O: it is given the bytes.

Checked BEFORE ``json.loads`` (so a hostile file costs no memory or recursion): the size
(:data:`MAX_BYTES`), valid UTF-8, the nesting depth (:data:`MAX_DEPTH`, by scanning the
bytes). While parsing: duplicate keys, NaN/Infinity, integers longer than
:data:`MAX_INT_DIGITS` digits (refused before ``int()`` converts them). After: unknown
keys, rules whose preset or target no preset offers, names (printable text, 1-40
characters: no control characters, no bidi overrides, no lone surrogates). Cards (ASCII
digits only) and piles (lists) are checked where every path meets them, in scoring.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

from kiosk.game.errors import MatchStateError, RulesError
from kiosk.game.rules import PRESETS, TARGETS

MAX_BYTES = 64 * 1024 * 1024  # 100,000 hands with both piles written out take about 25 MB
MAX_DEPTH = 16                # a match file nests 7 deep ({matches: [{hands: [{piles: {A: [
MAX_INT_DIGITS = 9            # no count, seat or score in a match comes near 10**9
NAME_MAX = 40
MATCH_KEYS = frozenset({"rules", "first_dealer", "players", "team_names", "hands",
                        "time_up_after", "ended", "variant"})
VARIANT_NAMES = ("four_individual", "three", "two")
FILE_KEYS = frozenset({"matches"})

_STRING = re.compile(rb'"(?:[^"\\]++|\\.)*+"', re.S)
_NOT_BRACKET = re.compile(rb"[^\[\]{}]++")
_DEPTH_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


_KEEP = b'[]{}"'
_DROP = bytes(b for b in range(256) if b not in _KEEP)


def _brackets(data: bytes) -> bytes:
    """The brackets of ``data`` outside its strings, in order."""
    if b'\\"' not in data and b"\\\\" not in data:
        # no escaped quote: every quote delimits a string. A file's strings seldom hold a
        # bracket: then each string is an empty pair of quotes here, all removed at C speed
        # (a string with a bracket leaves a lone quote, and the regexes below decide)
        quick = data.translate(None, _DROP).replace(b'""', b"")
        if b'"' not in quick:
            return quick
    return _NOT_BRACKET.sub(b"", _STRING.sub(b"", data))


def _too_deep(data: bytes) -> bool:
    brackets = _brackets(data)
    if len(brackets) <= MAX_DEPTH:
        return False
    # stops at the first bracket too deep: a file nested 100,000 deep is refused at once
    return any(depth > MAX_DEPTH for depth in accumulate(_DEPTH_STEP[b] for b in brackets))


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict:
    out = dict(pairs)
    if len(out) != len(pairs):  # rare: then find the first key given twice
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise MatchStateError("the key {key!r} is given twice in one object", key=key)
            seen.add(key)
    return out


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise MatchStateError("a number of {count} digits: no number in a match is that big",
                              count=len(text.lstrip("-")))
    return int(text)


def _float(text: str) -> float:
    if len(text) > 40:
        raise MatchStateError("a number of {count} characters: no number in a match is that long",
                              count=len(text))
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise MatchStateError("the number {text} is out of range", text=text[:20])
    return value


def _constant(name: str) -> Any:
    raise MatchStateError("{name} is not a number JSON allows", name=name)


def loads(text: bytes | str) -> Any:
    """Parse match JSON text strictly; raises ``MatchStateError`` (a ``BotifarraError``)
    with a one-line message."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else bytes(text)
    if len(data) > MAX_BYTES:
        raise MatchStateError("the file is {size} MB; a match file is at most {limit} MB",
                              size=len(data) // 2**20, limit=MAX_BYTES // 2**20)
    try:
        decoded = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MatchStateError("the file is not UTF-8 text (a bad byte at offset {offset})",
                              offset=exc.start) from None
    if _too_deep(data):
        raise MatchStateError("the JSON is nested too deeply (more than {limit} levels)", limit=MAX_DEPTH)
    try:
        return json.loads(decoded, object_pairs_hook=_no_duplicates, parse_int=_int,
                          parse_float=_float, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise MatchStateError("invalid JSON at line {line} column {column}: {error}",
                              line=exc.lineno, column=exc.colno, error=exc.msg) from None
    except RecursionError:  # pragma: no cover - the depth scan comes first
        raise MatchStateError("the JSON is nested too deeply (more than {limit} levels)", limit=MAX_DEPTH) from None


def check_name(value: object, what: str) -> None:
    """A name: printable text of 1-40 characters."""
    if not isinstance(value, str):
        raise RulesError("{what} must be text, not {value!r}", what=what, value=value)
    if not value.strip() or len(value) > NAME_MAX:
        raise RulesError("{what} must be 1 to {limit} characters, not {count}",
                         what=what, limit=NAME_MAX, count=len(value))
    if not all(c == " " or c.isprintable() for c in value):
        bad = next(c for c in value if not (c == " " or c.isprintable()))
        raise RulesError("{what} has the character {code}, which cannot be shown",
                         what=what, code=f"U+{ord(bad):04X}")


def check_match(data: object) -> dict:
    """The parts of one match object that the core does not check itself."""
    if not isinstance(data, dict):
        raise MatchStateError("the match must be a JSON object with a list of hands")
    unknown = sorted(set(data) - MATCH_KEYS)
    if unknown:
        raise MatchStateError("unknown field {field!r} (a match has {fields})", field=unknown[0],
                              fields=", ".join(sorted(MATCH_KEYS)))
    if "variant" in data and data["variant"] not in VARIANT_NAMES:
        value = data["variant"]
        raise RulesError("unknown variant {value!r}: say four_individual, three or two",
                         value=value if isinstance(value, (str, int, float, bool, type(None))) else "?")
    rules = data.get("rules")
    if isinstance(rules, str):
        rules = {"preset": rules}
    if rules is not None:
        if not isinstance(rules, dict):
            raise RulesError("rules must be an object such as {{\"preset\": \"reglament\"}}")
        preset = rules.get("preset", "reglament")
        if not isinstance(preset, str) or preset not in PRESETS:
            raise RulesError("unknown preset {name!r}: use one of {choices}", name=preset,
                             choices=", ".join(PRESETS))
        target = rules.get("target", PRESETS[preset].target)
        if target is not None and (isinstance(target, bool) or target not in TARGETS):
            raise RulesError("no preset plays to {value!r}: targets are {choices}", value=target,
                             choices=", ".join(map(str, TARGETS)))
    players = data.get("players")
    if isinstance(players, list):
        for seat, name in enumerate(players):
            if name is not None:
                check_name(name, f"player {seat}")
    names = data.get("team_names")
    if isinstance(names, dict):
        for team, name in names.items():
            check_name(name, f"team {team}")
    for key in ("ended",):
        if isinstance(data.get(key), str):
            check_name(data[key], key)
    return data


def match_envelope(data: dict) -> tuple[list, int | None, str | None]:
    """The parts of a checked match JSON that say how its hands are folded, checked against
    each other: ``(hands, time_up_after, ended)``. One reading for the pair game and the
    games without pairs."""
    hands = data.get("hands", [])
    if not isinstance(hands, list):
        raise MatchStateError("hands must be a list")
    time_up_after = data.get("time_up_after")
    if time_up_after is not None and (isinstance(time_up_after, bool)
                                      or not isinstance(time_up_after, int)
                                      or not 0 <= time_up_after <= len(hands)):
        raise MatchStateError("time_up_after must be a number of hands from 0 to {count}",
                              count=len(hands))
    ended = data.get("ended")
    if ended is not None and not isinstance(ended, str):
        raise MatchStateError("ended must be a reason such as 'abandoned'")
    return hands, time_up_after, ended


def matches_in(data: object) -> list[dict]:
    """The match objects of an import file: one match, ``{"matches": [...]}`` or a list."""
    if isinstance(data, dict) and not (set(data) & MATCH_KEYS) and set(data) <= FILE_KEYS:
        data = data.get("matches")
        if not isinstance(data, list):
            raise MatchStateError("'matches' must be a list of matches")
    if isinstance(data, list):
        for i, m in enumerate(data, 1):
            try:
                check_match(m)
            except (MatchStateError, RulesError) as exc:
                raise exc.within("match {number}", number=i) from None
        return data
    return [check_match(data)]
