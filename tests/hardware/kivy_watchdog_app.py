"""A real Kivy app that pets the systemd watchdog from its Clock, the way the kiosk does.

Run by test_watchdog_kivy.py in a subprocess under xvfb-run, with NOTIFY_SOCKET pointing at
the test's datagram socket. Timeline (seconds after on_start): pets every interval();
at 1.0 a Clock callback blocks the loop for 2 s; at 3.6 a mock SCAN press is made on a
gpiozero thread and handed to the UI with hardware.bridge.call_on; at 4.2 the app stops.
"""

import os
import sys
import threading
import time

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")

from gpiozero.pins.mock import MockFactory, MockPWMPin  # noqa: E402
from kivy.app import App  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.uix.label import Label  # noqa: E402

from hardware import watchdog  # noqa: E402
from hardware.bridge import call_on  # noqa: E402
from hardware.controls import TableControls  # noqa: E402

BLOCK_AT, BLOCK_FOR, PRESS_AT, STOP_AT = 1.0, 2.0, 3.6, 4.2


class WatchdogApp(App):
    def build(self):
        return Label(text="watchdog")

    def on_start(self):
        every = watchdog.interval()
        if every:
            Clock.schedule_interval(lambda dt: watchdog.pet(), every)
        self.factory = MockFactory(pin_class=MockPWMPin)
        self.controls = TableControls(pin_factory=self.factory, bounce_ms=10)
        to_ui = call_on(lambda f: Clock.schedule_once(lambda dt: f()))
        self.controls.when_scan = to_ui(self.scanned)
        Clock.schedule_once(self.block, BLOCK_AT)
        Clock.schedule_once(lambda dt: threading.Thread(target=self.press).start(), PRESS_AT)
        Clock.schedule_once(lambda dt: self.stop(), STOP_AT)
        watchdog.ready("ui up")

    def block(self, dt):
        watchdog.status("blocking")
        time.sleep(BLOCK_FOR)
        watchdog.status("unblocked")

    def press(self):
        pin = self.factory.pin(17)
        pin.drive_low()
        time.sleep(0.05)
        pin.drive_high()

    def scanned(self):
        where = "main" if threading.current_thread() is threading.main_thread() else "other"
        watchdog.status(f"scan on {where} thread")

    def on_stop(self):
        self.controls.close()
        watchdog.stopping()


if __name__ == "__main__":
    WatchdogApp().run()
    sys.exit(0)
