"""The table's physical controls behind one face: three buttons (:mod:`hardware.buttons`),
the camera light, a status LED and a buzzer (:mod:`hardware.outputs`).

``TableControls`` checks the pin map, chooses the pin factory and owns every gpiozero
device. Buttons: SCAN and CONFIRM act on press; UNDO acts on release when it was a short
press, and opens the settings when held for ``hold_seconds`` (a hold never also counts as
an undo). Debounce and hold timing are gpiozero's (``bounce_time``, ``hold_time``).

Threads: every ``when_*`` callback is called on one of gpiozero's threads, never on the
UI thread. A Kivy UI wraps its callbacks with :func:`hardware.bridge.call_on` so they run
on Kivy's Clock.
"""

from __future__ import annotations

import logging
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Mapping

from hardware.buttons import TableButtons
from hardware.errors import HardwareError, PinConfigError
from hardware.outputs import CHORD, ERROR, STATUS_COLORS, TICK, Buzzer, CameraLight, StatusLed
from hardware.pins import NOT_FITTED, factory_name, make_pin_factory

log = logging.getLogger("hardware.controls")

Callback = Callable[[], Any] | None

PIN_KEYS = ("scan_pin", "confirm_pin", "undo_pin", "light_pin",
            "led_red_pin", "led_green_pin", "led_blue_pin", "buzzer_pin")


def _call(callback: Callback, what: str) -> None:
    """A failing callback is logged, and the button keeps working."""
    if callback is None:
        return
    try:
        callback()
    except Exception:
        log.exception("%s callback failed", what)


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
        self._buttons: TableButtons | None = None
        self._led = StatusLed()

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
        from gpiozero import PWMLED, RGBLED, PWMOutputDevice

        f = self._factory
        self._buttons = TableButtons(
            pins, pin_factory=f, claim=self._device,
            hold_time_s=self.hold_seconds, bounce_time_s=self.bounce_ms / 1000.0 or None,
            on_scan=lambda: _call(self.when_scan, "when_scan"),
            on_confirm=lambda: _call(self.when_confirm, "when_confirm"),
            on_undo=lambda: _call(self.when_undo, "when_undo"),
            on_settings=lambda: _call(self.when_settings, "when_settings"))

        light = None
        if pins["light_pin"] is not None:
            light = self._device("light_pin", lambda: PWMLED(
                pins["light_pin"], frequency=light_frequency, pin_factory=f))
        self.light = CameraLight(light, brightness=light_brightness)

        if pins["led_red_pin"] is not None:
            self._led = StatusLed(self._device("led_red_pin", lambda: RGBLED(
                pins["led_red_pin"], pins["led_green_pin"], pins["led_blue_pin"],
                active_high=led_active_high, pwm=True, pin_factory=f)))

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
        return self._led.status

    @status.setter
    def status(self, value: str) -> None:
        """ "ready", "attention", "fault" or "off" (UnknownStatusError otherwise)."""
        self._led.status = value

    # -- life cycle -----------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Release every pin (idempotent). Lights and LED go off, the buzzer stops."""
        if self._closed:
            return
        self._closed = True
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


__all__ = ["TableControls", "from_settings", "CameraLight", "Buzzer", "StatusLed", "STATUS_COLORS", "TICK", "CHORD",
           "ERROR", "HardwareError"]
