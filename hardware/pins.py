"""Choosing a gpiozero pin factory, and finding out whether this machine has GPIO at all.

The choice is explicit: ``auto`` tries the real Raspberry Pi libraries (lgpio, then
RPi.GPIO) and raises :class:`GPIOUnavailableError` when none works. Mock pins are used only
when asked for by name (setting ``gpio.pin_factory = mock``); they are never a fallback.
"""

from __future__ import annotations

import glob
import importlib
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from hardware.errors import GPIOUnavailableError, PinConfigError

# name -> "module:class" of the gpiozero factory
REAL_FACTORIES: dict[str, str] = {
    "lgpio": "gpiozero.pins.lgpio:LGPIOFactory",
    "rpigpio": "gpiozero.pins.rpigpio:RPiGPIOFactory",
    "pigpio": "gpiozero.pins.pigpio:PiGPIOFactory",
    "native": "gpiozero.pins.native:NativeFactory",
}
NOT_FITTED = ("", "none", "no", "-")  # what a pin setting says for a part that is not fitted
AUTO_ORDER = ("lgpio", "rpigpio")
FACTORY_NAMES = ("auto", "mock", *REAL_FACTORIES)

MODEL_FILE = Path("/proc/device-tree/model")


def board_model(model_file: Path = MODEL_FILE) -> str | None:
    """The board's model string (``Raspberry Pi 4 Model B Rev 1.4``), or None off a Pi."""
    try:
        return model_file.read_bytes().rstrip(b"\0\n").decode("utf-8", "replace") or None
    except OSError:
        return None


def gpio_chips() -> list[str]:
    return sorted(glob.glob("/dev/gpiochip*"))


def _load(name: str):
    module_name, class_name = REAL_FACTORIES[name].split(":")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        module = importlib.import_module(module_name)
        return getattr(module, class_name)()


def make_pin_factory(name: str = "auto"):
    """Build the gpiozero pin factory called ``name`` (see :data:`FACTORY_NAMES`).

    Raises :class:`GPIOUnavailableError` when the factory cannot run on this machine, and
    :class:`PinConfigError` for a name that is not a factory.
    """
    name = (name or "auto").strip().lower()
    if name == "mock":
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        return MockFactory(pin_class=MockPWMPin)
    if name == "auto":
        reasons = []
        for candidate in AUTO_ORDER:
            try:
                return _load(candidate)
            except Exception as exc:  # any import or open failure means "not here"
                reasons.append(f"{candidate}: {exc.__class__.__name__}: {exc}")
        raise GPIOUnavailableError(
            "no GPIO on this machine (" + "; ".join(reasons) + "); "
            "buttons, light, LED and buzzer are off: use touch and keyboard")
    if name not in REAL_FACTORIES:
        raise PinConfigError(
            f"gpio.pin_factory = {name!r} is not one of {', '.join(FACTORY_NAMES)}")
    try:
        return _load(name)
    except Exception as exc:
        raise GPIOUnavailableError(
            f"GPIO pin factory {name!r} cannot run here: {exc.__class__.__name__}: {exc}") from exc


def factory_name(factory) -> str:
    """A short name for a factory instance (``lgpio``, ``mock``, ...)."""
    cls = type(factory).__name__
    if cls == "MockFactory":
        return "mock"
    for name, entry in REAL_FACTORIES.items():
        if entry.endswith(":" + cls):
            return name
    return cls


@dataclass
class GPIOStatus:
    """What :func:`detect_gpio` found (for ``botifarra-kiosk diag`` and the settings screen)."""

    available: bool
    factory: str | None
    requested: str
    detail: str
    model: str | None = None
    chips: list[str] = field(default_factory=list)

    def describe(self) -> str:
        if self.available and self.factory == "mock":
            return "mock pins (explicit setting gpio.pin_factory = mock): no real buttons"
        if self.available:
            return f"GPIO available through {self.factory}"
        return f"no GPIO: {self.detail}"


def detect_gpio(requested: str = "auto") -> GPIOStatus:
    """Try the requested factory once, release it, and say what happened. Never raises."""
    model = board_model()
    chips = gpio_chips()
    try:
        factory = make_pin_factory(requested)
    except (GPIOUnavailableError, PinConfigError) as exc:
        detail = str(exc)
        if not chips:
            detail = "no /dev/gpiochip* device (not a Raspberry Pi?); " + detail
        return GPIOStatus(False, None, requested, detail, model, chips)
    except Exception as exc:  # pragma: no cover - defensive: diagnostics never crash
        return GPIOStatus(False, None, requested, f"{exc.__class__.__name__}: {exc}", model, chips)
    name = factory_name(factory)
    try:
        factory.close()
    except Exception:  # pragma: no cover - closing a probe must not matter
        pass
    return GPIOStatus(True, name, requested, "ok", model, chips)
