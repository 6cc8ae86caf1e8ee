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
    assert [b.scored for b in d.app.session.state.pending.breakdown] == [0, 32]
    confirm(d)
    assert d.app.session.state.totals == {"A": 0, "B": 32}
    assert sheet_of(d.app.session.match)[0].doubling == "sant_vicenc"


def test_no_sant_vicenc_on_botifarra_by_default(kiosk):
    d = kiosk.start()
    start_match(d, dealer=1)
    bid(d, "botifarra", levels=("contro", "recontro"), play=False)
    assert d.current.multiplier == 8
    assert not d.has("sant_vicenc")
    d.tap("play")
    assert d.app.session.state.phase == "playing"


def test_undo_a_bid(kiosk):
    d = kiosk.start()
    start_match(d)
    bid(d, "espases", play=False)
    d.tap("contro")
    d.tap("undo")
    assert d.app.session.state.contract.doubling == "none" and d.screen == "bidding"
    d.tap("undo")
    assert d.app.session.state.phase == "choose_trump"


def test_a_tapped_contro_crosses_the_core_once(kiosk, monkeypatch):
    """The walk of docs/ARCHITECTURE.md: screen -> session -> journal -> core once -> state
    back to the screen, which shows it without anyone calling its refresh()."""
    from kiosk.game import Match
    from kiosk.journal import Journal
    d = kiosk.start()
    start_match(d, dealer=0)
    bid(d, "espases", play=False)
    screen = d.current
    applied, refreshed = [], []
    real_apply, real_refresh = Match.apply, type(screen).refresh
    monkeypatch.setattr(Match, "apply", lambda self, ev: applied.append(ev["type"]) or real_apply(self, ev))
    monkeypatch.setattr(type(screen), "refresh", lambda self: refreshed.append(self.name) or real_refresh(self))
    d.tap("contro", shot=False)
    assert applied == ["double"]  # the core, once: in the journal's transaction
    assert refreshed == ["bidding"]  # the shown screen, told by the session it observes
    assert screen.ids.multiplier.text == "×2"
    with Journal(kiosk.db) as journal:  # on disk, from another connection
        assert journal.load(d.app.session.match_id).contract.multiplier == 2
