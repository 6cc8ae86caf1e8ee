"""On a Pi where Picamera2 cannot be imported, the camera screen says so with the reason and
the status LED turns red (issue 14): never the demo photos without a word."""

from __future__ import annotations

import sys

import pytest

from tests.ui.flows import bid, start_match, wait_for

pytestmark = pytest.mark.ui




def test_picamera2_that_cannot_be_imported_is_a_fault_on_screen_and_led(kiosk, controls, tmp_path, monkeypatch):
    from vision.reader import PileReader
    from vision.service import StickerService
    from vision.sources.picamera2 import Picamera2Source

    # a real import failure: a picamera2 package that raises what a numpy-ABI break raises
    fake = tmp_path / "pkg" / "picamera2"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('numpy.core.multiarray failed to import')\n")
    monkeypatch.syspath_prepend(str(tmp_path / "pkg"))
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)

    def camera_factory(**callbacks):
        return StickerService(Picamera2Source(on_pi=True), PileReader(marks="aruco"), **callbacks)

    d = kiosk.start(controls=controls, camera_factory=camera_factory)
    start_match(d)
    bid(d, "oros")
    assert controls.status == "ready"
    d.tap("score_camera")
    screen = d.current
    assert wait_for(d, lambda: "numpy.core.multiarray" in screen.pile.status), screen.pile.status
    assert "Avaria" in screen.pile.status
    assert controls.status == "fault"
    d.pump(1, draw=True)
    d.shot()
    d.finish()
