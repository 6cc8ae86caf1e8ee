"""The tournament time limit in the match view-model: a fake clock shared by the journal
(which stamps the events) and the view-model (which reads the time left)."""

from __future__ import annotations

import pytest

from kiosk.game import BotifarraError
from kiosk.journal import Journal
from kiosk.settings import Settings

from kiosk.table import DraftStore, TableSession
from kiosk.game import HandResult

T0 = 1_790_000_000.0  # a whole second: the journal stamps events to the second


class FakeClock:
    def __init__(self, now: float = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return FakeClock()


def make_vm(db, clock):
    return TableSession(Journal(db, clock=clock), settings=Settings(),
                          drafts=DraftStore(db.with_name("draft.json")), clock=clock)


def play_hand(vm, points_a=40):
    vm.choose_trump(vm.state.bids.trumps[0])
    vm.begin_score("points")
    vm.propose(HandResult.from_event({"type": "hand_scored", "points": {vm.state.contract.trump_team: points_a}}))
    assert vm.confirm()


def test_no_limit_no_clock(tmp_path, clock):
    vm = make_vm(tmp_path / "j.sqlite", clock)
    vm.new_match()  # reglament: to 101, no time limit
    clock.now += 10 * 3600
    assert vm.tournament.time_limit_min is None and vm.tournament.time_left is None
    assert not vm.check_time() and not vm.tournament.time_up


def test_the_clock_counts_down_and_time_up_is_journalled(tmp_path, clock):
    db = tmp_path / "j.sqlite"
    vm = make_vm(db, clock)
    vm.new_match(preset="butinet")
    assert vm.tournament.time_limit_min == 60 and vm.tournament.time_left == 3600
    play_hand(vm)
    clock.now += 3599
    assert vm.tournament.time_left == 1 and not vm.check_time() and not vm.tournament.time_up
    vm.choose_trump(vm.state.bids.trumps[0])  # a hand in progress: it becomes the last one
    clock.now += 1
    assert vm.tournament.time_left == 0
    assert vm.check_time() and vm.tournament.time_up and not vm.tournament.can_call_time
    assert [e["type"] for e in Journal(db).events(vm.state.match_id)][-1] == "time_up"
    assert not vm.check_time()  # only once
    vm.begin_score("points")
    vm.propose(HandResult.from_event({"type": "hand_scored", "points": {vm.state.contract.trump_team: 40}}))
    assert vm.confirm() and vm.match.is_over and vm.state.step == "match_won"
    assert vm.tournament.time_left is None and not vm.tournament.time_up


def test_the_start_time_comes_from_the_journal_after_a_restart(tmp_path, clock):
    db = tmp_path / "j.sqlite"
    vm = make_vm(db, clock)
    vm.new_match(preset="torrefarrera")  # 55 minutes
    vm.journal.close()
    clock.now += 20 * 60  # a power cut of 20 minutes: the time kept running
    vm = make_vm(db, clock)
    assert vm.state.has_match and vm.tournament.time_left == 35 * 60


def test_time_running_out_while_scoring_keeps_the_hand_being_scored(tmp_path, clock):
    vm = make_vm(tmp_path / "j.sqlite", clock)
    vm.new_match(preset="butinet")
    vm.choose_trump(vm.state.bids.trumps[0])
    vm.begin_score("points")
    team = vm.state.contract.trump_team
    vm.propose(HandResult.from_event({"type": "hand_scored", "points": {team: 50}}))
    clock.now += 3600
    assert vm.check_time()
    assert vm.state.step == "confirm" and vm.state.pending.result.points == {team: 50}
    assert vm.confirm() and vm.match.is_over


def test_the_organiser_calls_time_and_an_undone_call_is_not_repeated(tmp_path, clock):
    vm = make_vm(tmp_path / "j.sqlite", clock)
    vm.new_match(preset="butinet")
    play_hand(vm)
    vm.choose_trump(vm.state.bids.trumps[0])
    vm.call_time()  # by hand, before the limit: the hand being bid is the last
    assert vm.tournament.time_up and vm.tournament.time_left > 0
    with pytest.raises(BotifarraError):
        vm.call_time()
    vm.undo()
    assert not vm.tournament.time_up and vm.tournament.can_call_time
    clock.now += 3600
    assert not vm.check_time()  # it was called and undone: the organiser decides


def test_time_called_between_hands_ends_the_match(tmp_path, clock):
    vm = make_vm(tmp_path / "j.sqlite", clock)
    vm.new_match(preset="butinet")
    play_hand(vm)
    clock.now += 3600
    assert vm.check_time() and vm.match.is_over and vm.state.step == "match_won"
