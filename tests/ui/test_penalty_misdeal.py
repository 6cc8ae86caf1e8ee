"""Penalty (renunci) and misdeal, each with its own confirmation."""

from __future__ import annotations
from kiosk.table import sheet_of

import pytest

from tests.ui.flows import bid, start_match

pytestmark = pytest.mark.ui


def test_penalty_gives_the_other_pair_36_times_the_multiplier(kiosk):
    d = kiosk.start()
    start_match(d)
    bid(d, "oros", levels=("contro",))
    d.tap("penalty")
    assert d.screen == "penalty"
    assert not d.has("confirm")  # nothing to confirm before the offender is chosen
    d.tap("offender_B")
    assert "72" in d.current.ids.explain.text
    d.shot(force=True)
    d.tap("confirm")
    assert d.screen == "scoreboard"
    assert d.app.session.state.totals == {"A": 72, "B": 0}
    assert sheet_of(d.app.session.match)[0].kind == "penalty"


def test_penalty_can_be_cancelled(kiosk):
    d = kiosk.start()
    start_match(d)
    bid(d, "bastos")
    d.tap("penalty")
    d.tap("offender_A")
    d.tap("back")  # the first Enrere leaves (it used to clear the pair only)
    assert d.screen == "scoreboard" and d.app.session.state.pending is None
    assert d.app.session.state.totals == {"A": 0, "B": 0} and d.app.session.state.draft is None


def test_misdeal_voids_the_hand_and_passes_the_deal(kiosk):
    d = kiosk.start()
    start_match(d, dealer=3)
    d.tap("misdeal")  # before trump is chosen
    assert d.screen == "misdeal"
    assert d.current.ids.explain.text
    d.tap("confirm")
    vm = d.app.session
    assert d.screen == "scoreboard" and sheet_of(vm.match)[0].kind == "misdeal"
    assert vm.state.totals == {"A": 0, "B": 0} and vm.state.roles["dealer"] == 0
