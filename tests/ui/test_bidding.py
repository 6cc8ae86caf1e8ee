"""Bidding: every doubling level, only what is legal offered, the multiplier shown large."""

from __future__ import annotations
from kiosk.table import sheet_of

import pytest

from tests.ui.flows import bid, confirm, score_points, start_match

pytestmark = pytest.mark.ui


def test_every_doubling_level_and_its_multiplier(kiosk):
    d = kiosk.start()
    start_match(d, dealer=0)
    bid(d, "oros", play=False)
    screen = d.current
    assert d.screen == "bidding" and screen.multiplier == 1
    assert d.has("contro") and not d.has("recontro") and not d.has("sant_vicenc")
    d.tap("contro")
    assert screen.multiplier == 2 and screen.ids.multiplier.text == "×2"
    assert d.has("recontro") and not d.has("contro")
    d.tap("recontro")
    assert screen.multiplier == 4 and d.has("sant_vicenc")
    d.tap("sant_vicenc")
    assert screen.multiplier == 8 and not d.has("sant_vicenc")
    d.shot(force=True)
    assert screen.ids.multiplier.height > d.window.height / 6
    d.tap("play")
    score_points(d, "B", 40)  # B are the contro pair: (40-36) x 8 = 32
    assert [b.scored for b in d.app.vm.state.pending.breakdown] == [0, 32]
    confirm(d)
    assert d.app.vm.state.totals == {"A": 0, "B": 32}
    assert sheet_of(d.app.vm.match)[0]["doubling"] == "sant_vicenc"


def test_no_sant_vicenc_on_botifarra_by_default(kiosk):
    d = kiosk.start()
    start_match(d, dealer=1)
    bid(d, "botifarra", levels=("contro", "recontro"), play=False)
    assert d.current.multiplier == 8
    assert not d.has("sant_vicenc")
    d.tap("play")
    assert d.app.vm.state.phase == "playing"


def test_undo_a_bid(kiosk):
    d = kiosk.start()
    start_match(d)
    bid(d, "espases", play=False)
    d.tap("contro")
    d.tap("undo")
    assert d.app.vm.state.contract.doubling == "none" and d.screen == "bidding"
    d.tap("undo")
    assert d.app.vm.state.phase == "choose_trump"
