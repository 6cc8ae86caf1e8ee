"""``score`` and ``import`` with ``"variant"``: four each for himself, three, two. Real
processes: JSON in, per-seat JSON out; anything else exit 2 and one line on stderr."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.game import DECK, DECK_36

ROOT = Path(__file__).resolve().parents[2]
C48 = [c.code for c in DECK]
C36 = [c.code for c in DECK_36]


def kiosk(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "kiosk", *args], input=stdin,
                          capture_output=True, text=True, cwd=ROOT, timeout=60)


def score(data):
    return kiosk("score", "-", stdin=json.dumps(data))


THREE = {"variant": "three", "rules": {"target": 73}, "first_dealer": 1,
         "players": ["Anna", "Pere", "Marta"],
         "hands": [{"trump": "oros", "doubling": "contro", "piles": [C36[:12], C36[12:24], C36[24:]]},
                   {"trump": "botifarra", "points": [40, 20, 12]},
                   {"misdeal": True},
                   {"trump": "copes", "penalty": 2}]}


def test_three_players_per_seat_output():
    p = score(THREE)
    assert p.returncode == 0 and p.stderr == ""
    out = json.loads(p.stdout)
    # piles: oros 4 tricks 25 points + ... counted by the core; each adds up to 0
    assert [h["dealer"] for h in out["hands"]] == [1, 2, 0, 1]
    assert all(sum(h["scored"]) == 0 for h in out["hands"])
    assert out["hands"][1]["scored"] == [32, -8, -24] and out["hands"][1]["multiplier"] == 2
    assert out["hands"][2]["scored"] == [0, 0, 0] and out["hands"][2]["multiplier"] is None
    assert out["hands"][3]["scored"] == [12, 12, -24]  # the offender: -24 x 1, shared
    assert out["totals"] == out["hands"][-1]["totals"] and out["winner"] is None
    assert out["next_dealer"] == 2


def test_four_individual_to_the_target_and_two_pair_style():
    four = {"variant": "four_individual", "rules": {"target": 100},
            "hands": [{"trump": "espases", "doubling": "contro", "points": [60, 4, 4, 4]}] * 2}
    out = json.loads(score(four).stdout)
    assert out["totals"] == [168, -56, -56, -56] and out["winner"] == 0
    # "delegated": false, as the pair JSON writes it, is harmless
    assert score({**four, "hands": [{"trump": "oros", "delegated": False, "points": [18] * 4}]}).returncode == 0
    two = {"variant": "two", "players": ["Rector", "Vicari"],
           "hands": [{"trump": "oros", "doubling": "recontro", "piles": [C48[:26], C48[26:]]},
                     {"trump": "bastos", "points": [30, 42]}]}
    out = json.loads(score(two).stdout)
    assert [h["scored"] for h in out["hands"]][1] == [0, 6]
    assert out["hands"][0]["multiplier"] == 4 and sum(out["hands"][0]["points"]) == 72


BAD = [
    ({**THREE, "variant": "five"}, "unknown variant 'five'"),
    ({**THREE, "hands": [{"trump": "oros", "piles": [C36[:11] + ["2O"], C36[12:24], C36[24:]]}]},
     "hand 1: pile 1: 2O is not in this deck"),
    ({**THREE, "hands": [{"trump": "oros", "piles": [C48[:12], C48[12:24], C48[24:36]]}]},
     "is not in this deck"),
    ({**THREE, "hands": [{"trump": "oros", "points": [40, 20, 11]}]}, "hand 1: three players: the points add up to 71"),
    ({**THREE, "hands": [{"trump": "botifarra", "doubling": "contro", "points": [24, 24, 24]}]},
     "hand 1: contro is not allowed when trump is botifarra"),
    ({**THREE, "hands": [{"trump": "oros", "doubling": "recontro", "points": [24, 24, 24]}]},
     "hand 1: only contro is played, not recontro"),
    ({**THREE, "hands": [{"trump": "oros", "delegated": True, "points": [24, 24, 24]}]},
     "hand 1: there is no delegating in this game"),
    ({**THREE, "hands": [{"trump": "oros", "team": "A", "points": [24, 24, 24]}]},
     "hand 1: unknown field 'team'"),
    ({**THREE, "hands": [{"trump": "oros", "penalty": 3}]}, "hand 1: penalty: the offender must be a seat 0 to 2"),
    ({**THREE, "hands": [{"trump": "oros", "points": {"A": 40}}]}, "hand 1: points must be a list"),
    ({**THREE, "players": ["a", "b"]}, "players must be a list of 3 names"),
    ({**THREE, "team_names": {"A": "x", "B": "y"}}, "team_names: this game has no pairs"),
    ({**THREE, "first_dealer": 3}, "first_dealer must be a seat 0 to 2"),
    ({**THREE, "rules": {"renunci": "never"}}, "rules: renunci must be one of share, each"),
    ({"variant": "two", "hands": [{"trump": "oros", "piles": [C48[:25], C48[25:]]}]},
     "hand 1: pile 1 has 25 cards, which is not whole tricks (a multiple of 2)"),
    ({"variant": "two", "rules": {"two_trump": "turned"}, "hands": [{"trump": "botifarra", "points": [36, 36]}]},
     "hand 1: trump is the turned card"),
]


@pytest.mark.parametrize("data,message", BAD)
def test_bad_variant_input_exits_2_with_one_line(data, message):
    p = score(data)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.count("\n") == 1 and message in p.stderr, p.stderr


def test_import_export_and_score_agree(tmp_path):
    db = tmp_path / "journal.sqlite"
    f = tmp_path / "three.json"
    f.write_text(json.dumps(THREE), encoding="utf-8")
    p = kiosk("import", str(f), "--db", str(db))
    assert p.returncode == 0 and "Anna" in p.stdout and "(4 hands)" in p.stdout
    p = kiosk("export", "--match", "1", "--db", str(db))
    exported = json.loads(p.stdout)
    assert exported["variant"] == "three" and exported["players"] == THREE["players"]
    assert json.loads(score(exported).stdout) == json.loads(score(THREE).stdout)
    p = kiosk("matches", "--db", str(db))
    assert "Anna - Pere - Marta" in p.stdout
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**THREE, "players": ["a"]}), encoding="utf-8")
    p = kiosk("import", str(bad), "--db", str(tmp_path / "other.sqlite"))
    assert p.returncode == 2 and p.stderr.count("\n") == 1
    assert not (tmp_path / "other.sqlite").exists()
