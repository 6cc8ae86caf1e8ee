"""Matches in and out of the journal as the match JSON of issue 2.

A file holds either ONE match object (``{"rules": ..., "hands": [...]}``, what
``export --match ID`` writes and ``score`` reads) or ``{"matches": [match, ...]}`` (what
``export --all`` writes). A bare JSON list of matches is accepted too.
"""

from __future__ import annotations

import json
from typing import Any


def matches_in(data: Any) -> list[dict]:
    """The match objects in a parsed file (see the module doc); unknown keys refused."""
    from kiosk.game.matchinput import matches_in as strict

    return strict(data)


def parse_matches(data: Any) -> list:
    """Validate every match in ``data`` (``match_from_json``) before anything is written.

    Raises the core's ``BotifarraError`` (a ``ValueError``) naming the match when there are
    several (``match 2: hand 3: ...``), or :class:`InvalidEvent`.
    """
    from kiosk.game import BotifarraError, match_from_json

    objects = matches_in(data)
    out = []
    for i, obj in enumerate(objects, 1):
        try:
            out.append(match_from_json(obj))
        except BotifarraError as exc:
            if len(objects) == 1:
                raise
            raise type(exc)(f"match {i}: {exc}") from None
    return out


def read_matches(text: bytes | str) -> list:
    """Parse and validate a match file (see :mod:`kiosk.game.matchinput` and
    :func:`parse_matches`): the one strict reading ``import`` and the kiosk's import share."""
    from kiosk.game.matchinput import loads

    return parse_matches(loads(text))


def dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"
