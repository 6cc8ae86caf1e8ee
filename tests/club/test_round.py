"""The table's side of a round on a real journal and a real sidecar: the banner, the end
conditions in the match's rules, the round's clock, the opponents' confirmation."""

from __future__ import annotations

import random

import pytest

from clubwire.payloads import EndConditions, RoundAssignment
from kiosk.club.outbox import Outbox
from kiosk.club.round import ResultState, banner, confirming_team
from kiosk.journal import Journal
from tests.club.sim import JournalRound, play_hand

START = 1_800_000_000.0


def _assignment(**conditions) -> RoundAssignment:
    return RoundAssignment("7", 3, 12, 3, "", "", EndConditions(**conditions), START, "butinet")


def test_the_banner_says_round_table_and_pairs_in_three_languages():
    a = _assignment()
    assert banner(a, now=START).title == "Ronda 3 · Taula 7 · Parella 12 contra Parella 3"
    assert banner(a, lang="es", now=START).title == "Ronda 3 · Mesa 7 · Pareja 12 contra Pareja 3"
    assert banner(a, lang="en", now=START).title == "Round 3 · Table 7 · Pair 12 v Pair 3"
    assert banner(a, now=START).ends == "101 punts · 12 mans · 60 min · màx. 121"
    assert banner(a, now=START + 59 * 60 + 1).minutes_left == 1
    assert banner(a, now=START + 3600).minutes_left == 0


@pytest.fixture
def club(tmp_path):
    now = [START]
    journal = Journal(tmp_path / "j.sqlite", clock=lambda: now[0])
    outbox = Outbox(tmp_path / "j.sqlite", "7", clock=lambda: now[0])
    wakes = []
    c = JournalRound(journal, outbox, notify=lambda: wakes.append(1), clock=lambda: now[0])
    c.now, c.wakes = now, wakes
    yield c
    journal.close()
    outbox.close()


def test_the_round_match_ends_at_the_hands_limit_and_caps_points(club):
    club.outbox.save_assignment(_assignment(target=None, max_hands=4, time_limit_min=None, points_cap=30))
    match_id = club.start_match()
    assert club.outbox.bound_round(match_id) == (True, 3)
    match = club.journal.load(match_id)
    assert match.team_names == {"A": "Parella 12", "B": "Parella 3"}
    rng = random.Random(5)
    while not match.is_over:
        match = play_hand(club.journal, match_id, rng)
    assert sum(1 for h in match.hands if h.kind != "misdeal") == 4
    assert max(match.totals.values()) <= 30


def test_the_round_clock_ends_the_match_after_the_hand_in_play(club):
    club.outbox.save_assignment(_assignment())
    match_id = club.start_match()
    play_hand(club.journal, match_id, random.Random(1))
    assert not club.enforce_time(match_id)
    club.now[0] = START + 3600
    assert club.enforce_time(match_id)
    assert club.journal.load(match_id).time_up
    assert not club.enforce_time(match_id)  # once
    match = club.journal.load(match_id)
    rng = random.Random(2)
    while not match.is_over:
        match = play_hand(club.journal, match_id, rng)
    assert match.end_reason == "time"


def test_a_result_counts_only_after_the_opponents_tap(club):
    club.outbox.save_assignment(_assignment())
    match_id = club.start_match()
    assert club.state(match_id) is ResultState.PLAYING
    with pytest.raises(ValueError):
        club.confirm(match_id, "A")
    match = club.journal.load(match_id)
    rng = random.Random(9)
    while not match.is_over:
        match = play_hand(club.journal, match_id, rng)
    assert club.state(match_id) is ResultState.AWAITING_CONFIRMATION
    winner_side = "A" if confirming_team(match) == "B" else "B"
    with pytest.raises(ValueError):
        club.confirm(match_id, winner_side)   # the winners cannot confirm their own win
    club.confirm(match_id, confirming_team(match))
    assert club.state(match_id) is ResultState.CONFIRMED
    assert club.wakes  # the publisher was woken to send it


def test_without_a_round_order_there_is_no_round_match(club):
    assert club.banner() is None
    with pytest.raises(LookupError):
        club.start_match()


def test_a_game_without_pairs_publishes_no_club_state(tmp_path):
    """Club mode is pairs only (issue 24): a three-player match in a club table's journal
    is neither read nor sent (the organiser scores pairs), never a crash."""
    from clubwire.payloads import EndConditions, RoundAssignment
    from kiosk.club.backlog import Backlog
    from kiosk.club.outbox import Outbox
    from kiosk.journal import Journal

    journal = Journal(tmp_path / "j.sqlite")
    outbox = Outbox(tmp_path / "j.sqlite", "7")
    outbox.save_assignment(RoundAssignment("7", 2, 12, 3, "", "", EndConditions(101, 12, 60, 121),
                                           1_800_000_000.0, "butinet"))
    try:
        three = journal.create_match({"type": "match_created", "variant": "three",
                                      "rules": {"preset": "reglament"}, "first_dealer": 0})
        journal.append(three, {"type": "misdeal"})
        backlog = Backlog(journal, outbox)
        assert backlog.refresh(scan=True, state=None, round_known=True) == 0
        assert backlog.tracked == {} and backlog.report("7", None) is None
    finally:
        journal.close()
        outbox.close()
