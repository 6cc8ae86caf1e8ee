"""The match JSON (issue 2): a whole match as plain data, and ``score_match_json``.

Input::

    {"rules": {"preset": "reglament", "target": 101},   # optional
     "first_dealer": 0, "players": ["Anna", "Pere", "Marta", "Joan"],
     "hands": [{"trump": "oros", "delegated": false, "doubling": "contro",
                "piles": {"A": ["9O", "1O", ...]}},
               {"trump": "botifarra", "points": {"B": 41}},
               {"trump": "copes", "doubling": "recontro", "penalty": "A"},
               {"misdeal": true}]}

Optional extras written by ``Match.to_json``: ``team_names``, per hand ``source`` and
``evidence``, ``time_up_after`` (hands played when time ran out), ``ended`` ("abandoned").
"""

from __future__ import annotations

from kiosk.game.bidding import bid_events
from kiosk.game.errors import HAND, BotifarraError, MatchStateError, RulesError
from kiosk.game.rules import Doubling, Trump

HAND_KEYS = {"trump", "delegated", "doubling", "piles", "points", "penalty", "misdeal",
             "source", "evidence", "dealer"}


_TRUMPS = {t.value: t for t in Trump}  # the common spelling, without Trump.parse's search


def _owned(value: object) -> object:
    """A copy of a hand's piles or points (one level of lists in a dict), else as given
    (the core refuses it with its own message)."""
    if isinstance(value, dict):
        return {k: list(v) if isinstance(v, list) else v for k, v in value.items()}
    return value


def _in_hand(err: BotifarraError, number: int) -> BotifarraError:
    """The same error said about hand ``number`` (``hand 3: ...``; ``err.hand`` == 3)."""
    return err if str(err).startswith(f"hand {number}") else err.within(HAND, number=number)


def hand_events(data: object, dealer: int) -> list[dict]:
    """The events one hand of the match JSON stands for (bids, play, then the result)."""
    if not isinstance(data, dict):
        raise MatchStateError(
            "a hand must be an object such as {{\"trump\": \"oros\", \"points\": {{\"A\": 45}}}}")
    unknown = sorted(set(data) - HAND_KEYS)
    if unknown:
        raise MatchStateError("unknown field {field!r} (use trump, delegated, doubling, "
                              "piles, points, penalty or misdeal)", field=unknown[0])
    if "dealer" in data and data["dealer"] != dealer:
        raise MatchStateError("the dealer is seat {dealer} (from first_dealer and the rotation), "
                              "not {value!r}", dealer=dealer, value=data["dealer"])
    misdeal = data.get("misdeal", False)
    if not isinstance(misdeal, bool):
        raise MatchStateError("misdeal must be true or false")
    results = [k for k in ("piles", "points", "penalty") if k in data]
    if misdeal and results:
        raise MatchStateError("a misdealt hand cannot also have {field}", field=results[0])
    if not misdeal and len(results) != 1:
        if not results:
            raise MatchStateError("say how the hand ended: piles, points, penalty or misdeal")
        raise MatchStateError("give only one of piles, points and penalty (got {fields})",
                              fields=" and ".join(results))
    delegated = data.get("delegated", False)
    if not isinstance(delegated, bool):
        raise MatchStateError("delegated must be true or false")
    events: list[dict] = []
    if "trump" in data and data["trump"] is not None:
        trump = _TRUMPS.get(data["trump"]) if isinstance(data["trump"], str) else None
        trump = trump or Trump.parse(data["trump"])
        doubling = Doubling.parse(data.get("doubling"))
        events = bid_events(dealer, trump, delegated=delegated, doubling=doubling)
    elif not misdeal:
        raise MatchStateError("trump is missing (oros, copes, espases, bastos or botifarra)")
    elif data.get("doubling") not in (None, "none") or delegated:
        raise MatchStateError("doubling or delegated given without trump")
    # copies of the caller's piles and points: the Match owns its events
    extra = {"source": data.get("source", "json"), "evidence": data.get("evidence")}
    if misdeal:
        events.append({"type": "misdeal", **extra})
    elif "penalty" in data:
        events.append({"type": "penalty", "offender": data["penalty"], **extra})
    elif "piles" in data:
        events.append({"type": "hand_scored", "piles": _owned(data["piles"]), **extra})
    else:
        events.append({"type": "hand_scored", "points": _owned(data["points"]), **extra})
    return events


