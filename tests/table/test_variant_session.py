"""The table session runs a game without pairs (issue 24): three players, four each for
himself, rector i vicari; one total per seat, the bidding each game allows, misdeal,
renunci, undo / redo and a restart in the middle."""

from __future__ import annotations

import pytest

from kiosk.game import BotifarraError
from kiosk.journal import Journal
from kiosk.table import DraftStore, TableMemory, TableSession
from kiosk.table.variants import created_event, games_for, piles_result, points_result


def open_session(db):
    return TableSession(Journal(db), drafts=DraftStore(db.with_name("draft.json")),
                        memory=TableMemory(db.with_name("table.json")))


def new(db, game, **rules):
    s = open_session(db)
    n = {"three": 3, "two": 2}.get(game, 4)
    s.new_match_from(created_event(game, players=["Anna", "Pere", "Marta", "Joan"][:n],
                                   preset="reglament", target=rules.get("target"), first_dealer=0))
    return s


def test_games_for_each_count():
    assert games_for(4) == ("pairs", "four_individual") and games_for(3) == ("three",)
    assert games_for(2) == ("two",) and games_for(5) == ()


def test_three_players_a_hand_by_points_with_a_contro(tmp_path):
    s = new(tmp_path / "j.sqlite", "three")
    st = s.state
    assert st.step == "variant_board" and st.game.seats == 3 and st.game.totals == (0, 0, 0)
    assert st.game.deck == 36 and st.phase == "choose_trump" and st.roles["dealer"] == 0
    assert not st.bids.can_delegate and "botifarra" in st.bids.trumps
    assert s.choose_trump("copes").saved
    assert s.state.bids.levels == ("contro",)  # only contro, by seat 1 or 2
    assert {b.seat for b in s.state.bids.events if b.kind == "double"} == {1, 2}
    assert s.double("contro", seat=2).saved and s.state.contract.multiplier == 2
    assert s.state.game.doubled_by == (2,) and s.state.bids.levels == ()
    s.begin_score("points")
    assert s.state.phase == "playing" and s.state.step == "variant_points"
    s.propose(points_result([40, 20, 12]))
    st = s.state
    assert st.step == "variant_confirm" and st.game.result.scored == (32, -8, -24)
    assert s.confirm().saved
    assert s.state.game.totals == (32, -8, -24) and s.state.step == "variant_board"
    assert s.state.game.rows[0].points == (40, 20, 12) and s.state.roles["dealer"] == 1
    with pytest.raises(BotifarraError):
        s.propose(points_result([40, 20, 13]))  # no trump yet, and they add up to 73


def test_botifarra_refuses_contro_and_the_points_must_add_up(tmp_path):
    s = new(tmp_path / "j.sqlite", "four_individual")
    s.choose_trump("botifarra")
    assert s.state.bids.levels == () and s.state.bids.can_play
    with pytest.raises(BotifarraError):
        s.double("contro")
    s.begin_score("points")
    with pytest.raises(BotifarraError):
        s.propose(points_result([18, 18, 18, 19]))
    s.propose(points_result([30, 18, 18, 6]))
    s.confirm()
    assert s.state.game.totals == (24, 0, 0, -24)  # botifarra: x2


def test_misdeal_penalty_undo_redo_and_restart(tmp_path):
    db = tmp_path / "j.sqlite"
    s = new(db, "three")
    s.misdeal()
    assert s.state.step == "variant_confirm" and s.state.game.result.kind == "misdeal"
    s.confirm()
    assert s.state.game.totals == (0, 0, 0) and s.state.roles["dealer"] == 1
    s.choose_trump("oros")
    s.begin_action("penalty")
    assert s.state.step == "variant_confirm" and s.state.game.result is None
    s.penalty(2)
    assert s.state.game.result.scored == (12, 12, -24)  # renunci "share": 24 shared
    s.confirm()
    assert s.state.game.totals == (12, 12, -24)
    assert s.undo_preview().scored == {0: 12, 1: 12, 2: -24}
    s.undo()
    assert s.state.game.totals == (0, 0, 0) and s.state.last_undone.kind == "hand"
    s.redo()
    assert s.state.game.totals == (12, 12, -24)
    # a restart while typing points: the same step, the same digits
    s.choose_trump("espases")
    s.begin_score("points")
    s.update_draft(seat_points=("30", "2"), seat=1)
    again = open_session(db)
    assert again.state.step == "variant_points" and again.state.game.key == "three"
    assert again.state.draft.seat_points == ("30", "2") and again.state.draft.seat == 1
    assert again.state.game.totals == (12, 12, -24)


def test_to_the_target_then_the_next_match(tmp_path):
    s = new(tmp_path / "j.sqlite", "four_individual", target=30)
    for trump in ("oros", "copes"):
        s.choose_trump(trump)
        s.begin_score("points")
        s.propose(points_result([8, 34, 20, 10]))
        s.confirm()
    st = s.state
    assert st.is_over and st.step == "variant_won" and st.game.winner == 1
    assert st.game.totals == (-20, 32, 4, -16) and st.game.end_reason == "target"
    s.next_match()
    assert s.state.game.totals == (0, 0, 0, 0) and s.state.roles["dealer"] == 2
    assert s.state.players == ("Anna", "Pere", "Marta", "Joan")


def test_rector_i_vicari_pair_style(tmp_path):
    s = new(tmp_path / "j.sqlite", "two")
    s.choose_trump("bastos")
    assert s.state.bids.levels == ("contro",)
    s.double("contro")
    s.double("recontro")
    s.begin_score("points")
    s.propose(points_result([50, 22]))
    s.confirm()
    assert s.state.game.totals == (14 * 4, 0)


def test_edit_a_past_hand_of_three_with_a_preview(tmp_path):
    """A past hand in the game's own JSON form (a hand read from piles: its points), the
    totals an edit would give (by seat), then the edit saved; an impossible one refused."""
    s = new(tmp_path / "j.sqlite", "three")
    s.choose_trump("copes")
    s.begin_score("cards")
    deck = [c.code for c in s.match.game.deck]
    s.propose(piles_result([deck[3:], deck[:3], []]))
    s.confirm()
    s.choose_trump("oros")
    s.begin_score("points")
    s.propose(points_result([24, 24, 24]))
    s.confirm()
    data = s.hand_data(0)
    assert data == {"trump": "copes", "doubling": "none", "points": list(s.match.hands[0].points)}
    assert s.hand_data(1) == {"trump": "oros", "doubling": "none", "points": [24, 24, 24]}
    edited = {"trump": "copes", "doubling": "contro", "points": [40, 20, 12]}
    assert s.edit_preview(0, edited) == {0: 32, 1: -8, 2: -24}
    assert s.match.totals == tuple(s.match.hands[0].totals)  # a preview writes nothing
    with pytest.raises(BotifarraError):
        s.edit_preview(0, {"trump": "botifarra", "doubling": "contro", "points": [40, 20, 12]})
    s.begin_action("edit_hand", hand=0)
    assert s.state.step == "variant_edit"
    assert s.edit_hand(0, edited).saved and s.state.game.totals == (32, -8, -24)
    assert s.state.step == "variant_board"
    s.edit_hand(1, {"trump": "oros", "penalty": 2})
    assert s.hand_data(1) == {"trump": "oros", "doubling": "none", "penalty": 2}
    s.edit_hand(1, {"misdeal": True})
    assert s.hand_data(1) == {"misdeal": True}
