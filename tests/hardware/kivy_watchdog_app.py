"""A real Kivy app that pets the systemd watchdog from its Clock, the way the kiosk does.

Run by test_watchdog_kivy.py in a subprocess under xvfb-run, with NOTIFY_SOCKET pointing at
the test's datagram socket. Pets every interval() from the Clock; the timeline counts
pets (the first frames can take a while): after 8 pets a Clock callback blocks the loop
for 2 s; after 14 a mock SCAN press is made on another thread and handed to the UI with
hardware.bridge.call_on; after 20 the app stops.
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

BLOCK_AFTER, BLOCK_FOR, PRESS_AFTER, STOP_AFTER = 8, 2.0, 14, 20


class WatchdogApp(App):
    def build(self):
        return Label(text="watchdog")

    def on_start(self):
        every = watchdog.interval()
        if every:
            Clock.schedule_interval(lambda dt: watchdog.pet(), every)
            Clock.schedule_interval(self.timeline, every)
        self.pets = 0
        self.factory = MockFactory(pin_class=MockPWMPin)
        self.controls = TableControls(pin_factory=self.factory, bounce_ms=10)
        to_ui = call_on(lambda f: Clock.schedule_once(lambda dt: f()))
        self.controls.when_scan = to_ui(self.scanned)
        watchdog.ready("ui up")

    def timeline(self, dt):
        self.pets += 1
        if self.pets == BLOCK_AFTER:
            Clock.schedule_once(self.block)
        elif self.pets == PRESS_AFTER:
            threading.Thread(target=self.press).start()
        elif self.pets == STOP_AFTER:
            self.stop()

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
