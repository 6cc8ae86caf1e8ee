"""The table's physical controls: three buttons, the camera light, a status LED, a buzzer.

``TableControls`` owns the gpiozero devices. Buttons: SCAN and CONFIRM act on press;
UNDO acts on release when it was a short press, and opens the settings when held for
``hold_seconds`` (a hold never also counts as an undo).

Threads: every ``when_*`` callback is called on a background thread (gpiozero's pin
event thread or the debounce/hold timers here), never on the UI thread. A Kivy UI wraps
its callbacks with :func:`hardware.bridge.call_on` so they run on Kivy's Clock.

Debouncing: a press or release counts once the pin has stayed at its new level for
``bounce_ms`` with no other edge (a stable-level filter, the same on every pin factory).
The pin factory's own debounce (lgpio's glitch filter) is also switched on where it has one.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Mapping

from hardware.errors import HardwareError, PinConfigError, UnknownStatusError
from hardware.pins import NOT_FITTED, factory_name, make_pin_factory

log = logging.getLogger("hardware.controls")

Callback = Callable[[], Any] | None

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

PIN_KEYS = ("scan_pin", "confirm_pin", "undo_pin", "light_pin",
            "led_red_pin", "led_green_pin", "led_blue_pin", "buzzer_pin")


def _call(callback: Callback, what: str) -> None:
    if callback is None:
        return
    try:
        callback()
    except Exception:
        log.exception("%s callback failed", what)


class _DebouncedButton:
    """Turns a gpiozero Button's raw edges into clean press / release / hold events.

    Each edge becomes the *candidate* level. A candidate is accepted once no other edge
    has come for ``bounce`` seconds: either when its timer runs out, or, if the timer is
    late (a busy CPU), when the next edge arrives and finds the candidate already that old.
    So a real press is never lost to a slow timer, and contact bounce never counts twice.
    """

    def __init__(self, button, *, name: str, bounce: float, hold: float | None,
                 on_press: Callable[[], None] | None = None,
                 on_release: Callable[[], None] | None = None,
                 on_hold: Callable[[], None] | None = None):
        self.name = name
        self._button = button
        self._bounce = bounce
        self._hold = hold
        self._on_press, self._on_release, self._on_hold = on_press, on_release, on_hold
        self._lock = threading.Lock()
        self._pressed = False          # the accepted level
        self._candidate: tuple[bool, float, int] | None = None   # (level, since, serial)
        self._serial = 0
        self._held = False
        self._generation = 0
        self._settle_timer: threading.Timer | None = None
        self._hold_timer: threading.Timer | None = None
        self._closed = False
        button.when_pressed = lambda: self._edge(True)
        button.when_released = lambda: self._edge(False)

    @property
    def is_pressed(self) -> bool:
        return self._pressed

    def _edge(self, level: bool) -> None:
        now = time.monotonic()
        actions = []
        with self._lock:
            if self._closed:
                return
            if self._candidate is not None and now - self._candidate[1] >= self._bounce:
                actions.append(self._accept(self._candidate[0]))
            self._serial += 1
            self._candidate = (level, now, self._serial)
            if self._settle_timer is not None:
                self._settle_timer.cancel()
                self._settle_timer = None
            if self._bounce <= 0:
                actions.append(self._accept(level))
                self._candidate = None
            else:
                timer = threading.Timer(self._bounce, self._settled, args=(self._serial,))
                timer.daemon = True
                timer.name = f"debounce-{self.name}"
                self._settle_timer = timer
                timer.start()
        for action in actions:
            if action is not None:
                action()

    def _settled(self, serial: int) -> None:
        with self._lock:
            if self._closed or self._candidate is None or self._candidate[2] != serial:
                return
            action = self._accept(self._candidate[0])
            self._candidate = None
        if action is not None:
            action()

    def _accept(self, level: bool) -> Callable[[], None] | None:
        """Make ``level`` the accepted state (lock held); return the callback to run."""
        if level == self._pressed:
            return None
        self._pressed = level
        if level:
            self._generation += 1
            self._held = False
            if self._hold is not None and self._on_hold is not None:
                timer = threading.Timer(self._hold, self._hold_fired, args=(self._generation,))
                timer.daemon = True
                timer.name = f"hold-{self.name}"
                self._hold_timer = timer
                timer.start()
            return self._on_press
        if self._hold_timer is not None:
            self._hold_timer.cancel()
            self._hold_timer = None
        return None if self._held else self._on_release

    def _hold_fired(self, generation: int) -> None:
        with self._lock:
            if self._closed or generation != self._generation or not self._pressed:
                return
            self._held = True
        if self._on_hold is not None:
            self._on_hold()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            for timer in (self._settle_timer, self._hold_timer):
                if timer is not None:
                    timer.cancel()
        self._button.when_pressed = None
        self._button.when_released = None


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


def _pin(value: Any, key: str) -> int | None:
    """A pin from the settings: a BCM number, or empty / none / - for 'not fitted'."""
    if value is None:
        return None
    if isinstance(value, str):
        text = value.strip().lower()
        if text in NOT_FITTED:
            return None
        value = text
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise PinConfigError(f"gpio.{key} = {value!r} is not a BCM pin number") from None
    if not 0 <= number <= 27:
        raise PinConfigError(f"gpio.{key} = {number} is not a header GPIO (BCM 0-27)")
    return number


class TableControls:
    """Buttons, light, status LED and buzzer of one kiosk table.

    Any pin may be None (part not fitted). ``pin_factory`` is a gpiozero factory, a factory
    name (``auto``, ``lgpio``, ``rpigpio``, ``mock``) or None (= ``auto``); ``auto`` raises
    :class:`~hardware.errors.GPIOUnavailableError` on a machine without GPIO.
    A factory passed in stays the caller's; one made here is closed by :meth:`close`.
    """

    def __init__(self, *, scan_pin: int | None = 17, confirm_pin: int | None = 27,
                 undo_pin: int | None = 22, light_pin: int | None = 18,
                 led_red_pin: int | None = 5, led_green_pin: int | None = 6,
                 led_blue_pin: int | None = 13, buzzer_pin: int | None = 12,
                 hold_seconds: float = 3.0, bounce_ms: float = 30,
                 light_brightness: float = 0.8, light_frequency: float = 1000,
                 led_active_high: bool = True, buzzer_volume: float = 0.5,
                 pin_factory: Any = None):
        self.when_scan: Callback = None
        self.when_confirm: Callback = None
        self.when_undo: Callback = None
        self.when_settings: Callback = None
        self._closed = False
        self._devices: list[Any] = []
        self._buttons: list[_DebouncedButton] = []
        self._status = "off"

        pins = {"scan_pin": scan_pin, "confirm_pin": confirm_pin, "undo_pin": undo_pin,
                "light_pin": light_pin, "led_red_pin": led_red_pin,
                "led_green_pin": led_green_pin, "led_blue_pin": led_blue_pin,
                "buzzer_pin": buzzer_pin}
        pins = {key: _pin(value, key) for key, value in pins.items()}
        seen: dict[int, str] = {}
        for key, number in pins.items():
            if number is None:
                continue
            if number in seen:
                raise PinConfigError(f"gpio.{seen[number]} and gpio.{key} both use BCM {number}")
            seen[number] = key
        leds = [pins["led_red_pin"], pins["led_green_pin"], pins["led_blue_pin"]]
        if any(p is None for p in leds) and not all(p is None for p in leds):
            raise PinConfigError("the status LED needs all three pins (red, green, blue) or none")
        if hold_seconds <= 0:
            raise PinConfigError(f"gpio.hold_seconds = {hold_seconds} must be more than 0")
        if bounce_ms < 0:
            raise PinConfigError(f"gpio.bounce_ms = {bounce_ms} must not be negative")
        self.pins = pins
        self.hold_seconds = float(hold_seconds)
        self.bounce_ms = float(bounce_ms)

        if pin_factory is None or isinstance(pin_factory, str):
            self._factory = make_pin_factory(pin_factory or "auto")
            self._owns_factory = True
        else:
            self._factory = pin_factory
            self._owns_factory = False
        self.factory_name = factory_name(self._factory)

        try:
            self._build(pins, light_brightness=light_brightness, light_frequency=light_frequency,
                        led_active_high=led_active_high, buzzer_volume=buzzer_volume)
        except BaseException:
            self.close()
            raise

    def _device(self, key: str, make: Callable[[], Any]):
        from gpiozero import GPIOZeroError

        try:
            device = make()
        except GPIOZeroError as exc:
            raise PinConfigError(
                f"gpio.{key} = {self.pins.get(key)}: {exc.__class__.__name__}: {exc}") from exc
        self._devices.append(device)
        return device

    def _build(self, pins, *, light_brightness, light_frequency, led_active_high, buzzer_volume):
        from gpiozero import PWMLED, RGBLED, Button, PWMOutputDevice

        f = self._factory
        bounce = self.bounce_ms / 1000.0
        factory_bounce = bounce or None

        def button(key):
            return self._device(key, lambda: Button(
                pins[key], pull_up=True, bounce_time=factory_bounce, pin_factory=f))

        if pins["scan_pin"] is not None:
            self._buttons.append(_DebouncedButton(
                button("scan_pin"), name="scan", bounce=bounce, hold=None,
                on_press=lambda: _call(self.when_scan, "when_scan")))
        if pins["confirm_pin"] is not None:
            self._buttons.append(_DebouncedButton(
                button("confirm_pin"), name="confirm", bounce=bounce, hold=None,
                on_press=lambda: _call(self.when_confirm, "when_confirm")))
        if pins["undo_pin"] is not None:
            self._buttons.append(_DebouncedButton(
                button("undo_pin"), name="undo", bounce=bounce, hold=self.hold_seconds,
                on_release=lambda: _call(self.when_undo, "when_undo"),
                on_hold=lambda: _call(self.when_settings, "when_settings")))

        light = None
        if pins["light_pin"] is not None:
            light = self._device("light_pin", lambda: PWMLED(
                pins["light_pin"], frequency=light_frequency, pin_factory=f))
        self.light = CameraLight(light, brightness=light_brightness)

        self._led = None
        if pins["led_red_pin"] is not None:
            self._led = self._device("led_red_pin", lambda: RGBLED(
                pins["led_red_pin"], pins["led_green_pin"], pins["led_blue_pin"],
                active_high=led_active_high, pwm=True, pin_factory=f))

        buzzer = None
        if pins["buzzer_pin"] is not None:
            buzzer = self._device("buzzer_pin", lambda: PWMOutputDevice(
                pins["buzzer_pin"], initial_value=0, frequency=2000, pin_factory=f))
        self.buzzer = Buzzer(buzzer, volume=buzzer_volume)

    # -- settings -------------------------------------------------------------------------

    @classmethod
    def from_settings(cls, section: Mapping[str, Any], *, pin_factory: Any = None) -> "TableControls":
        """Build from the ``gpio`` section of the settings (``Settings.section("gpio")``).

        ``pin_factory`` (an instance) overrides ``gpio.pin_factory`` (a name). Whether GPIO
        is used at all (``gpio.enabled``) is the caller's decision.
        """
        kwargs: dict[str, Any] = {key: section.get(key) for key in PIN_KEYS if key in section}
        for key, kind, name in (("hold_seconds", float, "hold_seconds"),
                                ("bounce_ms", float, "bounce_ms"),
                                ("light_brightness", float, "light_brightness")):
            if key in section:
                try:
                    kwargs[name] = kind(section[key])
                except (TypeError, ValueError):
                    raise PinConfigError(f"gpio.{key} = {section[key]!r} is not a number") from None
        factory = pin_factory if pin_factory is not None else section.get("pin_factory", "auto")
        return cls(pin_factory=factory, **kwargs)

    # -- outputs --------------------------------------------------------------------------

    @contextmanager
    def reading(self) -> Iterator[CameraLight]:
        """Light on while the camera reads: ``with controls.reading(): ...``."""
        with self.light.reading() as light:
            yield light

    @property
    def status(self) -> str:
        return self._status

    @status.setter
    def status(self, value: str) -> None:
        if value not in STATUS_COLORS:
            raise UnknownStatusError(
                f"status {value!r} is not one of {', '.join(STATUS_COLORS)}")
        self._status = value
        if self._led is not None and not self._closed:
            self._led.color = STATUS_COLORS[value]

    # -- life cycle -----------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Release every pin (idempotent). Lights and LED go off, the buzzer stops."""
        if self._closed:
            return
        self._closed = True
        for b in self._buttons:
            b.close()
        if getattr(self, "buzzer", None) is not None:
            self.buzzer.close()
        for device in reversed(self._devices):
            try:
                device.close()
            except Exception:  # pragma: no cover - releasing must go on
                log.exception("closing %r failed", device)
        self._devices.clear()
        if self._owns_factory and self._factory is not None:
            try:
                self._factory.close()
            except Exception:  # pragma: no cover
                log.exception("closing the pin factory failed")

    def __enter__(self) -> "TableControls":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        fitted = ", ".join(f"{k}={v}" for k, v in self.pins.items() if v is not None)
        return f"<TableControls {self.factory_name} {fitted}{' closed' if self._closed else ''}>"


def from_settings(section: Mapping[str, Any], *, pin_factory: Any = None) -> TableControls:
    """``TableControls.from_settings`` as a function (see there)."""
    return TableControls.from_settings(section, pin_factory=pin_factory)


__all__ = ["TableControls", "from_settings", "CameraLight", "Buzzer", "STATUS_COLORS", "TICK", "CHORD", "ERROR",
           "HardwareError"]
