"""The honest save path at the session: ``saved`` only after the journal's commit returned.
A real full journal (SQLite's ``max_page_count`` on the journal's own connection) and a
real lock (another connection holding the write lock)."""

from __future__ import annotations

import sqlite3

import pytest

from kiosk.journal import Journal
from kiosk.table import DraftStore, TableSession
from kiosk.game import HandResult


@pytest.fixture
def session(tmp_path):
    db = tmp_path / "journal.sqlite"
    s = TableSession(Journal(db), drafts=DraftStore(tmp_path / "draft.json"))
    s.new_match(first_dealer=0)
    return s


def _play_hand(s: TableSession, points: int = 40):
    assert s.start_play().saved
    s.begin_score("points", team="A")
    s.propose(HandResult.from_event({"type": "hand_scored", "points": {"A": points}, "source": "points", "evidence": None}))
    return s.confirm()


def test_a_full_journal_keeps_the_hand_on_screen_and_retry_saves_it(session):
    conn = session.journal._conn  # the limit is per connection: the kiosk's own one
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")
    seen = []
    session.subscribe(seen.append)
    failed = None
    for _ in range(60):  # play hands until the file may not grow any more
        before = session.state
        if before.phase != "playing" and not session.choose_trump("oros").saved:
            failed = "trump"
            break
        if session.state.phase != "playing" and not session.start_play().saved:
            failed = "play"
            break
        session.begin_score("points", team="A")
        session.propose(HandResult.from_event({"type": "hand_scored", "points": {"A": 40}, "source": "points",
                         "evidence": None}))
        result = session.confirm()
        if not result.saved:
            failed = "hand"
            break
    assert failed is not None, "the journal never filled up"
    state = session.state
    assert state.last_save.failed and not state.last_save.saved
    assert seen[-1] is state  # the subscribers were told
    hands = len(session.journal.load(state.match_id).hands)
    assert len(session.match.hands) == hands  # the state shows only what was committed
    if failed == "hand":
        assert state.step == "confirm" and state.draft.result.points == {"A": 40}
    conn.execute(f"PRAGMA max_page_count = {pages * 100}")  # space freed
    result = session.retry() if failed == "hand" else session.choose_trump("oros")
    assert result.saved and not session.state.last_save.failed


def test_a_locked_journal_is_not_saved_then_saved(session, tmp_path):
    session.journal._conn.execute("PRAGMA busy_timeout = 100")
    other = sqlite3.connect(str(tmp_path / "journal.sqlite"), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        result = session.choose_trump("oros")
        assert not result.saved and result.error is not None
        assert session.state.phase == "choose_trump" and session.state.last_save.failed
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert session.choose_trump("oros").saved and session.state.phase == "doubling"
    assert _play_hand(session).saved and session.state.totals["A"] > 0
