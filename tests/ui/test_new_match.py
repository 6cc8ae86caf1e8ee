"""New match screen: defaults, player names, preset/target, first dealer by tap and by draw."""

from __future__ import annotations
from kiosk.ui.screens.base import player_name

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
    vm = d.app.session
    assert vm.state.team_names == {"A": "Nosaltres", "B": "Vosaltres"}
    assert vm.state.target == 151
    assert vm.state.roles["dealer"] == 2
    assert player_name(vm.state, 0) == "Anna" and player_name(vm.state, 1) == "Pere"
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
    assert d.app.session.state.roles["dealer"] == seat


def test_presets_cycle_and_a_fixed_hands_preset_has_no_target(kiosk):
    d = kiosk.start()
    d.tap("new_match")
    screen = d.current
    seen = []
    for _ in range(5):
        seen.append((screen.preset, screen.target))
        d.tap("preset")
    assert [p for p, _ in seen] == ["reglament", "butinet", "girona", "torrefarrera", "regional_234"]
    while screen.preset != "girona":
        d.tap("preset")
    assert screen.target == 0 and "8" in screen.target_text
    d.tap("start")
    vm = d.app.session
    assert vm.match.rules.max_hands == 8 and vm.state.target is None


@pytest.mark.parametrize(("language", "us", "you"), [("en", "Us", "You"), ("ca", "Nosaltres", "Vosaltres")])
def test_the_pair_placeholders_are_in_the_kiosk_language(kiosk, language, us, you):
    from kiosk.settings import Settings

    settings = Settings()
    settings.set("ui.language", language)
    d = kiosk.start(settings=settings)
    d.tap("new_match")
    ids = d.current.ids
    assert (ids.team_a.hint_text, ids.team_b.hint_text) == (us, you)
    assert ids.player_0.hint_text == ("Seat 1" if language == "en" else "Seient 1")
    d.tap("start", shot=False)  # the pairs left unnamed are called what the form showed (not always Catalan)
    assert (d.app.session.state.team_names["A"], d.app.session.state.team_names["B"]) == (us, you)


def test_a_language_switch_keeps_what_was_typed(kiosk):
    """The form is read again in the new language: the names typed so far stay."""
    d = kiosk.start()
    d.tap("new_match")
    ids = d.current.ids
    ids.team_a.text, ids.player_2.text = "Cal Pep", "Núria"
    d.app.set_language("es")
    d.pump(2)
    assert (ids.team_a.text, ids.player_2.text) == ("Cal Pep", "Núria")
    assert ids.player_0.hint_text == "Asiento 1"
    d.app.set_language("en")


def test_the_default_pair_names_follow_the_kiosk_language(kiosk):
    """A default pair name is shown in the kiosk's language whatever language it was stored in:
    the empty table's (the Catalan settings' "Nosaltres") on a Spanish screen, and a match begun
    in Spanish ("Nosotros", what the field showed) after a switch to Catalan. A typed name stays."""
    from kiosk.settings import Settings

    settings = Settings()
    settings.set("ui.language", "es")
    d = kiosk.start(settings=settings)
    assert d.screen == "scoreboard" and not d.app.session.state.has_match
    assert dict(d.current.names) == {"A": "Nosotros", "B": "Vosotros"}
    d.tap("new_match")
    d.current.ids.team_b.text = "Els Avis"
    d.tap("start")
    assert d.app.session.state.team_names == {"A": "Nosotros", "B": "Els Avis"}  # as stored
    sb = d.current
    assert dict(sb.names) == {"A": "Nosotros", "B": "Els Avis"}
    d.app.set_language("ca")
    d.pump()
    assert dict(d.current.names) == {"A": "Nosaltres", "B": "Els Avis"}
    head = " ".join(w.text for w in d.current.ids.sheet_head.walk() if hasattr(w, "text"))
    assert "Nosaltres" in head and "Nosotros" not in head, head
    d.shot()
