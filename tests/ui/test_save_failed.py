"""A save the journal refuses: the kiosk says the hand was NOT saved, keeps it on screen,
turns the status LED red with the error cue, and saves it on "Try again" once the journal
works again. The faults are real SQLite ones on the test's own journal file."""

from __future__ import annotations

import sqlite3

import pytest

from hardware.controls import ERROR
from kiosk.journal import Journal
from tests.ui.flows import bid, score_points, start_match

pytestmark = pytest.mark.ui



def _lock(db) -> sqlite3.Connection:
    """Another process's writer holding the journal's write lock (as a second kiosk or a
    CLI import would)."""
    other = sqlite3.connect(str(db), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    return other


def test_a_refused_save_keeps_the_hand_and_says_not_saved(kiosk, controls, factory):
    d = kiosk.start(controls=controls)
    start_match(d)
    bid(d, "oros")
    score_points(d, "A", 50)
    buzzer = factory.pin(12)  # the buzzer's pin: what it played is in its recorded states
    controls.buzzer.wait(3)
    buzzer.clear_states()
    # The kiosk's own connection gives up on a lock after 0.2 s instead of 10 (the test's
    # patience; the lock itself is real).
    d.app.journal._conn.execute("PRAGMA busy_timeout = 200")
    other = _lock(kiosk.db)
    try:
        d.tap("confirm")
        assert d.screen == "confirm"  # the hand stays on screen
        assert d.current.save_failed and d.current.ids.not_saved.text
        assert "NO" in d.app.banner.text  # "NO s'ha guardat"
        assert controls.status == "fault"
        assert controls.buzzer.wait(3)
        sounded = [s for s in buzzer.states if s.state]
        assert 1 <= len(sounded) <= len(ERROR)  # the error cue (a chord would be 4 notes)
        assert d.app.vm.state.draft.event["points"] == {"A": 50}
        d.shot(force=True)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert len(Journal(kiosk.db).load(d.app.vm.state.match_id).hands) == 0  # nothing written
    d.tap("confirm")  # "Torna-ho a provar"
    assert d.screen == "scoreboard" and d.app.vm.state.totals["A"] > 0
    assert controls.status == "ready" and not d.app.banner.text
    assert len(Journal(kiosk.db).load(d.app.vm.state.match_id).hands) == 1
