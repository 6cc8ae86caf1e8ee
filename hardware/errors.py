"""One exception root for the hardware package.

Every concrete error also inherits a built-in (the pattern of ``kiosk.game.errors``), so a
caller that only knows ``RuntimeError`` or ``ValueError`` still catches it.
"""


class HardwareError(Exception):
    """Root of every error raised by :mod:`hardware`."""


class GPIOUnavailableError(HardwareError, RuntimeError):
    """This machine has no usable GPIO (not a Raspberry Pi, no /dev/gpiochip*, no pin
    library, or no permission). The kiosk then runs with touch and keyboard only."""


class PinConfigError(HardwareError, ValueError):
    """A pin map that cannot work: a pin used twice, a pin number that does not exist,
    a pin that is already taken, a value out of range."""


class UnknownStatusError(HardwareError, ValueError):
    """A status LED state that is not one of ``ready``, ``attention``, ``fault``, ``off``."""
