"""The table's hardware as the kiosk app drives it: the buzzer and speaker cues, the camera
light, the status LED, and the GPIO buttons' callbacks hopping onto the UI loop.

A mixin of ``KioskApp`` (it reads the app's ``controls``, ``sound``, ``settings`` and
``to_ui``); kept apart so the app module holds navigation and messages only.
"""

from __future__ import annotations

import threading

from kivy.logger import Logger


class TableHardware:
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
            self._set_status("fault" if self._save_failed else "attention" if self._problem_shown else "ready")

    def _set_status(self, status: str) -> None:
        if self.controls is None:
            return
        try:
            self.controls.status = status
        except Exception:
            Logger.exception("kiosk: status LED failed")

    def _wire_controls(self, controls) -> None:
        """GPIO callbacks come on gpiozero's threads: hop onto the Clock."""
        controls.when_scan = self.to_ui(lambda *a: self.press("scan"))
        controls.when_confirm = self.to_ui(lambda *a: self.press("confirm"))
        controls.when_undo = self.to_ui(lambda *a: self.press("undo"))
        controls.when_settings = self.to_ui(lambda *a: self.press("settings"))
