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
    board = d.app.sm.get_screen("scoreboard")  # it reads the words again when entered
    assert board.status != status_ca and board.status == i18n._("No match yet: start a new one")
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


def _fits(d, row) -> list[str]:
    """What of a settings row's words is clipped, overflows or overlaps its buttons."""
    label, help_, words, values = row.ids.label, row.ids.help, row.ids.words, row.ids.value_box
    bad = []
    for w in (label, help_):
        if w.texture_size[0] > w.width + 1 or w.texture_size[1] > w.height + 1:
            bad.append(f"{row.setting}: {w.text!r} {w.texture_size} in {w.size}")
    if words.top > row.top + 1 or words.y < row.y - 1:
        bad.append(f"{row.setting}: the words stick out of the row ({words.height:.0f} > {row.height:.0f})")
    if words.right > values.x + 1:
        bad.append(f"{row.setting}: the words run under the buttons")
    scroll = d.current.options_panel.ids.scroll
    if values.to_window(values.right, values.y)[0] > scroll.to_window(scroll.right, scroll.y)[0] - scroll.bar_width:
        bad.append(f"{row.setting}: the scroll bar covers the buttons")
    return bad


def test_each_setting_has_a_help_line_translated_at_once_and_fitting_every_size(kiosk, tmp_path):
    from kiosk.ui.theme import MUTED
    from kiosk.ui.viewmodels.settings import HELP, LABELS
    from tests.ui.harness import SIZES
    d = kiosk.start(settings=Settings(path=tmp_path / "settings.ini"))
    assert i18n.language() == "ca"
    open_settings(d)
    d.pump(3)
    rows = {row.setting: row for row in d.current.options_panel.ids.rows.children}
    assert list(rows)[::-1] == list(LABELS)
    for name, row in rows.items():
        help_ = row.ids.help
        assert help_.text == i18n._(HELP[name]) and help_.text != HELP[name], name
        assert help_.font_size < row.ids.label.font_size and tuple(help_.color) == tuple(MUTED)
    assert rows["ui.size"].ids.help.text == "Només compta si Pantalla completa és No. S'aplicarà en tornar a engegar."
    problems = []
    for size in SIZES:
        d.resize(size)
        d.pump(2)
        problems += [f"{size}: {p}" for row in rows.values() for p in _fits(d, row)]
    assert not problems, problems
    shot_as(d, "help_ca")

    d.tap("language_es", shot=False)  # the help lines follow the language at once
    rows = {row.setting: row for row in d.current.options_panel.ids.rows.children}
    assert rows["match.target"].ids.help.text == ("Puntos que necesita una pareja para ganar una partida "
                                                  "nueva (normalmente 101).")
    assert rows["camera.source"].ids.help.text == i18n._(HELP["camera.source"])
    d.tap("language_en", shot=False)
    rows = {row.setting: row for row in d.current.options_panel.ids.rows.children}
    assert [rows[name].ids.help.text for name in LABELS] == list(HELP[name] for name in LABELS)
    shot_as(d, "help_en")
    problems = []
    for size in SIZES:  # English is the longest in places: it fits too
        d.resize(size)
        d.pump(2)
        problems += [f"{size}: {p}" for row in rows.values() for p in _fits(d, row)]
    assert not problems, problems
    d.tap("language_ca", shot=False)
    assert i18n.language() == "ca"


def _status_fits(d) -> list[str]:
    """The scoreboard's status line, as laid out now: all its words shown (none cut off)."""
    from kivy.core.text import Label as CoreLabel
    board = d.app.sm.get_screen("scoreboard")
    inline, line = board.ids.status_inline, board.ids.status_line
    label = inline if board.width >= board.height else line
    if label.text != board.status:
        return [f"{tuple(d.window.size)}: the status is not shown ({label.text!r})"]
    core = CoreLabel(text=label.text, font_size=label.font_size, font_name=label.font_name,
                     bold=label.bold, halign="left", text_size=(label.width, None))
    core.refresh()
    w, h = core.texture.size
    if h > label.height + 1 or w > label.width + 1:
        return [f"{tuple(d.window.size)}: {label.text!r} needs {w}x{h}, has {label.width:.0f}x{label.height:.0f}"]
    return []


