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

A match writes its own JSON (``Match.to_json``, ``VariantMatch.to_json``); this module reads
it back (``match_from_json``): checked strictly first, then folded hand by hand.
"""

from __future__ import annotations

from typing import Iterator

from kiosk.game.bidding import Contract
from kiosk.game.errors import BotifarraError, MatchStateError
from kiosk.game.handjson import HAND_KEYS, hand_events, read_hand  # noqa: F401
from kiosk.game.match import Match
from kiosk.game.matchinput import check_match, match_envelope
from kiosk.game.rules import Rules
from kiosk.game.tally import _in_hand
from kiosk.game.variantmatch import VariantMatch


def match_from_json(data: object) -> Match | VariantMatch:
    """A match from the match JSON (checked strictly first: kiosk.game.matchinput).
    Errors name the hand (``hand 3: ...``). With a ``variant``: a ``VariantMatch``."""
    check_match(data)
    assert isinstance(data, dict)
    if "variant" in data:  # four each for himself, three, two
        return VariantMatch.from_json(data)
    rules = data.get("rules")
    m = Match.create(rules if rules is not None else {}, first_dealer=data.get("first_dealer", 0),
                     players=data.get("players"), team_names=data.get("team_names"))
    hands, time_up_after, ended = match_envelope(data)
    if time_up_after == 0:
        m = m.apply({"type": "time_up"})
    # the hands are folded in one go, except the one during which time ran out
    cut = time_up_after or len(hands) + 1
    m = m.extend_hands(_hands(hands[:cut - 1], 1, m.first_dealer, m.rules))
    if cut <= len(hands):
        try:
            events = hand_events(hands[cut - 1], m.dealer)
        except BotifarraError as e:
            raise _in_hand(e, cut) from None
        # time ran out during this hand: say so before its result, as the kiosk did
        m = m.extend(events[:-1])
        if m.contract is not None and m.contract.started:
            m = m.extend([{"type": "time_up"}])
        m = m.extend(events[-1:])
        if not m.time_up:
            if m.is_over:
                raise MatchStateError("time_up_after: the match was already over after "
                                      "hand {number}", number=cut)
            m = m.apply({"type": "time_up"})
        m = m.extend_hands(_hands(hands[cut:], cut + 1, m.first_dealer, m.rules))
    if ended:
        if m.is_over:
            raise MatchStateError("ended: the match was already over")
        m = m.apply({"type": "match_ended", "reason": ended})
    return m


def _hands(hands: list, first: int, first_dealer: int,
           rules: Rules) -> Iterator[tuple[list[dict], Contract | None]]:
    """Consecutive hands of the match JSON as events and contracts (``read_hand``), the
    first of them hand number ``first``; read one at a time as the fold takes them, so that
    an error is the one of the earliest bad hand, named (``hand 3: ...``)."""
    for number, hand in enumerate(hands, start=first):
        try:
            yield read_hand(hand, (first_dealer + number - 1) % 4, rules)
        except BotifarraError as e:
            raise _in_hand(e, number) from None


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

    m = match_from_json(data)
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
