"""A restart (power cut) in the middle of a hand reopens the same screen of the same hand."""

from __future__ import annotations
from kiosk.table import sheet_of

import pytest

from tests.ui.flows import bid, start_match

pytestmark = pytest.mark.ui


def test_restart_during_doubling_resumes_bidding(kiosk):
    d = kiosk.start()
    start_match(d, dealer=2)
    bid(d, "espases", levels=("contro",), play=False)
    kiosk.stop()
    d = kiosk.start()
    assert d.screen == "bidding"
    assert d.current.multiplier == 2 and d.has("recontro")
    d.shot()


def test_restart_while_tapping_cards_keeps_the_cards(kiosk):
    d = kiosk.start()
    start_match(d)
    bid(d, "oros")
    d.tap("score_cards")
    d.tap("team_B")
    for code in ("9O", "1O", "12E"):
        d.tap(code)
    kiosk.stop()
    d = kiosk.start()
    assert d.screen == "score_cards"
    picker = d.current.picker
    assert picker.team == "B" and sorted(c.code for c in picker.selected) == ["12E", "1O", "9O"]
    assert d.current.count.startswith("3 ")
    d.shot()
    d.tap("9C")
    d.tap("ok")
    assert d.screen == "confirm"
    kiosk.stop()
    d = kiosk.start()
    assert d.screen == "confirm" and d.app.session.state.pending.result.piles["B"]
    d.tap("confirm")
    assert sheet_of(d.app.session.match)[0].points["B"] == 5 + 4 + 3 + 5 + 1
