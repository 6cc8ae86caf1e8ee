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

    made = []

    def camera_factory(**callbacks):
        made.append(1)
        if len(made) > 1:  # the second time: a camera that cannot even be made
            raise RuntimeError("no such camera")
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
    # the language changed while the fault is shown: said again in Spanish, the reason kept
    d.app.set_language("es")
    assert "Avería" in screen.pile.status and "numpy.core.multiarray" in screen.pile.status, screen.pile.status
    d.app.set_language("ca")
    # a camera that cannot be made at all: said with its reason, in the language of the moment
    d.tap("back")
    d.tap("score_camera")
    screen = d.current
    assert len(made) == 2 and "La càmera no funciona" in screen.pile.status, screen.pile.status
    d.app.set_language("es")
    assert screen.pile.status == "La cámara no funciona: apuntad con Cartas o Puntos (no such camera)", \
        screen.pile.status
    d.app.set_language("ca")
    d.finish()