def match_from_json(data: object):
    """A ``Match`` from the match JSON. Errors name the hand (``hand 3: ...``)."""
    from kiosk.game.match import Match
    from kiosk.game.matchinput import check_match

    check_match(data)
    rules = data.get("rules")
    try:
        m = Match.create(rules if rules is not None else {}, first_dealer=data.get("first_dealer", 0),
                         players=data.get("players"), team_names=data.get("team_names"))
    except RulesError as e:
        raise e
    hands = data.get("hands", [])
    if not isinstance(hands, list):
        raise MatchStateError("hands must be a list")
    time_up_after = data.get("time_up_after")
    if time_up_after is not None and (isinstance(time_up_after, bool) or not isinstance(time_up_after, int)
                                      or not 0 <= time_up_after <= len(hands)):
        raise MatchStateError("time_up_after must be a number of hands from 0 to {count}", count=len(hands))
    ended = data.get("ended")
    if ended is not None and not isinstance(ended, str):
        raise MatchStateError("ended must be a reason such as 'abandoned'")
    if time_up_after == 0:
        m = m.apply({"type": "time_up"})
    for i, hand in enumerate(hands):
        number = i + 1
        try:
            events = hand_events(hand, m.dealer)
        except BotifarraError as e:
            raise _in_hand(e, number) from None
        if time_up_after == number and not m.time_up:
            # time ran out during this hand: say so before its result, as the kiosk did
            m = m._extend(events[:-1])
            if m.contract is not None and m.contract.started:
                m = m._extend([{"type": "time_up"}])
            events = events[-1:]
        m = m._extend(events)  # names the hand in its errors, as apply does
        if time_up_after == number and not m.time_up:
            if m.is_over:
                raise MatchStateError("time_up_after: the match was already over after hand {number}",
                                      number=number)
            m = m.apply({"type": "time_up"})
    if ended:
        if m.is_over:
            raise MatchStateError("ended: the match was already over")
        m = m.apply({"type": "match_ended", "reason": ended})
    return m


def match_to_json(match) -> dict:
    """The match JSON of ``match`` (finished hands; bids of a hand in progress are not kept)."""
    fold = match._fold
    out = {"rules": match.rules.to_dict(), "first_dealer": match.first_dealer,
           "players": list(match.players), "team_names": dict(match.team_names),
           "hands": [e.to_json() for e in fold.entries]}
    if fold.stop_after is not None and fold.stop_after <= len(fold.entries):
        out["time_up_after"] = fold.stop_after
    if fold.abandoned:
        out["ended"] = next((e.get("reason", "abandoned") for e in reversed(match._done)
                             if e["type"] == "match_ended"), "abandoned")
    return out


def score_match_json(data: dict) -> dict:
    """Score a match given as JSON; the ``botifarra-kiosk score`` output."""
    from kiosk.game.match import Match

    def by_team(d: dict | None) -> dict | None:  # always A then B, as people read a sheet
        return None if d is None else {t: d[t] for t in ("A", "B") if t in d}

    m = Match.from_json(data)
    return {
        "hands": [{"dealer": h.dealer, "trump_team": h.trump_team, "multiplier": h.multiplier,
                   "points": by_team(h.points), "scored": by_team(h.scored),
                   "totals": by_team(h.totals)}
                  for h in m.hands],
        "totals": by_team(m.totals),
        "winner": m.winner,
        "next_dealer": m.dealer,
    }
