"""The settings view-model: the PIN gate (3 tries, 30 s), changes saved at once, PIN change."""

from __future__ import annotations

import pytest

from kiosk.settings import BY_NAME, Settings
from kiosk.ui import i18n
from kiosk.ui.viewmodels.settings import HELP, LABELS, LOCK_SECONDS, PinPad, SettingsViewModel


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def type_pin(pad: PinPad, digits: str) -> None:
    for d in digits:
        pad.press(d)


@pytest.fixture
def settings(tmp_path):
    return Settings(path=tmp_path / "settings.ini")


def test_right_pin_unlocks(settings):
    vm = SettingsViewModel(settings, clock=Clock())
    type_pin(vm.pin, "1234")
    assert vm.pin.shown == "●●●●"
    assert vm.unlock() and vm.unlocked and vm.pin.digits == ""


def test_three_wrong_tries_wait_thirty_seconds(settings):
    clock = Clock()
    vm = SettingsViewModel(settings, clock=clock)
    for n in (1, 2):
        type_pin(vm.pin, "0000")
        assert not vm.unlock()
        assert f"{n}" in vm.pin.problem and not vm.pin.wait
    type_pin(vm.pin, "9999")
    assert not vm.unlock()
    assert vm.pin.wait == LOCK_SECONDS
    type_pin(vm.pin, "1234")
    assert not vm.unlock(), "the right PIN is refused while waiting"
    clock.t += 29.5
    assert vm.pin.wait == 1 and "1" in vm.pin.problem
    clock.t += 0.6
    assert vm.pin.wait == 0 and vm.pin.problem == ""
    type_pin(vm.pin, "1234")
    assert vm.unlock()


def test_pad_keys(settings):
    pad = PinPad(settings)
    type_pin(pad, "123456789")
    assert pad.digits == "12345678"
    pad.press("back")
    assert pad.digits == "1234567"
    pad.press("clear")
    assert pad.digits == ""


def test_changes_need_the_pin_and_are_saved(settings, tmp_path):
    vm = SettingsViewModel(settings, clock=Clock(), video_devices=lambda: ["/dev/video0"])
    with pytest.raises(PermissionError):
        vm.cycle("match.target")
    type_pin(vm.pin, "1234")
    vm.unlock()
    assert vm.cycle("match.target") == 151
    assert vm.cycle("match.preset") == "butinet"
    assert vm.cycle("match.both_confirm") is True
    assert vm.cycle("ui.fullscreen") is False
    assert vm.cycle("ui.size") == "800x480"
    assert [vm.cycle("ui.sound") for _ in range(3)] == ["on", "off", "auto"]
    assert [vm.cycle("camera.source") for _ in range(4)] == ["picamera2", "demo", "v4l2:/dev/video0", "auto"]
    vm.change("ui.language", "es")
    again = Settings.load(tmp_path / "settings.ini")
    assert again.problems == []
    assert (again["match.target"], again["match.preset"], again["match.both_confirm"], again["ui.fullscreen"],
            again["ui.size"], again["ui.language"]) == (151, "butinet", True, False, "800x480", "es")
    assert vm.needs_restart("camera.source") and not vm.needs_restart("match.target")


def test_pin_change_typed_twice(settings, tmp_path):
    vm = SettingsViewModel(settings, clock=Clock())
    type_pin(vm.pin, "1234")
    vm.unlock()
    assert vm.enter_new_pin("12") == "A PIN has 4 to 8 digits"
    assert vm.enter_new_pin("5678") == "again"
    assert vm.enter_new_pin("5679") == "The two PINs differ; the PIN was not changed"
    assert settings["ui.pin"] == "1234"
    assert vm.enter_new_pin("5678") == "again"
    assert vm.enter_new_pin("5678") == "changed"
    assert Settings.load(tmp_path / "settings.ini")["ui.pin"] == "5678"
    vm.lock()
    type_pin(vm.pin, "1234")
    assert not vm.unlock()
    type_pin(vm.pin, "5678")
    assert vm.unlock()


@pytest.mark.parametrize("language", ["ca", "es"])
def test_every_field_on_screen_has_a_plain_help_line_in_the_language(settings, language):
    vm = SettingsViewModel(settings, clock=Clock())
    assert set(HELP) == set(LABELS)
    english = {name: vm.help(name) for name in LABELS}
    i18n.set_language(language)
    for name in LABELS:
        shown = vm.help(name)
        assert shown and shown != english[name], (language, name)
        assert shown != BY_NAME[name].help
    # the screen's words are plain: none of the INI file's technical terms
    for text in english.values():
        assert not [term for term in ("v4l2", "PATH", "picamera2", "Escape", "cursor", "800x480") if term in text]


def test_a_field_without_a_screen_help_falls_back_to_the_ini_help(settings):
    vm = SettingsViewModel(settings)
    assert vm.help("match.preset") == HELP["match.preset"]
    assert vm.help("gpio.bounce_ms") == BY_NAME["gpio.bounce_ms"].help


@pytest.mark.parametrize("language, word", [("ca", "Taula"), ("es", "Mesa"), ("en", "Table")])
def test_the_table_name_is_typed_as_a_number_and_stored_as_text(settings, tmp_path, language, word):
    assert settings["table.name"] == ""  # the default: no table name
    vm = SettingsViewModel(settings, clock=Clock())
    with pytest.raises(PermissionError):
        vm.set_table("7")
    type_pin(vm.pin, "1234")
    vm.unlock()
    i18n.set_language(language)
    try:
        assert vm.table_name_for("") == vm.table_name_for("0") == vm.table_name_for("000") == ""
        assert vm.set_table("07") == f"{word} 7"
        assert Settings.load(tmp_path / "settings.ini")["table.name"] == f"{word} 7"
        i18n.set_language("ca" if language != "ca" else "es")
        assert settings["table.name"] == f"{word} 7", "the name is data: a language switch keeps it"
        assert vm.set_table("0") == ""
        assert Settings.load(tmp_path / "settings.ini")["table.name"] == ""
    finally:
        i18n.set_language("en")


def test_a_table_name_written_in_the_ini_by_hand_reads_back(tmp_path):
    path = tmp_path / "settings.ini"
    path.write_text("[table]\nname = Taula 7 / Bar l'Àngel\n", "utf-8")
    settings = Settings.load(path)
    assert settings.problems == [] and settings["table.name"] == "Taula 7 / Bar l'Àngel"
    settings.save()
    assert Settings.load(path)["table.name"] == "Taula 7 / Bar l'Àngel"
