"""``botifarra-kiosk read --deck NAME --tricks FRAME... --seats SEATS.json --first-lead S
--json`` on one trick filmed by the overhead camera, and its refusals of bad input."""

from __future__ import annotations

import json

import cv2
import pytest

from kiosk.cli import main
from kiosk.decks import deck_store
from tests.vision.test_tricks import one_trick, trick_deck
from vision.deck.model import DeckModel


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("BOTIFARRA_DATA_DIR", str(tmp_path / "data"))
    return tmp_path


@pytest.fixture
def table(data_dir):
    """The trick's frames as JPEG files, its seats' file and the deck learnt as "bar"."""
    seq, frames = one_trick()
    names = []
    for n, image in enumerate(frames):
        name = data_dir / f"f{n:04d}.jpg"
        cv2.imwrite(str(name), image)
        names.append(str(name))
    seats = data_dir / "seats.json"
    seats.write_text(json.dumps({str(s): list(p) for s, p in seq.seats_px.items()}))
    learnt = trick_deck()
    deck_store().save(DeckModel("bar", learnt.codes, learnt.whole, learnt.corners))
    return seq, names, str(seats)


def test_prints_each_card_with_its_trick_and_seat(table, capsys):
    seq, frames, seats = table
    lead = seq.plan.doc["first_lead"]
    assert main(["read", "--deck", "bar", "--tricks", *frames, "--seats", seats, "--first-lead", str(lead),
                 "--trump", seq.plan.doc["trump"], "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"plays": [[p.trick, p.seat, p.code] for p in seq.plan.plays], "uncertain": 0}


def test_without_the_trump_the_leader_is_the_first_card_down(table, capsys):
    seq, frames, seats = table
    lead = seq.plan.doc["first_lead"]
    assert main(["read", "--deck", "bar", "--tricks", *frames, "--seats", seats, "--first-lead", str(lead),
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["plays"] == [[p.trick, p.seat, p.code] for p in seq.plan.plays]


@pytest.mark.parametrize("seats_text, words", [
    ('{"0": [1, 2]}', "SEATS.json must be"),
    ("not json", "is not JSON"),
    ('{"0": [1, 2], "1": [3, 4], "2": [5, 6], "3": ["a", 8]}', "seat 3"),
])
def test_bad_seats_exit_2_with_one_line(table, capsys, data_dir, seats_text, words):
    _, frames, _ = table
    bad = data_dir / "bad.json"
    bad.write_text(seats_text)
    assert main(["read", "--deck", "bar", "--tricks", frames[0], "--seats", str(bad), "--first-lead", "0"]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


@pytest.mark.parametrize("extra, words", [
    (["--first-lead", "5"], "seat 0-3"),
    ([], "--first-lead"),
    (["--first-lead", "0", "--trump", "hearts"], "unknown trump"),
])
def test_bad_arguments_exit_2_with_one_line(table, capsys, extra, words):
    _, frames, seats = table
    assert main(["read", "--deck", "bar", "--tricks", frames[0], "--seats", seats, *extra]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_an_unknown_deck_or_an_unreadable_frame_exit_2(table, capsys, data_dir):
    _, frames, seats = table
    assert main(["read", "--deck", "nope", "--tricks", frames[0], "--seats", seats, "--first-lead", "0"]) == 2
    bad = data_dir / "bad.jpg"
    bad.write_bytes(b"not an image")
    assert main(["read", "--deck", "bar", "--tricks", str(bad), "--seats", seats, "--first-lead", "0"]) == 2
    assert capsys.readouterr().err.count("\n") == 2
