"""The table's outputs: the camera light, the status LED and the buzzer.

Each works with no device fitted (``device=None``): it then does nothing, so the kiosk
needs no ``if fitted`` at its call sites.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from contextlib import contextmanager
from typing import Iterator

from hardware.errors import PinConfigError, UnknownStatusError

log = logging.getLogger("hardware.outputs")

STATUS_COLORS: dict[str, tuple[float, float, float]] = {
    "off": (0.0, 0.0, 0.0),
    "ready": (0.0, 1.0, 0.0),       # green
    "attention": (1.0, 0.45, 0.0),  # amber
    "fault": (1.0, 0.0, 0.0),       # red
}

# (frequency in Hz or None for silence, seconds)
Note = tuple[float | None, float]
TICK: tuple[Note, ...] = ((2093.0, 0.025),)
CHORD: tuple[Note, ...] = (  # C major arpeggio, rising: a hand is saved
    (523.25, 0.08), (None, 0.015), (659.25, 0.08), (None, 0.015),
    (783.99, 0.08), (None, 0.015), (1046.50, 0.20),
)
ERROR: tuple[Note, ...] = (  # two low buzzes, falling: something needs a look
    (311.13, 0.16), (None, 0.06), (233.08, 0.30),
)


class CameraLight:
    """The LED ring or strip that lights the table while the camera reads.

    ``reading()`` is a context manager: the light is on at ``brightness`` inside it, and
    goes off when the last overlapping reading ends. With no light fitted it does nothing.
    """

    def __init__(self, device=None, *, brightness: float = 0.8):
        self._device = device
        self._lock = threading.Lock()
        self._readers = 0
        self.brightness = brightness

    @property
    def fitted(self) -> bool:
        return self._device is not None

    @property
    def brightness(self) -> float:
        return self._brightness

    @brightness.setter
    def brightness(self, value: float) -> None:
        value = float(value)
        if not 0.0 <= value <= 1.0:
            raise PinConfigError(f"light brightness {value} is not between 0 and 1")
        self._brightness = value

    @property
    def value(self) -> float:
        return float(self._device.value) if self._device is not None else 0.0

    def on(self, brightness: float | None = None) -> None:
        if self._device is not None:
            self._device.value = self._brightness if brightness is None else float(brightness)

    def off(self) -> None:
        if self._device is not None:
            self._device.value = 0.0

    @contextmanager
    def reading(self) -> Iterator["CameraLight"]:
        with self._lock:
            self._readers += 1
            self.on()
        try:
            yield self
        finally:
            with self._lock:
                self._readers -= 1
                if self._readers == 0:
                    self.off()


class Buzzer:
    """A passive piezo buzzer on a PWM pin, playing short sequences in the background.

    ``tick()``, ``chord()`` and ``error()`` return at once; a single player thread plays the
    queued sequences in order. Ticks beyond ``max_queue`` are dropped (a burst of cards
    must not buzz for seconds); ``error()`` drops whatever is still queued and goes next.
    """

    def __init__(self, device=None, *, volume: float = 0.5, max_queue: int = 8):
        self._device = device
        self._volume = volume
        self._max_queue = max_queue
        self._pending: deque[tuple[Note, ...]] = deque()
        self._cond = threading.Condition()
        self._busy = False
        self._closed = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def fitted(self) -> bool:
        return self._device is not None

    def tick(self) -> None:
        self.play(TICK)

    def chord(self) -> None:
        self.play(CHORD)

    def error(self) -> None:
        self.play(ERROR, urgent=True)

    def play(self, notes: tuple[Note, ...], *, urgent: bool = False) -> None:
        if self._device is None:
            return
        with self._cond:
            if self._closed:
                return
            if urgent:
                self._pending.clear()
            elif len(self._pending) >= self._max_queue:
                return
            self._pending.append(tuple(notes))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="buzzer", daemon=True)
                self._thread.start()
            self._cond.notify_all()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until everything queued has been played; False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._pending and not self._busy, timeout)

    def _run(self) -> None:
        device = self._device
        while not self._stop.is_set():
            with self._cond:
                self._cond.wait_for(lambda: self._pending or self._closed)
                if self._closed:
                    break
                notes = self._pending.popleft()
                self._busy = True
            try:
                for frequency, seconds in notes:
                    if frequency is None:
                        device.value = 0.0
                    else:
                        device.frequency = frequency
                        device.value = self._volume
                    if self._stop.wait(seconds):
                        break
                device.value = 0.0
            except Exception:
                log.exception("buzzer failed")
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._pending.clear()
            self._cond.notify_all()
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)


class StatusLed:
    """The RGB LED that tells the table what the kiosk needs: ``ready`` (green),
    ``attention`` (amber), ``fault`` (red) or ``off``. Without an LED fitted the status is
    still kept (the kiosk reads it back)."""

    def __init__(self, device=None):
        self._device = device
        self._status = "off"

    @property
    def fitted(self) -> bool:
        return self._device is not None

    @property
    def status(self) -> str:
        return self._status

    @status.setter
    def status(self, value: str) -> None:
        if value not in STATUS_COLORS:
            raise UnknownStatusError(f"status {value!r} is not one of {', '.join(STATUS_COLORS)}")
        self._status = value
        if self._device is not None and not self._device.closed:
            self._device.color = STATUS_COLORS[value]


__all__ = ["CameraLight", "Buzzer", "StatusLed", "STATUS_COLORS", "TICK", "CHORD", "ERROR", "Note"]
