"""The table session on a real SQLite journal, without a window."""

from __future__ import annotations

import random

import pytest

from kiosk.game import DECK, BotifarraError, Suit
from kiosk.journal import Journal
from kiosk.settings import Settings
from kiosk.ui.viewmodels import CardPicker, PointsPad
from kiosk.table import DraftStore, TableSession, sheet_of
from kiosk.game import HandResult


@pytest.fixture
def db(tmp_path):
    return tmp_path / "journal.sqlite"


def make_vm(db, **settings):
    s = Settings()
    for k, v in settings.items():
        s.set(k, v)
    return TableSession(Journal(db), settings=s, drafts=DraftStore(db.with_name("draft.json")),
                          rng=random.Random(7))


def test_no_match_shows_the_scoreboard(db):
    vm = make_vm(db)
    assert not vm.state.has_match and vm.state.step == "scoreboard"
    assert vm.state.totals == {"A": 0, "B": 0} and sheet_of(vm.match) == []


def test_new_match_defaults_and_roles(db):
    vm = make_vm(db)
    vm.new_match(first_dealer=1)
    assert vm.state.team_names == {"A": "Nosaltres", "B": "Vosaltres"}
    assert vm.state.target == 101
    assert vm.state.roles == {"dealer": 1, "shuffler": 0, "cutter": 3, "first_lead": 2}
    assert vm.state.phase == "choose_trump" and vm.state.step == "scoreboard"
    assert set(vm.state.bids.trumps) == {"oros", "copes", "espases", "bastos", "botifarra"}
    assert vm.state.bids.can_delegate


def test_every_action_is_journaled_before_it_shows(db):
    vm = make_vm(db)
    vm.new_match()
    seen = []
    vm.subscribe(lambda state: seen.append(len(Journal(db).load(vm.state.match_id).events)))
    vm.choose_trump("oros")
    assert seen == [2] and vm.state.step == "bidding"
    vm.double("contro")
    assert vm.state.contract.multiplier == 2 and vm.state.bids.levels == ("recontro",)
    vm.start_play()
    assert vm.state.phase == "playing" and vm.state.step == "scoreboard"


def test_confirmation_breakdown_then_totals(db):
    vm = make_vm(db)
    vm.new_match()
    vm.choose_trump("botifarra")
    vm.begin_score("points")
    assert vm.state.step == "score_points" and vm.state.phase == "playing"
    vm.propose(HandResult.from_event({"type": "hand_scored", "points": {"A": 45}, "source": "points", "evidence": None}))
    assert vm.state.step == "confirm"
    a, b = vm.state.pending.breakdown
    assert (a.points, a.over, a.multiplier, a.scored) == (45, 9, 2, 18)
    assert (b.points, b.scored) == (27, 0)
    assert vm.state.totals == {"A": 0, "B": 0}  # nothing saved before confirm
    assert vm.confirm()
    assert vm.state.totals == {"A": 18, "B": 0}
    assert sheet_of(vm.match)[0].trump == "botifarra" and sheet_of(vm.match)[0].scored["A"] == 18
    assert vm.state.roles["dealer"] == 1 and vm.state.step == "scoreboard"


def test_card_pile_breakdown_counts_card_points_and_tricks(db):
    vm = make_vm(db)
    vm.new_match()
    vm.choose_trump("oros")
    vm.begin_score("cards")
    picker = CardPicker("B", [c.code for c in DECK if c.suit is Suit.OROS])  # 12 cards, 15 points
    assert (picker.card_points, picker.tricks, picker.points, picker.problem) == (15, 3, 18, None)
    vm.propose(picker.result())
    a, b = vm.state.pending.breakdown
    assert (b.card_points, b.tricks, b.points) == (15, 3, 18)
    assert (a.points, a.scored) == (54, 18)


def test_picker_checks_whole_tricks_and_no_card_twice():
    p = CardPicker("A", ["9O", "1O", "12O"], other=["3C"])
    assert "4 cards" in p.problem or "4" in p.problem
    assert not p.toggle("3C")  # in the other pile: cannot be picked
    p.toggle("2O")
    assert p.problem is None and p.points == 5 + 4 + 3 + 1


def test_points_pad():
    pad = PointsPad("B")
    for k in "73":
        pad.press(k)
    assert pad.value == 73 and pad.problem
    pad.press("back")
    pad.press("0")
    assert pad.value == 70 and pad.problem is None
    assert pad.result().points == {"B": 70}


