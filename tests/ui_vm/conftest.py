"""The view-model tests read English messages: each starts in English whatever ran before it.

``table_app``: what a deal-through or pile camera needs of the App (its ``hardware``: the table's
buttons and lights on gpiozero's MockFactory, closed after the test)."""

from types import SimpleNamespace

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from hardware.controls import TableControls
from kiosk.settings import Settings
from kiosk.ui.table_hardware import TableHardware
from tests.english import english  # noqa: F401  (autouse in this folder)


@pytest.fixture
def table_app():
    controls = TableControls(pin_factory=MockFactory(pin_class=MockPWMPin), bounce_ms=5)
    try:
        yield SimpleNamespace(hardware=TableHardware(controls, sound=None, settings=Settings(), to_ui=lambda f: f))
    finally:
        controls.close()
