"""The table's three buttons, on gpiozero's own debounce and hold.

SCAN and CONFIRM act when pressed. UNDO acts when released after a short press; held for
``hold_time_s`` it opens the settings instead (gpiozero's ``hold_time`` / ``when_held``),
and a hold is never also an undo.

Debounce is gpiozero's ``bounce_time``, done by the pin driver: lgpio (the Pi OS default)
reports an edge only once the level has been stable that long, so a glitch is no press;
RPi.GPIO ignores the edges that follow an edge for that long.

Threads: the actions run on gpiozero's threads (the pin driver's event thread, the hold
thread), never on the UI thread; a Kivy UI hands them on with :func:`hardware.bridge.call_on`.
"""

from __future__ import annotations

import threading
from typing import Any, Callable

Action = Callable[[], None]
# claim(setting key, make) -> the gpiozero device make() built, with the setting named in
# any error and the device released with the others (TableControls owns the devices)
Claim = Callable[[str, Callable[[], Any]], Any]


class _UndoOrSettings:
    """UNDO's press -> hold -> release, told apart with one flag set by ``when_held``."""

    def __init__(self, button, *, on_undo: Action, on_settings: Action):
        self._lock = threading.Lock()
        self._held = False
        self._on_undo, self._on_settings = on_undo, on_settings
        button.when_pressed = self._pressed
        button.when_held = self._held_long
        button.when_released = self._released

    def _pressed(self) -> None:
        with self._lock:
            self._held = False

    def _held_long(self) -> None:
        with self._lock:
            self._held = True
        self._on_settings()

    def _released(self) -> None:
        with self._lock:
            held, self._held = self._held, False
        if not held:
            self._on_undo()


class TableButtons:
    """SCAN, CONFIRM and UNDO (any of them may be absent: its pin is None).

    Args:
        pins: ``scan_pin``, ``confirm_pin``, ``undo_pin`` -> BCM number or None.
        on_scan, on_confirm, on_undo, on_settings: called with no arguments.
        hold_time_s: how long UNDO is held to open the settings.
        bounce_time_s: gpiozero's ``bounce_time`` (None: no debounce).
        claim: builds each gpiozero device (see :data:`Claim`).

    Example::

        buttons = TableButtons({"scan_pin": 17, "confirm_pin": None, "undo_pin": 22}, ...)
        buttons.undo.is_pressed
    """

    def __init__(self, pins: dict[str, int | None], *, on_scan: Action, on_confirm: Action,
                 on_undo: Action, on_settings: Action, hold_time_s: float,
                 bounce_time_s: float | None, pin_factory: Any, claim: Claim):
        from gpiozero import Button

        def button(key: str, **hold: float):
            return claim(key, lambda: Button(pins[key], pull_up=True, bounce_time=bounce_time_s,
                                             pin_factory=pin_factory, **hold))

        self.scan = self.confirm = self.undo = None
        if pins.get("scan_pin") is not None:
            self.scan = button("scan_pin")
            self.scan.when_pressed = on_scan
        if pins.get("confirm_pin") is not None:
            self.confirm = button("confirm_pin")
            self.confirm.when_pressed = on_confirm
        if pins.get("undo_pin") is not None:
            self.undo = button("undo_pin", hold_time=hold_time_s)
            self._undo = _UndoOrSettings(self.undo, on_undo=on_undo, on_settings=on_settings)
