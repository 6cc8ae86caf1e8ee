"""Navigation from state without a window: the screen shown is the overlay, else the step;
the scoreboard's bar follows the state; the hardware's LED follows what it is told."""

from __future__ import annotations

from dataclasses import replace

from kiosk.table import TableState, Undone
from kiosk.ui.navigation import Overlay, screen_for


def test_the_screen_shown_is_the_overlay_else_the_step():
    assert screen_for("confirm", None, reads_deck=False) == "confirm"
    assert screen_for("confirm", Overlay.EVIDENCE, reads_deck=False) == "evidence"
    assert screen_for("bidding", Overlay.SCOREBOARD, reads_deck=True) == "scoreboard"
    assert screen_for("score_camera", None, reads_deck=False) == "score_camera"
    assert screen_for("score_camera", None, reads_deck=True) == "deal"  # an ordinary deck is dealt
    assert {o.value for o in Overlay} <= {"scoreboard", "bidding", "history", "settings",
                                          "diagnostics", "learn_deck", "evidence", "replay", "seats"}


def test_the_scoreboard_bar_follows_the_state_and_the_question_asked():
    from kiosk.ui.screens.scoreboard import bar_of
    none = TableState(step="scoreboard")
    bidding = replace(none, has_match=True, phase="choose_trump")
    playing = replace(bidding, phase="playing")
    undone = replace(playing, last_undone=Undone("hand", 3, {"A": 36}), can_redo=True)
    assert bar_of(none, "") == "new_match"
    assert bar_of(replace(playing, is_over=True), "") == "new_match"
    assert [bar_of(replace(bidding, phase=p), "") for p in ("delegated", "doubling")] == ["bidding"] * 2
    assert bar_of(playing, "") == "playing"
    assert bar_of(undone, "") == "undone"
    assert bar_of(undone, "time") == "undone"  # what was undone is said before the clock's question
    assert bar_of(undone, "undo") == "ask_undo" and bar_of(playing, "abandon") == "ask_abandon"
    assert bar_of(playing, "time") == "ask_time"


def test_the_status_led_follows_the_banner_the_save_and_the_camera():
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from hardware.controls import TableControls
    from kiosk.settings import Settings
    from kiosk.ui.table_hardware import TableHardware
    factory = MockFactory(pin_class=MockPWMPin)
    controls = TableControls(pin_factory=factory, bounce_ms=5)
    try:
        pressed = []
        hardware = TableHardware(controls, sound=None, settings=Settings(), to_ui=lambda f: f)
        hardware.start(pressed.append)
        assert controls.status == "ready"
        controls.when_undo()
        assert pressed == ["undo"]
        hardware.tell(problem=True, save_failed=False)
        assert controls.status == "attention"
        hardware.camera_fault(True)
        assert controls.status == "fault"
        hardware.camera_fault(False)
        assert controls.status == "attention"  # back to what the banner shows
        hardware.tell(problem=True, save_failed=True)
        hardware.tell(problem=False, save_failed=True)
        assert controls.status == "fault"  # a refused save keeps it red until a save works
        hardware.tell(problem=False, save_failed=False)
        assert controls.status == "ready"
    finally:
        controls.close()
        factory.close()
