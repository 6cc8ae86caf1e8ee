"""The UI suite: one real Kivy window for the session; a fresh kiosk per test."""

from __future__ import annotations

import gc
import random

import pytest

from tests.ui.harness import DRIVE_SIZE, Driver, TouchClock, configure_kivy

configure_kivy()


def _make_app(db, settings=None, **kwargs):
    from kiosk.journal import Journal
    from kiosk.settings import Settings
    from kiosk.ui.app import KioskApp
    settings = settings or Settings()
    return KioskApp(journal=Journal(db), settings=settings, db_path=db, **kwargs)


class Kiosk:
    """Start, stop and restart the kiosk app inside the session's window."""

    def __init__(self, request, tmp_path):
        self.request = request
        self.db = tmp_path / "journal.sqlite"
        self.app = None
        self.driver = None
        self.drivers: list[Driver] = []

    def start(self, *, settings=None, **kwargs) -> Driver:
        from kivy.core.window import Window
        self.stop()
        kwargs.setdefault("touch_clock", TouchClock())
        app = _make_app(self.db, settings, **kwargs)
        root = app.build()
        app.root = root
        Window.add_widget(root)
        app.dispatch("on_start")
        self.app = app
        self.driver = Driver(app, self.request.node.name)
        self.drivers.append(self.driver)
        self.driver.resize(DRIVE_SIZE)
        self.driver.pump(1, draw=True)
        self.driver.pump(3)
        return self.driver

    def stop(self) -> None:
        from kivy.core.window import Window
        if self.app is None:
            return
        self.app.dispatch("on_stop")
        Window.remove_widget(self.app.root)
        self.app.journal.close()
        self.app = None


# The cycle collector while a UI test runs: a young collection every 10,000 objects kept, not
# 700. A test builds a kiosk of 100,000-300,000 objects (kv rules, properties, their
# observers), nearly all alive until the test ends, so at 700 the collector walked them again
# and again, and made a full collection of the whole heap (0.3-0.5 s) once or twice a test:
# a fifth of the UI tests' CPU (docs/perf.md, stop 37). The kiosk's own code is the same.
UI_THRESHOLDS = (10_000, 10, 10)
_FROZEN: list[bool] = []


@pytest.fixture(autouse=True)
def cycle_collector():
    before = gc.get_threshold()
    gc.set_threshold(*UI_THRESHOLDS)
    yield
    gc.set_threshold(*before)
    if not _FROZEN:  # once per process, after its first UI test: what is left then (Kivy, the
        _FROZEN.append(True)  # window, the modules, the kv rules) is never garbage; kept out
        gc.collect()  # of every later full collection's walk
        gc.freeze()


@pytest.fixture
def kiosk(request, tmp_path):
    k = Kiosk(request, tmp_path)
    yield k
    drivers = k.drivers
    if k.app is not None and k.driver is not None:
        k.driver.shot(force=True)  # the screen the test ends on, as it ends
    k.stop()
    for d in drivers:
        d.finish()
        assert not d.small_targets, f"touch targets under 9 mm: {d.small_targets}"
        if not request.node.get_closest_marker("expect_errors"):
            assert not d.errors, f"unexpected errors in the event loop: {d.errors!r}"


@pytest.fixture
def rng():
    return random.Random(11)


@pytest.fixture
def factory():
    """gpiozero's mock pins, PWM-capable (the light and the LED dim)."""
    from gpiozero.pins.mock import MockFactory, MockPWMPin
    f = MockFactory(pin_class=MockPWMPin)
    yield f
    f.close()


@pytest.fixture
def controls(factory):
    """The table's buttons, light, LED and buzzer on the mock pins."""
    from hardware.controls import TableControls
    c = TableControls(pin_factory=factory, bounce_ms=5)
    yield c
    c.close()
