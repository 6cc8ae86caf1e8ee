"""A save the journal refuses: the kiosk says the hand was NOT saved, keeps it on screen,
turns the status LED red with the error cue, and saves it on "Try again" once the journal
works again. The faults are real SQLite ones on the test's own journal file."""

from __future__ import annotations

import sqlite3

import pytest

from hardware.controls import ERROR
from kiosk.journal import Journal, JournalFull
from tests.faults import places
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
        assert d.app.session.state.draft.result.points == {"A": 50}
        d.shot(force=True)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert len(Journal(kiosk.db).load(d.app.session.state.match_id).hands) == 0  # nothing written
    d.tap("confirm")  # "Torneu-ho a provar"
    assert d.screen == "scoreboard" and d.app.session.state.totals["A"] > 0
    assert controls.status == "ready" and not d.app.banner.text
    assert len(Journal(kiosk.db).load(d.app.session.state.match_id).hands) == 1


@pytest.mark.skipif(not places.can_mount(), reason="needs root to mount a tmpfs (CI runs as root)")
def test_a_full_disk_refuses_the_hand_and_the_window_says_so(kiosk, tmp_path):
    """A really full disk (a small tmpfs filled up) while a hand is confirmed: the message
    is in the kiosk's own window (screenshot), the hand stays; space again, it saves."""
    with places.small_disk(tmp_path / "disk") as disk:
        kiosk.db = disk / "journal.sqlite"
        d = kiosk.start()
        start_match(d)
        bid(d, "oros")
        score_points(d, "A", 50)
        filler = places.fill(disk)
        d.tap("confirm", shot=False)
        assert d.screen == "confirm" and d.current.save_failed
        assert "NO" in d.app.banner.text and d.app.banner.height > 0
        assert isinstance(d.app.session.state.last_save.error, JournalFull)  # SQLite: disk full
        d.shot(force=True)  # the message, at every size
        d.finish()
        filler.unlink()
        d.tap("confirm", shot=False)  # "Torneu-ho a provar": there is space again
        assert d.screen == "scoreboard" and d.app.session.state.totals["A"] > 0
        kiosk.stop()
