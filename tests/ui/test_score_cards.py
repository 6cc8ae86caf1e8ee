"""Tap the cards: a match to 101 scored from the card grid, with the pile checks."""

from __future__ import annotations

import pytest

from tests.ui.flows import bid, confirm, pile, score_cards, start_match

pytestmark = pytest.mark.ui


def test_not_whole_tricks_is_refused_on_ok_and_the_grid_never_moves(kiosk):
    d = kiosk.start()
    start_match(d)
    bid(d, "oros")
    d.tap("score_cards")
    where = [tuple(b.to_window(*b.pos)) + tuple(b.size) for b in d.current._buttons.values()]
    d.tap("team_B")
    for code in ("9O", "1O", "12O"):
        d.tap(code)
    assert not d.current.problem  # the warning waits for OK: the table may still be tapping
    d.tap("ok")
    assert d.screen == "score_cards" and d.current.problem
    d.tap("9O")
    d.tap("9O")  # tapped twice: picked then put back (no card twice)
    assert len(d.current.picker.selected) == 3
    assert [tuple(b.to_window(*b.pos)) + tuple(b.size) for b in d.current._buttons.values()] == where


def test_the_pile_owner_is_chosen_not_assumed(kiosk):
    d = kiosk.start()
    start_match(d)
    bid(d, "oros")
    d.tap("score_cards")
    assert not d.current.team  # no pair lit
    for code in ("1O", "3O", "12O", "11O"):
        d.tap(code)
    d.tap("ok")
    assert d.screen == "score_cards" and "parella" in d.current.problem  # whose pile is it?
    d.tap("team_B")
    d.tap("ok")
    assert d.screen == "confirm" and d.app.session.state.pending.result.piles.keys() == {"B"}
    assert "Vosaltres" in d.current.ids.owner.text


def test_match_to_101_by_cards(kiosk):
    d = kiosk.start()
    start_match(d, dealer=1)
    cards = pile(66)  # the 12 strongest... whole tricks worth at least 66
    hands = 0
    while d.screen != "match_won":
        bid(d, "botifarra")
        score_cards(d, "B", cards)
        b = d.app.session.state.pending.breakdown[1]
        assert b.card_points + b.tricks == b.points and b.scored == (b.points - 36) * 2
        confirm(d)
        hands += 1
        assert hands < 6
    assert d.app.session.state.winner == "B"
    d.shot()
