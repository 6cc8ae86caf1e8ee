"""Undo of the last action and edit of a past hand; totals recompute on screen."""

from __future__ import annotations
from kiosk.table import sheet_of

import pytest

from tests.ui.flows import bid, confirm, score_points, start_match

pytestmark = pytest.mark.ui


def test_undo_a_saved_hand_from_the_scoreboard(kiosk):
    d = kiosk.start()
    start_match(d)
    bid(d, "oros")
    score_points(d, "A", 50)
    confirm(d)
    assert d.current.ids.total_a.total == 14
    d.tap("undo")  # a scored hand: a second, deliberate touch
    assert d.app.session.state.totals == {"A": 14, "B": 0} and d.has("undo_yes")
    d.tap("undo_yes")
    assert d.app.session.state.totals == {"A": 0, "B": 0}
    assert d.current.ids.total_a.total == 0
    assert d.app.session.state.phase == "playing"


def test_backspace_undoes(kiosk):
    d = kiosk.start()
    start_match(d)
    bid(d, "copes", play=False)
    d.key(8)
    assert d.app.session.state.phase == "choose_trump"


def test_edit_a_past_hand(kiosk):
    d = kiosk.start()
    start_match(d)
    bid(d, "oros")
    score_points(d, "A", 50)
    confirm(d)
    bid(d, "copes")
    score_points(d, "B", 40)
    confirm(d)
    assert d.app.session.state.totals == {"A": 14, "B": 4}
    # tap the first row of the sheet
    row = [w for w in d.current.ids.sheet.children if getattr(w, "number", "") == "1"][0]
    d.touch_at(*row.to_window(*row.center))
    assert d.screen == "edit_hand"
    d.shot()
    d.tap("botifarra")
    d.tap("back")  # the pad's backspace: 50 -> 5
    d.tap("8")     # 58
    d.tap("save")
    assert d.screen == "scoreboard"
    assert sheet_of(d.app.session.match)[0].trump == "botifarra"
    assert d.app.session.state.totals == {"A": (58 - 36) * 2, "B": 4}
    assert d.current.ids.total_a.total == 44


def test_edit_a_played_hand_into_a_penalty_and_a_misdeal(kiosk):
    d = kiosk.start()
    start_match(d)
    bid(d, "oros", levels=("contro",))
    score_points(d, "A", 50)
    confirm(d)
    assert d.app.session.state.totals == {"A": 28, "B": 0}
    row = [w for w in d.current.ids.sheet.children if getattr(w, "number", "") == "1"][0]
    d.touch_at(*row.to_window(*row.center))
    assert d.screen == "edit_hand" and d.current.kind == "played"
    d.tap("kind_penalty")
    d.tap("team_A")  # Nosaltres broke a rule: Vosaltres score 36 x 2
    d.tap("save")
    assert sheet_of(d.app.session.match)[0].kind == "penalty" and d.app.session.state.totals == {"A": 0, "B": 72}
    row = [w for w in d.current.ids.sheet.children if getattr(w, "number", "") == "1"][0]
    d.touch_at(*row.to_window(*row.center))
    assert d.current.kind == "penalty"
    d.tap("kind_misdeal")
    d.tap("save")
    assert sheet_of(d.app.session.match)[0].kind == "misdeal" and d.app.session.state.totals == {"A": 0, "B": 0}
