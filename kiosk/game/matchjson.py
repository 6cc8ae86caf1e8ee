"""The match JSON (issue 2): a whole match as plain data, and ``score_match_json``.

Input::

    {"rules": {"preset": "reglament", "target": 101},   # optional
     "first_dealer": 0, "players": ["Anna", "Pere", "Marta", "Joan"],
     "hands": [{"trump": "oros", "delegated": false, "doubling": "contro",
                "piles": {"A": ["9O", "1O", ...]}},
               {"trump": "botifarra", "points": {"B": 41}},
               {"trump": "copes", "doubling": "recontro", "penalty": "A"},
               {"misdeal": true}]}

A game other than the pair game says ``"variant": "four_individual" | "three" | "two"``;
its ``players`` has one name per seat (4, 3 or 2), it has no ``team_names`` and no
``delegated``, and each hand ends with ``"piles": [[seat 0's cards], [seat 1's], ...]``
(together the game's deck), ``"points": [p0, p1, ...]`` (together 72), ``"penalty": SEAT``
or ``"misdeal": true``. Its output has ``"totals": [one per seat]``, ``"winner": SEAT |
null`` and per hand ``"scored"`` and ``"totals"`` lists (``score_variant``).

Optional extras written by ``Match.to_json``: ``team_names``, per hand ``source`` and
``evidence``, ``time_up_after`` (hands played when time ran out), ``ended`` ("abandoned").
"""

from __future__ import annotations

from kiosk.game.handjson import HAND_KEYS, hand_events  # noqa: F401
from kiosk.game.match import Match
from kiosk.game.variantmatch import VariantMatch


def score_variant(m: VariantMatch) -> dict:
    """The ``score`` output of a game other than the pair game: one item per seat."""
    def listed(v: tuple | None) -> list | None:
        return None if v is None else list(v)

    return {
        "variant": m.variant,
        "hands": [{"dealer": h.dealer, "trump": h.trump.value if h.trump else None,
                   "doubling": h.doubling.key, "multiplier": h.multiplier,
                   "points": listed(h.points), "scored": list(h.scored),
                   "totals": list(h.totals)}
                  for h in m.hands],
        "totals": list(m.totals),
        "winner": m.winner,
        "next_dealer": m.dealer,
    }


def score_match_json(data: dict) -> dict:
    """Score a match given as JSON; the ``botifarra-kiosk score`` output."""
    def by_team(d: dict | None) -> dict | None:  # always A then B, as people read a sheet
        if d is None:
            return None
        if len(d) == 2:  # a hand's points, scores and totals name both pairs
            # mostly already A then B: then the record's own dict (``m`` ends here)
            return d if next(iter(d)) == "A" else {"A": d["A"], "B": d["B"]}
        return {t: d[t] for t in ("A", "B") if t in d}

    m = Match.from_json(data)
    if isinstance(m, VariantMatch):
        return score_variant(m)
    return {
        "hands": [{"dealer": h.dealer, "trump_team": h.trump_team, "multiplier": h.multiplier,
                   "points": by_team(h.points), "scored": by_team(h.scored),
                   "totals": by_team(h.totals)}
                  for h in m.hands],
        "totals": by_team(m.totals),
        "winner": m.winner,
        "next_dealer": m.dealer,
    }