def test_the_table_name_typed_on_the_pad_shows_on_the_scoreboard(kiosk, tmp_path):
    from tests.ui.flows import bid, score_points, start_match
    from tests.ui.harness import SIZES
    path = tmp_path / "settings.ini"
    d = kiosk.start(settings=Settings(path=path))
    assert i18n.language() == "ca"
    board = d.app.sm.get_screen("scoreboard")
    assert board.status == i18n._("No match yet: start a new one")  # no table name: as before
    open_settings(d)
    assert d.find("table.name").text == "–"
    d.tap("table.name", shot=False)
    assert d.current.mode == "table" and d.current.title == "Número d'aquesta taula"
    assert d.current.hint == "Ara: –. 0 = sense nom de taula."
    for key in "0379":
        d.tap(f"pin_{key}", shot=False)
    assert d.current.shown == "Taula 379"
    d.tap("pin_del", shot=False)
    assert d.current.shown == "Taula 37"
    shot_as(d, "table_pad")
    d.tap("pin_ok", shot=False)
    assert d.current.mode == "options" and d.find("table.name").text == "Taula 37"
    assert Settings.load(path)["table.name"] == "Taula 37"
    d.pump(3)
    rows = {row.setting: row for row in d.current.options_panel.ids.rows.children}
    problems = []
    for size in SIZES:
        d.resize(size)
        d.pump(2)
        problems += [f"{size}: {p}" for p in _fits(d, rows["table.name"])]
    assert not problems, problems
    shot_as(d, "table_set")

    # Back from the pad leaves the name as it was
    d.tap("table.name", shot=False)
    assert d.current.hint == "Ara: Taula 37. 0 = sense nom de taula."
    d.tap("pin_5", shot=False)
    d.tap("pin_back", shot=False)
    assert d.current.mode == "options" and d.app.settings["table.name"] == "Taula 37"

    d.tap("close", shot=False)
    assert d.screen == "scoreboard"
    assert board.status == "Taula 37 · " + i18n._("No match yet: start a new one")
    start_match(d, dealer=1)
    bid(d, "botifarra", levels=("contro",))  # the longest status: trump and multiplier too
    assert board.status.startswith("Taula 37 · Mà 1 · ") and "×" in board.status, board.status
    problems = []
    for size in SIZES:
        d.resize(size)
        d.pump(2)
        problems += _status_fits(d)
    assert not problems, problems
    shot_as(d, "table_name")

    # 0 on the pad: no table name again, and the status is as before
    open_settings(d)
    d.tap("table.name", shot=False)
    d.tap("pin_0", shot=False)
    assert d.current.shown == "–"
    d.tap("pin_ok", shot=False)
    assert d.app.settings["table.name"] == "" and d.find("table.name").text == "–"
    d.tap("close", shot=False)
    assert board.status.startswith("Mà 1 · "), board.status
    assert Settings.load(path)["table.name"] == ""

    # A setting the table's state is read with, changed while the settings are open: back,
    # the screen shows it at once (the session published its state when the setting
    # changed), with no other action in between. Trick mode has no row on this screen (the
    # INI file sets it): changed on the kiosk's settings while they are open.
    assert d.app.session.state.phase == "playing" and d.has("score_cards")
    open_settings(d)
    d.app.settings.set("camera.mode", "tricks")
    d.tap("close", shot=False)
    assert d.screen == "tricks", d.screen  # the hand in play, card by card
    d.app.press("settings")  # the hardware UNDO-hold: the trick screen has no settings button
    type_pin(d, "1234")
    d.app.settings.set("camera.mode", "piles")
    d.tap("close", shot=False)
    assert d.screen == "scoreboard" and d.has("score_cards") and d.has("score_camera"), d.screen
    # Both pairs confirm, switched on by touch over a hand waiting for its confirmation
    score_points(d, "A", 45)
    assert d.has("confirm") and not d.has("confirm_A")
    d.app.press("settings")
    type_pin(d, "1234")
    d.tap("match.both_confirm", shot=False)
    assert d.app.settings["match.both_confirm"] is True
    d.tap("close", shot=False)
    assert d.screen == "confirm" and d.has("confirm_A") and d.has("confirm_B") and not d.has("confirm")
