"""Confirmation: with the both-pairs setting each pair confirms; nothing is saved before."""

from __future__ import annotations

import pytest

from kiosk.settings import Settings
from tests.ui.flows import bid, score_points, start_match

pytestmark = pytest.mark.ui


def test_both_pairs_must_confirm(kiosk):
    settings = Settings()
    settings.set("match.both_confirm", True)
    d = kiosk.start(settings=settings)
    start_match(d)
    bid(d, "espases")
    score_points(d, "B", 52)
    assert not d.has("confirm") and d.has("confirm_A") and d.has("confirm_B")
    d.key(13)  # Enter alone does not confirm for both pairs
    assert d.screen == "confirm"
    d.tap("confirm_A")
    assert d.screen == "confirm" and d.app.session.state.totals == {"A": 0, "B": 0}
    d.shot(force=True)
    d.tap("confirm_B")
    assert d.screen == "scoreboard" and d.app.session.state.totals == {"A": 0, "B": 16}


def test_back_from_the_confirmation_keeps_the_typed_points(kiosk):
    d = kiosk.start()
    start_match(d)
    bid(d, "bastos")
    score_points(d, "A", 41)
    d.tap("back")
    assert d.screen == "score_points" and d.current.display == "41"
    d.tap("ok")
    d.tap("confirm")
    assert d.app.session.state.totals == {"A": 5, "B": 0}
