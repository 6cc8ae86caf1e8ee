"""The quick paths of the fold give what the plain ones give: a match read from JSON (whole
hands, contracts made at once), folded from its events (running state), and applied one
event at a time (a frozen fold per event) are the same match, or fail with the same error.
Also the quick depth scan of match JSON text against the regex one."""

from __future__ import annotations

import json
import random
from functools import reduce

import pytest

from kiosk.game import DECK, PRESETS, BotifarraError, Match, match_from_json
from kiosk.game.bidding import Contract, bid_events, contract_for
from kiosk.game.handjson import hand_events
from kiosk.game.matchinput import _NOT_BRACKET, _STRING, _brackets, loads
from kiosk.game.rules import Doubling, Trump

CARDS = [c.code for c in DECK]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_contract_made_at_once_is_the_one_its_bids_make(preset):
    rules = PRESETS[preset]
    for dealer in range(4):
        for trump in Trump:
            for delegated in (False, True):
                for doubling in Doubling:
                    events = bid_events(dealer, trump, delegated=delegated, doubling=doubling)
                    made = contract_for(dealer, trump, rules, delegated=delegated, doubling=doubling)
                    try:
                        bid = reduce(lambda c, ev: c.bid(ev, rules), events, Contract(dealer))
                    except BotifarraError:
                        assert made is None  # refused by the rules: bid one by one to say why
                        continue
                    assert made == bid, (dealer, trump, delegated, doubling)


def _hand(r: random.Random) -> dict:
    trump = r.choice(["oros", "copes", "espases", "bastos", "botifarra"])
    hand: dict = {"trump": trump, "delegated": r.random() < 0.2,
                  "doubling": r.choice(["none"] * 12 + ["contro", "contro", "recontro", "sant_vicenc"])}
    k = r.random()
    if k < 0.08:
        return {"misdeal": True} if r.random() < 0.5 else {**hand, "misdeal": True}
    if k < 0.16:
        hand["penalty"] = r.choice("AB")
    elif k < 0.5:
        tricks = r.randint(0, 12)
        cards = CARDS[:]
        r.shuffle(cards)
        hand["piles"] = {"A": cards[:4 * tricks], "B": cards[4 * tricks:]}
        if r.random() < 0.005:
            hand["piles"]["A"] = hand["piles"]["A"][:-1] + ["13O"]  # a bad card
    else:
        hand["points"] = {r.choice("AB"): r.randint(0, 72)}
    return hand


def _match(r: random.Random) -> dict:
    hands = [_hand(r) for _ in range(r.randint(0, 20))]
    preset = r.choice(sorted(PRESETS))
    rules: dict = {"preset": preset}
    if r.random() < 0.8:  # most matches last all their hands
        rules.update({"max_hands": 20} if PRESETS[preset].max_hands else {},
                     **({"target": 201} if PRESETS[preset].target else {}), points_cap=None)
    data = {"rules": rules, "first_dealer": r.randint(0, 3), "hands": hands}
    if r.random() < 0.2:
        data["time_up_after"] = r.randint(0, len(hands))
    return data


def _events_of(data: dict) -> list[dict]:
    """The events of a match JSON without time_up_after, made hand by hand."""
    start = Match.create(data.get("rules"), first_dealer=data.get("first_dealer", 0))
    events = start.events
    for i, hand in enumerate(data["hands"]):
        events += hand_events(hand, (start.first_dealer + i) % 4)
    return events


def _one_event_at_a_time(events: list[dict]) -> Match:
    return reduce(Match.apply, events[1:], Match.from_events(events[:1]))


def _outcome(make):
    try:
        return make()
    except BotifarraError as exc:
        return f"{type(exc).__name__}: {exc} (hand {exc.hand})"


def test_the_three_ways_of_folding_agree():
    r = random.Random(12)
    folded = refused = 0
    for _ in range(400):
        data = _match(r)
        m = _outcome(lambda: match_from_json(data))
        if isinstance(m, str):
            refused += 1
            if "time_up_after" not in data:  # the same events, folded the plain ways
                events = _events_of(data)
                assert m == _outcome(lambda: Match.from_events(events)) \
                    == _outcome(lambda: _one_event_at_a_time(events))
            continue
        folded += 1
        events = m.events
        assert Match.from_events(events) == m == _one_event_at_a_time(events)
        assert Match.from_events(events).hands == m.hands == _one_event_at_a_time(events).hands
        assert m.to_json()["hands"] == match_from_json(m.to_json()).to_json()["hands"]
    assert folded > 150 and refused > 40  # both kinds were met


def test_a_refused_hand_fails_the_same_way_on_every_path():
    # girona: no Sant Vicenç on botifarra; the hand after the match is over; a bad card
    cases = [
        {"rules": {"preset": "girona"}, "hands": [{"trump": "oros", "points": {"A": 40}},
                                                  {"trump": "botifarra", "doubling": "sant_vicenc",
                                                   "points": {"A": 40}}]},
        {"rules": {"preset": "girona", "max_hands": 1},
         "hands": [{"trump": "oros", "points": {"A": 40}}, {"trump": "copes", "points": {"B": 40}}]},
        {"hands": [{"trump": "oros", "doubling": "contro", "piles": {"A": ["13O"]}}]},
    ]
    for data in cases:
        from_json = _outcome(lambda: match_from_json(data))
        events = _events_of(data)
        assert isinstance(from_json, str)
        assert from_json == _outcome(lambda: Match.from_events(events)) \
            == _outcome(lambda: _one_event_at_a_time(events))


@pytest.mark.parametrize("text", [
    '{"a": "[[[[", "b": [1, 2]}',            # brackets inside a string
    '{"a": "x\\"[[", "b": [[[]]]}',          # an escaped quote, then brackets in the string
    '{"a": "\\\\", "b": [[["]"]]]}',         # an escaped backslash ends the string
    '{"a": "\\u005b", "b": [{}]}',           # an escaped bracket
    '[' * 20 + ']' * 20, '"[[[[[[[[[[[[[[[[[[[["', '{"a": "unterminated [[[[',
    json.dumps({"hands": [{"piles": {"A": CARDS}}] * 3, "players": ["[Anna]", "{", "}", "]"]}),
])
def test_the_quick_depth_scan_finds_the_brackets_the_regexes_find(text):
    data = text.encode()
    assert _brackets(data) == _NOT_BRACKET.sub(b"", _STRING.sub(b"", data))


def test_deep_nesting_is_refused_and_brackets_in_names_are_not_nesting():
    from kiosk.game import MatchStateError
    with pytest.raises(MatchStateError, match="nested too deeply"):
        loads('{"hands": ' + "[" * 17 + "]" * 17 + "}")
    deep_text = json.dumps({"players": ["[" * 40, "{" * 40, None, None], "hands": []})
    assert loads(deep_text)["players"][0] == "[" * 40
