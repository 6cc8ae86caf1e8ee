"""Table hardware: buttons, camera light, status LED and buzzer (gpiozero), and the
systemd watchdog.

May import ``kiosk.game``; never Kivy. Callbacks come on background threads; the UI hands
them to its own loop with :func:`hardware.bridge.call_on`.
"""

from hardware.errors import GPIOUnavailableError, HardwareError, PinConfigError, UnknownStatusError

__all__ = ["HardwareError", "GPIOUnavailableError", "PinConfigError", "UnknownStatusError"]
