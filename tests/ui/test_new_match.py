"""New match screen: defaults, player names, preset/target, first dealer by tap and by draw."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.ui


def test_new_match_with_defaults_and_a_chosen_dealer(kiosk):
    d = kiosk.start()
    assert d.screen == "scoreboard"
    d.tap("new_match")
    assert d.screen == "new_match"
    d.current.ids.player_0.text = "Anna"
    d.current.ids.player_1.text = "Pere"
    d.tap("target")  # 101 -> 151
    d.tap("dealer_2")
    d.tap("start")
    assert d.screen == "scoreboard"
    vm = d.app.vm
    assert vm.team_names == {"A": "Nosaltres", "B": "Vosaltres"}
    assert vm.target == 151
    assert vm.roles["dealer"] == 2
    assert vm.player_name(0) == "Anna" and vm.player_name(1) == "Pere"
    d.shot()
    # the scoreboard shows both totals at least a sixth of the screen high
    sb = d.current
    for box in (sb.ids.total_a, sb.ids.total_b):
        number = box.children[0]
        assert number.height >= d.window.height / 6


def test_first_dealer_by_the_suit_draw(kiosk):
    d = kiosk.start()
    d.tap("new_match")
    d.tap("draw")
    screen = d.current
    assert screen.drawn_suit in ("oros", "copes", "espases", "bastos")
    seat = ["oros", "copes", "espases", "bastos"].index(screen.drawn_suit)
    assert screen.first_dealer == seat
    d.shot(force=True)
    d.tap("start")
    assert d.app.vm.roles["dealer"] == seat