def test_both_pairs_confirm(db):
    vm = make_vm(db, **{"match.both_confirm": True})
    vm.new_match()
    vm.choose_trump("copes")
    vm.begin_score("points")
    vm.propose(HandResult.from_event({"type": "hand_scored", "points": {"B": 50}, "source": "points", "evidence": None}))
    assert vm.state.needs_both
    assert not vm.confirm("A").saved and vm.state.totals == {"A": 0, "B": 0}
    assert vm.confirm("B") and vm.state.totals == {"A": 0, "B": 14}


def test_penalty_and_misdeal(db):
    vm = make_vm(db)
    vm.new_match()
    vm.choose_trump("espases")
    vm.double("contro")
    vm.start_play()
    vm.begin_action("penalty")
    assert vm.state.step == "penalty"
    vm.penalty("A")
    assert [b.scored for b in vm.state.pending.breakdown] == [0, 72]
    vm.confirm()
    assert vm.state.totals == {"A": 0, "B": 72} and sheet_of(vm.match)[0].kind == "penalty"
    dealer = vm.state.roles["dealer"]
    vm.misdeal()
    assert vm.state.step == "misdeal"
    vm.confirm()
    assert sheet_of(vm.match)[-1].kind == "misdeal" and vm.state.roles["dealer"] == (dealer + 1) % 4


def test_undo_and_edit_recompute(db):
    vm = make_vm(db)
    vm.new_match()
    vm.choose_trump("oros")
    vm.undo()
    assert vm.state.phase == "choose_trump"
    vm.choose_trump("bastos")
    vm.start_play()
    vm.propose(HandResult.from_event({"type": "hand_scored", "points": {"A": 50}, "source": "points", "evidence": None}))
    vm.confirm()
    assert vm.state.totals["A"] == 14
    data = vm.hand_data(0)
    assert data["trump"] == "bastos" and data["points"] == {"A": 50}
    vm.edit_hand(0, {**data, "points": {"A": 60}})
    assert vm.state.totals["A"] == 24


def test_restart_resumes_the_same_step(db):
    vm = make_vm(db)
    vm.new_match()
    vm.choose_trump("oros")
    vm.start_play()
    vm.begin_score("cards", team="B")
    vm.update_draft(cards=["9O", "1O"])
    again = make_vm(db)
    assert again.match_id == vm.state.match_id and again.state.step == "score_cards"
    assert again.state.draft.cards == ("9O", "1O") and again.state.draft.team == "B"
    # bidding half entered
    vm.cancel()
    vm.undo()
    assert make_vm(db).state.step == "bidding"


def test_a_draft_from_another_state_is_ignored(db):
    vm = make_vm(db)
    vm.new_match()
    vm.choose_trump("oros")
    vm.start_play()
    vm.begin_score("points")
    Journal(db).append(vm.state.match_id, {"type": "undo"})  # the match moved on elsewhere
    assert make_vm(db).state.step == "bidding"


def test_match_won_and_next_match_continues_dealing(db):
    vm = make_vm(db, **{"match.target": 51})
    vm.new_match(target=51)
    while not vm.match.is_over:
        vm.choose_trump("botifarra")
        vm.start_play()
        vm.propose(HandResult.from_event({"type": "hand_scored", "points": {"A": 72}, "source": "points", "evidence": None}))
        vm.confirm()
    assert vm.state.winner == "A" and vm.state.step == "match_won"
    next_dealer = vm.match.dealer
    vm.next_match()
    assert not vm.match.is_over and vm.state.roles["dealer"] == next_dealer


def test_illegal_bid_is_refused_with_the_core_error(db):
    vm = make_vm(db)
    vm.new_match()
    with pytest.raises(BotifarraError):
        vm.double("contro")
    vm.choose_trump("botifarra")
    vm.double("contro")
    vm.double("recontro")
    assert "sant_vicenc" not in vm.state.bids.levels
    with pytest.raises(BotifarraError):
        vm.double("sant_vicenc")


def test_suit_draw_picks_the_seat_of_the_suit(db):
    vm = make_vm(db)
    suit, seat = vm.draw_first_dealer()
    assert seat == [Suit.OROS, Suit.COPES, Suit.ESPASES, Suit.BASTOS].index(suit)


def test_what_is_typed_on_new_match_is_in_the_state_without_telling_anyone(db):
    """A language switch reads the form again from ``state.new_match``: what was typed so far
    must be there, yet a keystroke tells no listener (the form is not redrawn under it)."""
    from kiosk.table import NewMatchForm
    vm = make_vm(db)
    vm.open_new_match()
    told = []
    vm.subscribe(told.append)
    form = NewMatchForm(team_a="Cal Pep", players=("Anna", "", "Joan", ""), game="pairs")
    vm.fill_new_match(form)
    assert vm.state.new_match == form and told == []
    vm.fill_new_match(form)  # the same again: nothing changes
    assert vm.state.new_match == form and told == []
