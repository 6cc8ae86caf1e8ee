"""A match remembers its game: every game resumes, undoes, redoes, edits, exports and
imports through the same journal (the game lives in match_created; no schema change)."""
from __future__ import annotations

import json
import sqlite3

from kiosk.game import match_from_json, score_match_json
from kiosk.game.variantmatch import VariantMatch
from kiosk.journal import Journal
from tests.journal.helpers import created, play_hand
from tests.journal.test_migrations import make_v1


def three_created(**rules) -> dict:
    return {"type": "match_created", "variant": "three", "rules": {"preset": "reglament", **rules},
            "first_dealer": 0, "players": ["Anna", "Pere", "Marta"]}


def play(j: Journal, mid: int, points: list[int], contro: int | None = None):
    m = j.load(mid)
    j.append(mid, {"type": "trump", "seat": m.dealer, "trump": "oros"})
    if contro is not None:
        j.append(mid, {"type": "double", "seat": contro, "level": "contro"})
    return j.append(mid, {"type": "hand_scored", "points": points, "source": "points"})


def test_a_three_player_match_resumes_mid_bidding_with_undo_and_edit(db):
    with Journal(db) as j:
        mid = j.create_match(three_created(target=73))
        play(j, mid, [40, 20, 12], contro=2)
        j.append(mid, {"type": "misdeal"})
        j.append(mid, {"type": "undo"})
        j.append(mid, {"type": "redo"})
        j.append(mid, {"type": "edit", "hand": 0, "data": {"trump": "oros", "doubling": "contro",
                                                           "points": [36, 24, 12]}})
        j.append(mid, {"type": "trump", "seat": 2, "trump": "copes"})
        before = j.load(mid)
    assert before.totals == (24, 0, -24) and before.phase == "doubling"
    with Journal(db) as j:  # a restart: the state is the fold of what is on disk
        current = j.current_match()
        assert current.match_id == mid and isinstance(current.match, VariantMatch)
        assert current.match == before and current.match.dealer == 2
        info = j.matches()[0]
        assert (info.variant, info.totals, info.players, info.team_names) == (
            "three", [24, 0, -24], ["Anna", "Pere", "Marta"], None)
        state = j.append(mid, {"type": "double", "seat": 0, "level": "contro"})
        assert state.legal_bids() == [{"type": "play"}]


def test_every_game_exports_and_imports_to_the_same_scores(db):
    games = [{"variant": "four_individual", "players": ["a", "b", "c", "d"],
              "hands": [{"trump": "oros", "points": [30, 12, 15, 15]}, {"misdeal": True},
                        {"trump": "copes", "penalty": 3}]},
             {"variant": "two", "rules": {"two_layout": "four_piles"},
              "hands": [{"trump": "bastos", "doubling": "contro", "points": [50, 22]}]}]
    with Journal(db) as j:
        ids = j.import_matches(games)
    with Journal(db) as j:
        for mid, data in zip(ids, games):
            exported = json.loads(json.dumps(j.export_match(mid)))
            assert exported["variant"] == data["variant"]
            assert score_match_json(exported) == score_match_json(data)
            info = j.matches()[mid - 1]
            assert info.variant == data["variant"] and info.totals == list(match_from_json(data).totals)
        [again] = j.import_matches([j.export_match(ids[1])])
        assert j.export_match(again)["rules"]["two_layout"] == "four_piles"


def test_pair_matches_keep_their_summary_and_events(db):
    with Journal(db) as j:
        mid = j.create_match(created())
        play_hand(j, mid, 50)
        info = j.matches()[0]
        assert "variant" not in j.events(mid)[0]
    assert (info.variant, info.totals, info.winner) == ("pairs", {"A": 14, "B": 0}, None)
    summary = json.loads(sqlite3.connect(db).execute("SELECT summary FROM matches").fetchone()[0])
    assert "variant" not in summary  # a pair match's row is what it was before games


def test_a_migrated_version_1_journal_takes_a_three_player_match(db):
    make_v1(db)
    with Journal(db) as j:
        mid = j.create_match(three_created())
        state = play(j, mid, [30, 30, 12])
        assert state.totals == (6, 6, -12) and j.current_match().match_id == mid
        assert [i.variant for i in j.matches()] == ["pairs", "pairs", "three"]
