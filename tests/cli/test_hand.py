"""``botifarra-kiosk hand check``, run as a real process: one JSON line per hand; bad input
-> exit 2, one line on stderr, nothing on stdout."""

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from tests.game.handgen import Referee, deal_and_play

ROOT = Path(__file__).resolve().parents[2]


def hand_check(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "kiosk", "hand", "check", *args], input=stdin,
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


def expected(doc):
    rules = doc["rules"]
    return Referee(doc["trump"], rules["play_rule"], rules["three_second"]).judge(doc["tricks"], doc["first_lead"])


def test_one_hand_from_standard_input():
    doc = {"rules": {"preset": "girona"}, "trump": "oros", "first_lead": 1, "tricks": [["1O", "3O", "12O", "9O"]]}
    p = hand_check("-", stdin=json.dumps(doc))
    assert (p.returncode, p.stderr) == (0, "")
    assert p.stdout == '{"winners": [0], "points": {"A": 13, "B": 0}, "renunci": null}\n'


def test_files_of_json_lines_and_of_one_indented_object(tmp_path):
    rng = random.Random(23)
    drawn = [deal_and_play(rng, renunci=i % 2 == 0) for i in range(6)]
    lines = tmp_path / "hands.jsonl"
    lines.write_text("\n".join(json.dumps(d.doc) for d in drawn[:5]) + "\n\n", encoding="utf-8")
    one = tmp_path / "hand.json"
    one.write_text(json.dumps(drawn[5].doc, indent=2), encoding="utf-8")
    p = hand_check(str(lines), str(one))
    assert (p.returncode, p.stderr) == (0, "")
    out = [json.loads(line) for line in p.stdout.splitlines()]
    assert out == [expected(d.doc) for d in drawn]
    assert [o["renunci"] is not None for o in out] == [d.renunci is not None for d in drawn]
    assert any(o["renunci"] for o in out)


def test_a_json_array_of_hands():
    drawn = [deal_and_play(random.Random(seed), renunci=True) for seed in (4, 5)]
    p = hand_check("-", stdin=json.dumps([d.doc for d in drawn]))
    assert (p.returncode, p.stderr) == (0, "")
    assert [json.loads(line) for line in p.stdout.splitlines()] == [expected(d.doc) for d in drawn]
    bad = hand_check("-", stdin=json.dumps([drawn[0].doc, {"trump": "oros"}]))
    assert bad.returncode == 2 and "standard input hand 2: first_lead" in bad.stderr


@pytest.mark.parametrize("text,words", [
    ('{"trump": "oros", "first_lead": 0, "tricks": [["1O", "1O", "3O", "4O"]]}',
     "standard input: trick 1: 1O was already played in trick 1"),
    ('{"trump": "oros", "first_lead": 0, "tricks": [["1O", "2O", "3O", "14O"]]}',
     "standard input: trick 1: unknown card '14O'"),
    ('{"trump": "oros", "first_lead": 0, "tricks": [["1O", "2O"], ["3O"]]}',
     "standard input: trick 1: a trick has 4 cards, not 2"),
    ('{"first_lead": 0, "tricks": [["1O"]]}', "standard input: trump is missing"),
    ('{"rules": {"preset": "girona", "renunci": 1}, "trump": "oros", "first_lead": 0, "tricks": []}',
     "standard input: rules: unknown setting 'renunci'"),
    ('{"trump": "oros", "first_lead": 0, "tricks": [["1O"]]}\n{"trump": "oros", "tricks": [["1O"]]}\n',
     "standard input line 2: first_lead must be the seat 0-3"),
    ('{"trump": "oros", "first_lead": 0, "tricks": [["1O"]]}\n{"trump": \n', "standard input line 2: invalid JSON"),
    ("[1, 2", "standard input: invalid JSON"),
])
def test_bad_input_exits_2_with_one_line(text, words):
    p = hand_check("-", stdin=text)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.count("\n") == 1 and p.stderr.startswith("botifarra-kiosk hand check: ")
    assert words in p.stderr


def test_an_unreadable_file_exits_2(tmp_path):
    p = hand_check(str(tmp_path / "missing.json"))
    assert p.returncode == 2 and p.stdout == "" and "cannot read" in p.stderr


def test_a_bad_hand_after_good_ones_prints_nothing(tmp_path):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(deal_and_play(random.Random(1)).doc), encoding="utf-8")
    p = hand_check(str(good), "-", stdin='{"trump": "oros"}')
    assert p.returncode == 2 and p.stdout == "" and "first_lead" in p.stderr
