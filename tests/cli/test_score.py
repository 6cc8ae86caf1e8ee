"""``botifarra-kiosk score``: JSON in, JSON out; bad input -> exit 2, one line on stderr."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.cli import main
from kiosk.game import DECK

ROOT = Path(__file__).resolve().parents[2]
CARDS = [c.code for c in DECK]

GOOD = {"rules": {"preset": "reglament", "target": 101}, "first_dealer": 0,
        "players": ["Anna", "Pere", "Marta", "Joan"],
        "hands": [{"trump": "oros", "delegated": False, "doubling": "contro", "piles": {"A": CARDS[:36]}},
                  {"trump": "botifarra", "points": {"B": 41}},
                  {"misdeal": True}]}


def run_cli(capsys, monkeypatch, tmp_path, data, *, raw=False, stdin=False):
    text = data if raw else json.dumps(data)
    if stdin:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8"))))
        rc = main(["score", "-"])
    else:
        f = tmp_path / "match.json"
        f.write_text(text, encoding="utf-8")
        rc = main(["score", str(f)])
    out, err = capsys.readouterr()
    return rc, out, err


def test_scores_a_file(capsys, monkeypatch, tmp_path):
    rc, out, err = run_cli(capsys, monkeypatch, tmp_path, GOOD)
    assert rc == 0 and err == ""
    result = json.loads(out)
    assert result["totals"] == {"A": 36, "B": 10}
    assert result["winner"] is None and result["next_dealer"] == 3
    assert result["hands"][0]["scored"] == {"A": 36, "B": 0}


def test_reads_standard_input(capsys, monkeypatch, tmp_path):
    rc, out, _ = run_cli(capsys, monkeypatch, tmp_path, GOOD, stdin=True)
    assert rc == 0 and json.loads(out)["totals"] == {"A": 36, "B": 10}


BAD = [
    ("{\"hands\": [", "invalid JSON"),
    ({"hands": [{"trump": "oros", "piles": {"A": ["13O"] + CARDS[:3]}}]}, "hand 1: pile A: unknown card '13O'"),
    ({"hands": [{"trump": "oros", "points": {"A": 40}}, {"trump": "oros", "piles": {"A": CARDS[:6]}}]},
     "hand 2: pile A has 6 cards, which is not whole tricks"),
    ({"hands": [{"trump": "oros", "piles": {"A": ["9O", "9O"] + CARDS[1:3]}}]}, "hand 1: pile A: 9O is there twice"),
    ({"hands": [{"trump": "oros", "piles": {"A": CARDS[:8], "B": CARDS[4:]}}]}, "hand 1: 10O is in both piles"),
    ({"hands": [{"trump": "oros", "piles": {"A": CARDS[:8], "B": CARDS[12:]}}]}, "hand 1: the two piles do not make the whole deck"),
    ({"hands": [{"trump": "oros", "points": {"B": 73}}]}, "hand 1: points of team B are 73, over the 72"),
    ({"hands": [{"trump": "botifarra", "doubling": "sant_vicenc", "points": {"A": 40}}]},
     "hand 1: Sant Vicenç is not allowed when trump is botifarra (preset reglament)"),
    ({"hands": [{"trump": "oros", "doubling": "contro", "points": {"A": 72}}] * 2
      + [{"trump": "oros", "points": {"A": 40}}]}, "hand 3: the match is over"),
    ({"rules": {"preset": "poker"}, "hands": []}, "unknown preset 'poker'"),
    ([1, 2], "the match must be a JSON object"),
]


@pytest.mark.parametrize("data,message", BAD)
def test_bad_input_exits_2_with_one_line(capsys, monkeypatch, tmp_path, data, message):
    rc, out, err = run_cli(capsys, monkeypatch, tmp_path, data, raw=isinstance(data, str))
    assert rc == 2
    assert out == ""
    assert err.count("\n") == 1 and err.endswith("\n")
    assert message in err, err


def test_missing_file(capsys):
    assert main(["score", "/nonexistent/match.json"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "cannot read /nonexistent/match.json" in err and err.count("\n") == 1


def test_real_process_through_the_console_entry():
    bad = {"hands": [{"trump": "botifarra", "doubling": "sant_vicenc", "points": {"A": 40}}]}
    p = subprocess.run([sys.executable, "-m", "kiosk", "score", "-"], input=json.dumps(bad),
                       capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.strip().endswith("hand 1: Sant Vicenç is not allowed when trump is botifarra (preset reglament)")
    p = subprocess.run([sys.executable, "-m", "kiosk", "score", "-"], input=json.dumps(GOOD),
                       capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert p.returncode == 0 and json.loads(p.stdout)["totals"] == {"A": 36, "B": 10}
