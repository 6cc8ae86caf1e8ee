"""The table's hardware as the kiosk drives it: the buzzer and speaker cues, the camera
light, the status LED, and the GPIO buttons' callbacks hopping onto the UI loop.

An object the app owns (``app.hardware``), with its own state: what the LED was last told
(a save refused, a problem on the screen, a broken camera). Screens call it for the cues
and the light; the app tells it what the banner shows.
"""

from __future__ import annotations

import threading
from typing import Callable

from kivy.logger import Logger

from kiosk.settings import Settings


class TableHardware:
    """The buzzer, the speaker, the camera light, the status LED and the four buttons.

    Args:
        controls: the GPIO panel (``hardware.controls.TableControls``), or None without one.
        sound: the speaker's cues (``kiosk.ui.sound.SoundPlayer``), or None.
        settings: read for ``ui.sound`` (auto: the speaker only without a buzzer).
        to_ui: wraps a function so that calling it from any thread runs it on the UI loop.

    Example::

        hardware = TableHardware(None, sound=None, settings=Settings(), to_ui=lambda f: f)
        hardware.feedback("chord")   # nothing fitted: nothing sounds
        hardware.tell(problem=True, save_failed=False)
    """

    def __init__(self, controls, *, sound, settings: Settings, to_ui: Callable) -> None:
        self.controls = controls
        self.sound = sound
        self.settings = settings
        self.to_ui = to_ui
        self._problem = False       # the banner shows a problem
        self._save_failed = False   # the journal refused the last save
        self._camera_fault = False  # the camera's source is broken, not just absent

    def start(self, press: Callable[[str], None]) -> None:
        """Wire the buttons to ``press(name)`` on the UI loop, light the LED green, and get
        the speaker's cues ready when the speaker is used."""
        if self.controls is not None:
            for name in ("scan", "confirm", "undo", "settings"):
                # GPIO callbacks come on gpiozero's threads: hop onto the Clock
                setattr(self.controls, f"when_{name}", self.to_ui(lambda *a, name=name: press(name)))
            self._set_status("ready")
        if self.sound is not None and self._speaker_wanted():
            self._prepare_sound()

    def feedback(self, sound: str) -> None:
        """``tick`` (a card read), ``chord`` (a hand saved), ``error``: on the GPIO buzzer
        when one is fitted, and on the speaker as ``ui.sound`` says (auto: no buzzer)."""
        if self._buzzer_fitted():
            try:
                getattr(self.controls.buzzer, sound)()
            except Exception:
                Logger.exception("kiosk: buzzer %s failed", sound)
        if self.sound is not None and self._speaker_wanted():
            try:
                self.sound.play(sound)
            except Exception:
                Logger.exception("kiosk: speaker %s failed", sound)

    def _prepare_sound(self) -> None:
        """Draw the cues' WAV files (first boot only) on a worker thread, then load them on
        the UI thread after the first frame (opening the audio device)."""
        def work():
            try:
                self.sound.write_files()
            except Exception:
                Logger.exception("kiosk: the speaker's cues could not be written")  # prepare() says so
            self.to_ui(self.sound.prepare)()
        threading.Thread(target=work, name="sound-files", daemon=True).start()

    def _buzzer_fitted(self) -> bool:
        buzzer = getattr(self.controls, "buzzer", None)
        return buzzer is not None and getattr(buzzer, "fitted", True)

    def _speaker_wanted(self) -> bool:
        mode = self.settings.get("ui.sound", "auto")
        return mode == "on" or (mode == "auto" and not self._buzzer_fitted())

    def camera_light(self, on: bool) -> None:
        light = getattr(self.controls, "light", None)
        if light is None:
            return
        try:
            light.on() if on else light.off()
        except Exception:
            Logger.exception("kiosk: camera light failed")

    def tell(self, *, problem: bool, save_failed: bool) -> None:
        """What the banner shows now: amber for a problem, green without; a refused save
        keeps the LED red until a save works."""
        self._problem, self._save_failed = problem, save_failed
        if not save_failed or problem:
            self._set_status(self._resting_status())

    def camera_fault(self, fault: bool) -> None:
        """The camera's source is broken, not just absent (Picamera2 that cannot be imported on a
        Pi): the status LED is red while the camera screen says why; the error cue sounds once."""
        if fault == self._camera_fault:
            return
        self._camera_fault = fault
        if fault:
            self.feedback("error")
            self._set_status("fault")
        else:
            self._set_status(self._resting_status())

    def _resting_status(self) -> str:
        return "fault" if self._save_failed else "attention" if self._problem else "ready"

    def _set_status(self, status: str) -> None:
        if self.controls is None:
            return
        try:
            self.controls.status = status
        except Exception:
            Logger.exception("kiosk: status LED failed")
