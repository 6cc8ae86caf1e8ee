"""Matches in and out of the journal as the match JSON of issue 2.

A file holds either ONE match object (``{"rules": ..., "hands": [...]}``, what
``export --match ID`` writes and ``score`` reads) or ``{"matches": [match, ...]}`` (what
``export --all`` writes). A bare JSON list of matches is accepted too.
"""

from __future__ import annotations

import json
from typing import Any

from kiosk.journal.errors import InvalidEvent


def matches_in(data: Any) -> list[dict]:
    """The match objects in a parsed file (see the module doc)."""
    if isinstance(data, dict) and "matches" in data and "hands" not in data:
        data = data["matches"]
        if not isinstance(data, list):
            raise InvalidEvent("'matches' must be a list of matches")
    if isinstance(data, dict):
        return [data]
    if isinstance(data, list):
        for i, m in enumerate(data, 1):
            if not isinstance(m, dict):
                raise InvalidEvent(f"match {i}: a match is a JSON object with a list of hands")
        return data
    raise InvalidEvent("expected a match object or {\"matches\": [...]}")


def parse_matches(data: Any) -> list:
    """Validate every match in ``data`` (``Match.from_json``) before anything is written.

    Raises the core's ``BotifarraError`` (a ``ValueError``) naming the match when there are
    several (``match 2: hand 3: ...``), or :class:`InvalidEvent`.
    """
    from kiosk.game import BotifarraError, Match

    objects = matches_in(data)
    out = []
    for i, obj in enumerate(objects, 1):
        try:
            out.append(Match.from_json(obj))
        except BotifarraError as exc:
            if len(objects) == 1:
                raise
            raise type(exc)(f"match {i}: {exc}") from None
    return out


def read_matches(text: str) -> list:
    """Parse and validate a match file's text (see :func:`parse_matches`)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidEvent(f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise InvalidEvent("the JSON is nested too deeply") from None
    return parse_matches(data)


def dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"
