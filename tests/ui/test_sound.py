"""The speaker's cues: the SoundPlayer through Kivy's real SDL2 mixer on SDL's dummy audio
driver (tests/ui/harness.py sets SDL_AUDIODRIVER=dummy), silent with one log line when no
audio device opens, and ``TableHardware.feedback`` choosing the GPIO buzzer (gpiozero's
MockFactory) and/or the speaker as ``ui.sound`` says."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import textwrap
import time

import pytest

from hardware.controls import TableControls
from kiosk.settings import Settings
from kiosk.ui.sound import CUES, SoundPlayer
from tests.ui.harness import ROOT

pytestmark = pytest.mark.ui

NO_SOUND = "no sound from the speaker"


def pump_until(condition, timeout: float = 3.0) -> bool:
    from kivy.clock import Clock
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        Clock.tick()
        if condition():
            return True
        time.sleep(0.01)
    return False


# ---------------------------------------------------------------------- the player
def test_each_cue_plays_through_the_sdl_mixer_and_ends(tmp_path, caplog):
    player = SoundPlayer(tmp_path / "sounds")
    assert player.available is None  # nothing opened before the first use
    started = time.monotonic()
    assert player.prepare() is True and player.available is True
    assert time.monotonic() - started < 4.0  # no hang on opening the device (the UI would freeze)
    for name in CUES:
        player.play(name)
        assert player.playing(name), name
        # the mixer really consumed it: Kivy sees the channel finish (checked every 0.1 s)
        assert pump_until(lambda: not player.playing(name)), name
    player.tick()
    player.tick()  # a tick while one sounds starts it again; never raises
    assert player.playing("tick")
    player.close()
    assert not player.playing("tick") and player.available is False
    player.chord()  # after close: silent, no error
    assert NO_SOUND not in caplog.text


def test_a_second_player_reuses_the_files(tmp_path):
    first = SoundPlayer(tmp_path / "sounds")
    assert first.prepare()
    stamps = {p.name: p.stat().st_mtime_ns for p in (tmp_path / "sounds").iterdir()}
    second = SoundPlayer(tmp_path / "sounds")
    assert second.prepare()
    assert {p.name: p.stat().st_mtime_ns for p in (tmp_path / "sounds").iterdir()} == stamps
    first.close()
    second.close()


def test_a_folder_that_cannot_be_written_means_silence_said_once(tmp_path, caplog):
    in_the_way = tmp_path / "sounds"
    in_the_way.write_text("a file where the folder should be")
    player = SoundPlayer(in_the_way)
    with caplog.at_level(logging.WARNING, logger="kiosk.ui.sound"):
        for _ in range(3):
            for name in CUES:
                player.play(name)  # never raises
    assert player.available is False
    assert caplog.text.count(NO_SOUND) == 1


def test_no_audio_device_means_silence_said_once():
    """A fresh process whose SDL has no usable audio driver: Kivy's mixer does not open."""
    script = textwrap.dedent("""
        import logging
        from kiosk import paths
        from kiosk.ui.sound import SoundPlayer
        player = SoundPlayer(paths.cache_dir() / "sounds")
        for _ in range(3):
            player.tick(); player.chord(); player.error(); player.play("nonsense")
        print("available:", player.available)
    """)
    env = dict(os.environ, SDL_AUDIODRIVER="no_such_driver", KIVY_NO_FILELOG="1", KIVY_NO_ARGS="1")
    env.pop("KIVY_LOG_MODE", None)  # Kivy's own console logging, as in production
    proc = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "available: False" in proc.stdout
    assert (proc.stdout + proc.stderr).count(NO_SOUND) == 1, proc.stderr[-2000:]


# ---------------------------------------------------------------------- feedback routing
@pytest.fixture
def factory():
    from gpiozero.pins.mock import MockFactory, MockPWMPin
    f = MockFactory(pin_class=MockPWMPin)
    yield f
    f.close()


def buzzed(controls, factory) -> bool:
    assert controls.buzzer.wait(3)
    return any(state.state > 0 for state in factory.pin(12).states)


def start(kiosk, mode: str, **kwargs):
    settings = Settings()
    settings.set("ui.sound", mode)
    return kiosk.start(settings=settings, **kwargs)


def test_auto_with_a_buzzer_fitted_sounds_only_the_buzzer(kiosk, factory, tmp_path):
    controls = TableControls(pin_factory=factory, bounce_ms=5)
    player = SoundPlayer(tmp_path / "sounds")
    try:
        d = start(kiosk, "auto", controls=controls, sound=player)
        d.app.hardware.feedback("chord")
        assert buzzed(controls, factory)
        d.pump(3)
        assert player.available is None and not player.playing("chord")  # the speaker never opened
    finally:
        controls.close()
        player.close()


def test_auto_without_a_buzzer_sounds_the_speaker(kiosk, factory, tmp_path):
    controls = TableControls(pin_factory=factory, bounce_ms=5, buzzer_pin=None)
    player = SoundPlayer(tmp_path / "sounds")
    try:
        d = start(kiosk, "auto", controls=controls, sound=player)
        assert pump_until(lambda: player.available is not None)  # prepared after the first frame
        d.app.hardware.feedback("tick")
        assert player.playing("tick")
        assert not buzzed(controls, factory)
    finally:
        controls.close()
        player.close()


def test_auto_with_no_gpio_at_all_sounds_the_speaker_and_errors_too(kiosk, tmp_path):
    player = SoundPlayer(tmp_path / "sounds")
    try:
        d = start(kiosk, "auto", controls=None, sound=player)
        d.app.show_message("Proveu-ho de nou")
        assert player.playing("error")  # a new banner message sounds the error cue
    finally:
        player.close()


def test_an_info_message_is_silent_and_a_problem_after_it_still_sounds(kiosk, tmp_path):
    player = SoundPlayer(tmp_path / "sounds")
    try:
        d = start(kiosk, "on", controls=None, sound=player)
        assert pump_until(lambda: player.available is not None)
        d.app.show_message("Desat a la memòria USB", info=True)
        d.pump(2)
        assert not player.playing("error")
        d.app.show_message("No hi ha cap memòria USB")  # replaces the info banner
        assert player.playing("error")
        player.sound("error").stop()
        d.app.show_message("Encara no hi ha cap memòria USB")  # replaces a problem: once is enough
        assert not player.playing("error")
    finally:
        player.close()


def test_on_sounds_both_and_off_sounds_nothing(kiosk, factory, tmp_path):
    controls = TableControls(pin_factory=factory, bounce_ms=5)
    player = SoundPlayer(tmp_path / "sounds")
    try:
        d = start(kiosk, "on", controls=controls, sound=player)
        d.app.hardware.feedback("error")
        assert player.playing("error") and buzzed(controls, factory)
    finally:
        controls.close()
        player.close()

    quiet = SoundPlayer(tmp_path / "quiet")
    try:
        d = start(kiosk, "off", controls=None, sound=quiet)
        for name in CUES:
            d.app.hardware.feedback(name)
        time.sleep(0.7)  # past the moment a wanted speaker would have been prepared
        d.pump(3)
        assert quiet.available is None and not (tmp_path / "quiet").exists()
    finally:
        quiet.close()


def test_the_setting_is_read_at_each_cue(kiosk, tmp_path):
    player = SoundPlayer(tmp_path / "sounds")
    try:
        d = start(kiosk, "off", controls=None, sound=player)
        d.app.hardware.feedback("tick")
        assert player.available is None
        d.app.settings.set("ui.sound", "on")  # e.g. changed on the settings screen
        d.app.hardware.feedback("tick")
        assert player.playing("tick")
    finally:
        player.close()
