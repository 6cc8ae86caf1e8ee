"""The fault suite's kiosk: the real KioskApp in the session's Kivy window (as tests/ui),
started on the journal ``open_for_kiosk`` gives for a faulty file or place."""

from __future__ import annotations

import pytest

from tests.ui.harness import DRIVE_SIZE, Driver, configure_kivy

configure_kivy()


class FaultyKiosk:
    def __init__(self, request) -> None:
        self.request = request
        self.app = None
        self.driver: Driver | None = None

    def start(self, db, *, settings=None) -> Driver:
        from kivy.core.window import Window
        from kiosk.journal.startup import open_for_kiosk
        from kiosk.settings import Settings
        from kiosk.ui.app import KioskApp
        journal = open_for_kiosk(db)
        app = KioskApp(journal=journal, settings=settings or Settings(), db_path=journal.path)
        app.root = app.build()
        Window.add_widget(app.root)
        app.dispatch("on_start")
        self.app = app
        self.driver = Driver(app, self.request.node.name)
        self.driver.resize(DRIVE_SIZE)
        self.driver.pump(1, draw=True)
        self.driver.pump(3)
        return self.driver

    def shot(self, label: str) -> None:
        """Screenshots of the screen as it is (every supported size, 800x480 included)."""
        d = self.driver
        name = d.test_name
        d.test_name = f"{name}_{label}"
        d.shot(force=True)
        d.test_name = name
        d.resize(DRIVE_SIZE)

    def stop(self) -> None:
        from kivy.core.window import Window
        if self.app is None:
            return
        self.app.dispatch("on_stop")
        Window.remove_widget(self.app.root)
        self.app.journal.close()
        self.app = None


@pytest.fixture
def faulty_kiosk(request):
    k = FaultyKiosk(request)
    yield k
    k.stop()
    if k.driver is not None:
        k.driver.finish()
        assert not k.driver.errors, f"unexpected errors in the event loop: {k.driver.errors!r}"
