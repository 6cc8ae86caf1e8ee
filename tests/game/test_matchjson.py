"""The match JSON of issue 2 and score_match_json."""

import pytest

from kiosk.game import DECK, BotifarraError, Match, match_from_json, score_match_json

EXAMPLE = {
    "rules": {"preset": "reglament", "target": 201},
    "first_dealer": 0,
    "players": ["Anna", "Pere", "Marta", "Joan"],
    "hands": [
        {"trump": "oros", "delegated": False, "doubling": "contro",
         "piles": {"A": [c.code for c in DECK[:36]]}},   # 3 suits: 45 card points + 9 tricks = 54
        {"trump": "botifarra", "points": {"B": 41}},
        {"trump": "copes", "doubling": "recontro", "penalty": "A"},
        {"misdeal": True},
    ],
}


def test_score_output_form():
    out = score_match_json(EXAMPLE)
    assert set(out) == {"hands", "totals", "winner", "next_dealer"}
    h = out["hands"]
    assert h[0] == {"dealer": 0, "trump_team": "A", "multiplier": 2, "points": {"A": 54, "B": 18},
                    "scored": {"A": 36, "B": 0}, "totals": {"A": 36, "B": 0}}
    assert h[1] == {"dealer": 1, "trump_team": "B", "multiplier": 2, "points": {"A": 31, "B": 41},
                    "scored": {"A": 0, "B": 10}, "totals": {"A": 36, "B": 10}}
    assert h[2]["scored"] == {"A": 0, "B": 144} and h[2]["points"] is None and h[2]["multiplier"] == 4
    assert h[3] == {"dealer": 3, "trump_team": None, "multiplier": None, "points": None,
                    "scored": {"A": 0, "B": 0}, "totals": {"A": 36, "B": 154}}
    assert out["totals"] == {"A": 36, "B": 154} and out["winner"] is None and out["next_dealer"] == 0


def test_defaults():
    out = score_match_json({"hands": [{"trump": "espases", "points": {"A": 45}}]})
    assert out["hands"][0]["scored"] == {"A": 9, "B": 0} and out["next_dealer"] == 1


def test_delegated_hand_still_belongs_to_the_dealers_team():
    out = score_match_json({"first_dealer": 1, "hands": [
        {"trump": "bastos", "delegated": True, "points": {"B": 50}}]})
    assert out["hands"][0]["trump_team"] == "B"


def test_to_json_then_from_json_is_identical():
    m = match_from_json(EXAMPLE)
    again = match_from_json(m.to_json())
    assert again.hands == m.hands and again.totals == m.totals
    assert score_match_json(m.to_json()) == score_match_json(EXAMPLE)


def test_time_up_and_ended_survive_json():
    m = Match.create("butinet")
    m = m.apply({"type": "trump", "seat": 0, "trump": "oros"}).apply({"type": "play"})
    m = m.apply({"type": "hand_scored", "points": {"A": 50}}).apply({"type": "time_up"})
    again = match_from_json(m.to_json())
    assert again.is_over and again.end_reason == "time" and again.winner == "A"
    m = Match.create().apply({"type": "match_ended", "reason": "abandoned"})
    assert match_from_json(m.to_json()).end_reason == "abandoned"


def pile_a(n_cards=36):
    return [c.code for c in DECK[:n_cards]]


@pytest.mark.parametrize("hands,message", [
    ([{"trump": "oros", "piles": {"A": ["13O"] + pile_a(3)}}], "hand 1: pile A: unknown card '13O'"),
    ([{"trump": "oros", "points": {"A": 40}},
      {"trump": "oros", "piles": {"A": pile_a(5)}}], "hand 2: pile A has 5 cards, which is not whole tricks"),
    ([{"trump": "oros", "piles": {"A": ["9O", "9O", "1O", "12O"]}}], "hand 1: pile A: 9O is there twice"),
    ([{"trump": "oros", "piles": {"A": pile_a(8), "B": pile_a(48)[4:]}}], "hand 1: 10O is in both piles"),
    ([{"trump": "oros", "piles": {"A": pile_a(8), "B": pile_a(48)[12:]}}], "hand 1: the two piles do not make the whole deck"),
    ([{"trump": "oros", "points": {"A": 80}}], "hand 1: points of team A are 80, over the 72 of a hand"),
    ([{"trump": "botifarra", "doubling": "sant_vicenc", "points": {"A": 40}}],
     "hand 1: Sant Vicenç is not allowed when trump is botifarra (preset reglament)"),
    ([{"trump": "oros", "points": {"A": 72}}] * 4, "hand 4: the match is over"),
    ([{"points": {"A": 40}}], "hand 1: trump is missing"),
    ([{"trump": "oros"}], "hand 1: say how the hand ended"),
    ([{"trump": "oros", "points": {"A": 40}, "penalty": "B"}], "hand 1: give only one"),
    ([{"trump": "oros", "doubling": "double", "points": {"A": 40}}], "hand 1: unknown doubling"),
    ([{"trump": "oros", "dobling": "contro", "points": {"A": 40}}], "hand 1: unknown field 'dobling'"),
    ([{"trump": "oros", "penalty": "C"}], "hand 1: penalty: the offender must be team"),
    (["oros"], "hand 1: a hand must be an object"),
])
def test_bad_input_names_the_hand_and_what_is_wrong(hands, message):
    with pytest.raises(BotifarraError) as e:
        score_match_json({"hands": hands})
    assert str(e.value).startswith(message), str(e.value)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("data,words", [
    ([], "must be a JSON object"),
    ({"hands": {}}, "hands must be a list"),
    ({"rules": {"preset": "nope"}, "hands": []}, "unknown preset"),
    ({"first_dealer": 4, "hands": []}, "first_dealer"),
])
def test_bad_match_level_input(data, words):
    with pytest.raises(BotifarraError, match=words):
        score_match_json(data)


def test_no_import_circle_between_the_match_and_its_json():
    """match.py folds; matchjson.py reads and writes whole matches above it; the JSON of a
    hand sits below both (handjson.py) and imports neither."""
    import ast
    from pathlib import Path

    import kiosk.game as game

    def imported(name: str) -> set[str]:
        tree = ast.parse((Path(game.__file__).parent / f"{name}.py").read_text())
        return {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}

    assert "kiosk.game.matchjson" not in imported("match")
    assert not {"kiosk.game.match", "kiosk.game.matchjson"} & imported("handjson")
    assert not {"kiosk.game.match", "kiosk.game.matchjson"} & imported("tally")
