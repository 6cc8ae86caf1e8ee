"""kiosk.settings on real settings.ini files: optional GPIO pins (empty = not fitted) survive
a save and a load, bad values fall back to their default with a problem, and a corrupt file
gives the defaults plus one clear problem (reading never fails)."""

from __future__ import annotations

import random

import pytest

from kiosk.settings import BY_NAME, OptionalInt, Settings

PINS = [name for name, s in BY_NAME.items() if name.startswith("gpio.") and name.endswith("_pin")]


def test_every_gpio_pin_is_optional_and_says_how():
    assert len(PINS) == 8
    for name in PINS:
        assert BY_NAME[name].kind is OptionalInt and "empty = not fitted" in BY_NAME[name].help


@pytest.mark.parametrize("written", ["", "none", "None", " - ", "no"])
def test_a_pin_not_fitted_loads_as_none(tmp_path, written):
    path = tmp_path / "settings.ini"
    path.write_text(f"[gpio]\nbuzzer_pin = {written}\nlight_pin = 23\n", encoding="utf-8")
    settings = Settings.load(path)
    assert settings.problems == []
    assert settings["gpio.buzzer_pin"] is None and settings["gpio.light_pin"] == 23
    assert settings["gpio.scan_pin"] == 17           # not written: the default


def test_optional_pins_round_trip_and_are_saved_empty(tmp_path):
    path = tmp_path / "config" / "settings.ini"
    settings = Settings(path=path)
    settings.set("gpio.buzzer_pin", None)
    settings.set("gpio.light_pin", "none")
    settings.set("gpio.scan_pin", "4")
    settings.set("gpio.confirm_pin", 21)
    settings.save()
    text = path.read_text(encoding="utf-8")
    assert "buzzer_pin = \n" in text and "light_pin = \n" in text and "None" not in text
    again = Settings.load(path)
    assert again.problems == []
    assert again.values == settings.values
    assert (again["gpio.buzzer_pin"], again["gpio.light_pin"]) == (None, None)
    assert (again["gpio.scan_pin"], again["gpio.confirm_pin"]) == (4, 21)
    # and a pin fitted later is written back as its number
    again.set("gpio.buzzer_pin", 12)
    again.save()
    assert Settings.load(path)["gpio.buzzer_pin"] == 12


def test_bad_values_fall_back_to_the_default_with_a_problem(tmp_path):
    path = tmp_path / "settings.ini"
    path.write_text("[gpio]\nbuzzer_pin = twelve\nscan_pin = 4.5\nenabled = maybe\n"
                    "[match]\ntarget = lots\npreset = poker\nnot_a_setting = 1\n", encoding="utf-8")
    settings = Settings.load(path)
    assert settings["gpio.buzzer_pin"] == 12 and settings["gpio.scan_pin"] == 17
    assert settings["gpio.enabled"] is False and settings["match.target"] == 101
    assert settings["match.preset"] == "reglament"
    assert len(settings.problems) == 6
    buzzer = next(p for p in settings.problems if "buzzer_pin" in p)
    assert "'twelve'" in buzzer and "empty = not fitted" in buzzer and "using 12" in buzzer
    assert any("unknown setting [match] not_a_setting" in p for p in settings.problems)
    with pytest.raises(ValueError, match="not a whole number"):
        Settings().set("gpio.undo_pin", "left")


@pytest.mark.parametrize("content, says", [
    (random.Random(7).randbytes(2000) + b"\xff\xfe", "not text"),
    (b"buzzer_pin =\nscan_pin = 4\n", "before any [section] header"),
    (b"\x00\x00\x00\x00", "before any [section] header"),
    (b"[gpio]\nscan_pin = 4\n[gpio]\nscan_pin = 5\n", "section 'gpio' already exists"),
])
def test_a_corrupt_file_gives_the_defaults_and_one_clear_problem(tmp_path, content, says):
    path = tmp_path / "settings.ini"
    path.write_bytes(content)
    settings = Settings.load(path)
    assert settings.values == Settings().values
    (problem,) = settings.problems
    assert str(path) in problem and says in problem and problem.endswith("using the defaults")
    assert "\n" not in problem
    assert path.read_bytes() == content               # reading never rewrites the file


def test_a_missing_file_is_the_defaults_without_a_problem(tmp_path):
    settings = Settings.load(tmp_path / "nowhere" / "settings.ini")
    assert settings.values == Settings().values and settings.problems == []


@pytest.mark.parametrize("section, key, raw", [
    ("match", "target", "-5"), ("match", "target", "77"), ("camera", "width", "0"),
    ("camera", "width", "nan"), ("camera", "exposure", "1e308"), ("gpio", "hold_seconds", "nan"),
    ("gpio", "hold_seconds", "inf"), ("gpio", "hold_seconds", "1e308"),
    ("gpio", "light_brightness", "-0.5"), ("gpio", "buzzer_pin", "99"),
    ("gpio", "bounce_ms", "9" * 5000), ("ui", "size", "0x0"), ("ui", "pin", "12\x1b"),
    ("match", "team_a", "A" * 41), ("match", "team_a", "Nos\u202eltres"),
])
def test_values_out_of_their_range_are_refused_and_the_default_used(tmp_path, section, key, raw):
    from kiosk.settings import BY_NAME
    ini = tmp_path / "settings.ini"
    ini.write_text(f"[{section}]\n{key} = {raw}\n", encoding="utf-8")
    settings = Settings.load(ini)
    name = f"{section}.{key}"
    assert settings[name] == BY_NAME[name].default
    (problem,) = settings.problems
    assert f"[{section}] {key}" in problem and "using" in problem and "\n" not in problem


def test_set_refuses_a_value_out_of_range():
    settings = Settings()
    with pytest.raises(ValueError):
        settings.set("camera.width", 0)
    with pytest.raises(ValueError):
        settings.set("gpio.light_brightness", float("nan"))
    settings.set("camera.width", 1280)
    assert settings["camera.width"] == 1280
