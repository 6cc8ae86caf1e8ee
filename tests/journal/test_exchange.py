"""Export then import then score is identical (property test on generated matches)."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings

from kiosk.game import BotifarraError, match_from_json, score_match_json
from kiosk.journal import InvalidEvent, Journal
from kiosk.journal.exchange import matches_in, read_matches
from tests.journal.helpers import created, play_hand
from tests.journal.matchgen import matches


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=matches())
def test_import_then_export_then_score_is_identical(tmp_path_factory, data):
    db = tmp_path_factory.mktemp("x") / "journal.sqlite"
    with Journal(db) as j:
        [mid] = j.import_matches([data])
    with Journal(db) as j:  # reopened: the state comes from the file
        exported = j.export_match(mid)
        info = j.matches()[0]
    exported = json.loads(json.dumps(exported))  # as the file would carry it
    assert score_match_json(exported) == score_match_json(data)
    assert exported == match_from_json(data).to_json()
    expected = match_from_json(data)
    assert info.totals == expected.totals and info.winner == expected.winner
    assert info.is_over == expected.is_over and info.hands == len(expected.hands)
    # and a second round trip changes nothing
    with Journal(db) as j:
        [again] = j.import_matches([exported])
        assert j.export_match(again) == exported


def test_a_played_match_exports_what_was_played(db):
    with Journal(db) as j:
        mid = j.create_match(created())
        for points in (50, 20, 36, 60):
            state = play_hand(j, mid, points)
        exported = j.export_match(mid)
    assert score_match_json(exported)["totals"] == state.totals == {"A": 38, "B": 16}
    assert [h["points"] for h in exported["hands"]] == [{"A": p} for p in (50, 20, 36, 60)]


def test_import_is_all_or_nothing(db):
    good = {"hands": [{"trump": "oros", "points": {"A": 50}}]}
    bad = {"hands": [{"trump": "oros", "points": {"A": 50}}, {"trump": "copes", "points": {"A": 99}}]}
    with Journal(db) as j:
        j.create_match(created())
        with pytest.raises(BotifarraError, match="match 2: hand 2"):
            j.import_matches([good, bad])
        assert len(j.matches()) == 1
        assert j.import_matches([good, good]) == [2, 3]


def test_imported_matches_do_not_replace_the_match_being_played(db):
    with Journal(db) as j:
        here = j.create_match(created())
        j.import_matches([{"hands": [{"trump": "oros", "points": {"A": 50}}]}])
        assert j.current_match().match_id == here


@pytest.mark.parametrize("text, message", [
    ("{", "invalid JSON at line 1"),
    ("[1]", "match 1: the match must be a JSON object"),
    ('"hello"', "the match must be a JSON object"),
    ('{"matches": 3}', "'matches' must be a list"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
])
def test_files_that_are_not_match_json(text, message):
    from kiosk.game import BotifarraError
    with pytest.raises((InvalidEvent, BotifarraError), match=message):
        read_matches(text)


def test_the_file_shapes():
    one = {"hands": []}
    assert matches_in(one) == [one]
    assert matches_in({"matches": [one, one]}) == [one, one]
    assert matches_in([one]) == [one]
