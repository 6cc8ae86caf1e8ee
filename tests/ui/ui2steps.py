"""Steps shared by the history, settings and diagnostics UI tests."""

from __future__ import annotations

import time

from tests.ui.harness import SHOTS, SIZES


def wait_for(d, condition, timeout: float = 20.0, what: str = "") -> None:
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, f"timed out waiting for {what or condition}"
        d.pump(1)
        time.sleep(0.01)


def shot_as(d, label: str) -> None:
    """The current screen in a named state (e.g. the PIN pad, then the options) at every size."""
    if not d.shots:
        return
    for size in SIZES[1:] + SIZES[:1]:
        d.resize(size)
        d.pump(2)
        d.grab(SHOTS / f"{size[0]}x{size[1]}" / f"{d.test_name}-{d.screen}-{label}.png")


def type_pin(d, digits: str) -> None:
    d.pump(2)  # lay out the pad first
    for ch in digits:
        d.tap(f"pin_{ch}", shot=False)
    d.tap("pin_ok", shot=False)


def open_settings(d, pin: str = "1234") -> None:
    d.tap("settings")
    assert d.screen == "settings"
    type_pin(d, pin)
    assert d.current.mode == "options", d.app.banner.text
