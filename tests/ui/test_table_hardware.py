"""The table's hardware on gpiozero's MockFactory: the SCAN button (pressed on the pin)
opens the camera through the Clock, the camera light is on while the camera screen shows,
the status LED says when the table must look at the screen."""

from __future__ import annotations

import time

import pytest

from tests.ui.flows import bid, start_match

pytestmark = pytest.mark.ui



def press(d, factory, pin: int) -> None:
    pin_obj = factory.pin(pin)
    pin_obj.drive_low()
    time.sleep(0.05)
    pin_obj.drive_high()
    before = d.screen
    end = time.monotonic() + 3
    while time.monotonic() < end and d.screen == before:
        d.pump(1)
        time.sleep(0.01)
    d.pump(3)  # the new screen's on_enter


def test_scan_button_light_and_status(kiosk, controls, factory):
    d = kiosk.start(controls=controls, camera_factory=None)
    assert controls.status == "ready"
    start_match(d)
    bid(d, "oros")
    press(d, factory, 17)  # SCAN
    assert d.screen == "score_camera"
    assert controls.light.value > 0
    d.tap("back")
    assert d.screen == "scoreboard" and controls.light.value == 0
    d.tap("score_points")
    d.tap("ok")  # nothing typed: a message, the LED asks for attention
    assert d.app.banner.text and controls.status == "attention"
