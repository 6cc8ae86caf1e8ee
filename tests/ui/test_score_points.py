"""A match to 101 scored with the number pad; a delegated trump on the way."""

from __future__ import annotations
from kiosk.table import sheet_of

import pytest

from tests.ui.flows import bid, confirm, score_points, start_match

pytestmark = pytest.mark.ui


def test_match_to_101_by_points(kiosk):
    d = kiosk.start()
    start_match(d, dealer=0)
    # hand 1: seat 0 delegates, partner picks botifarra (x2); A makes 60 -> (60-36)*2 = 48
    bid(d, "botifarra", delegate=True)
    score_points(d, "A", 60)
    a, b = d.app.session.state.pending.breakdown
    assert (a.scored, b.scored) == (48, 0)
    confirm(d)
    assert d.screen == "scoreboard"
    assert d.app.session.state.totals == {"A": 48, "B": 0}
    assert sheet_of(d.app.session.match)[0].delegated
    assert d.current.ids.total_a.total == 48
    # hand 2: seat 1 deals; B points 36-36: nobody scores
    assert d.app.session.state.roles["dealer"] == 1
    bid(d, "copes")
    score_points(d, "B", 36)
    confirm(d)
    assert d.app.session.state.totals == {"A": 48, "B": 0}
    # hands 3..: A wins with 72 under botifarra (72 points a hand)
    while d.screen != "match_won":
        bid(d, "botifarra")
        score_points(d, "A", 72)
        confirm(d)
    assert d.app.session.state.winner == "A" and d.app.session.state.totals["A"] >= 101
    d.shot()
    d.tap("next_match")
    assert d.screen == "scoreboard" and d.app.session.state.totals == {"A": 0, "B": 0}
