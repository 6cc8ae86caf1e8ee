"""Settings behind the PIN: wrong PIN, the wait after three, the right PIN, a live language
switch seen on the scoreboard, a setting saved, the PIN change, the UNDO-hold way in."""

from __future__ import annotations

import pytest

from kiosk.settings import Settings
from kiosk.ui import i18n
from tests.ui.ui2steps import open_settings, shot_as, type_pin

pytestmark = [pytest.mark.ui, pytest.mark.slow]


def test_pin_language_and_pin_change(kiosk, tmp_path):
    path = tmp_path / "settings.ini"
    d = kiosk.start(settings=Settings(path=path))
    board = d.app.sm.get_screen("scoreboard")
    status_ca = board.status
    d.tap("settings")
    assert d.screen == "settings" and d.current.mode == "pin"
    for n in (1, 2):
        type_pin(d, "9999")
        assert d.current.mode == "pin"
        assert d.app.banner.text == i18n._("Wrong PIN ({n} of {max} tries)").format(n=n, max=3)
    type_pin(d, "0000")
    assert "30" in d.app.banner.text and d.current.svm.pin.wait > 25
    type_pin(d, "1234")
    assert d.current.mode == "pin", "the right PIN is refused while waiting"
    shot_as(d, "wait")
    d.tap("pin_back", shot=False)
    assert d.screen == "scoreboard"

    # a fresh kiosk (the wait is per session): the right PIN opens the options
    d = kiosk.start(settings=Settings(path=path))
    d.app.press("settings")  # the hardware UNDO-hold
    assert d.screen == "settings"
    type_pin(d, "1234")
    assert d.current.mode == "options", (d.app.banner.text, d.current.svm.pin.digits, d.current.svm.pin.wait)
    shot_as(d, "options")
    d.tap("match.target", shot=False)
    assert d.app.settings["match.target"] == 151
    d.tap("language_es", shot=False)
    board = d.app.sm.get_screen("scoreboard")
    assert board.status != status_ca and board.status == i18n._("No match yet: start a new one")
    assert i18n.language() == "es"
    shot_as(d, "options_es")

    d.tap("change_pin", shot=False)
    assert d.current.mode == "new_pin"
    type_pin(d, "5678")
    assert d.current.mode == "new_pin_again"
    shot_as(d, "new_pin_again")
    type_pin(d, "5679")
    assert d.current.mode == "new_pin" and d.app.settings["ui.pin"] == "1234"
    type_pin(d, "5678")
    type_pin(d, "5678")
    assert d.current.mode == "options" and d.app.banner.text == i18n._("The PIN is changed")
    d.tap("close", shot=False)
    assert d.screen == "scoreboard"
    assert d.find("new_match").text == "Nueva partida"
    d.shot(force=True)

    saved = Settings.load(path)
    assert (saved["ui.pin"], saved["ui.language"], saved["match.target"]) == ("5678", "es", 151)
    # locked again: the old PIN no longer opens it
    d.touch_at(*d.app.banner.center)  # "The PIN is changed" covers the top bar: a tap hides it
    assert not d.app.banner.text and d.screen == "scoreboard"
    d.tap("settings", shot=False)
    assert d.current.mode == "pin"
    type_pin(d, "1234")
    assert d.current.mode == "pin"
    type_pin(d, "5678")
    assert d.current.mode == "options"
    d.tap("language_ca", shot=False)
    assert i18n.language() == "ca"
