"""Undo says what it took back and can be redone; an edit shows its totals before it is
saved; a match left in play is resumed by id; a camera read applies the hand once."""

from __future__ import annotations

import pytest

from kiosk.journal import Journal
from kiosk.table import DraftStore, TableSession
from kiosk.game import HandResult


@pytest.fixture
def session(tmp_path):
    s = TableSession(Journal(tmp_path / "journal.sqlite"), drafts=DraftStore(tmp_path / "draft.json"))
    s.new_match(first_dealer=0)
    return s


def _hand(s: TableSession, team: str, points: int) -> None:
    s.choose_trump("oros")
    s.start_play()
    s.begin_score("points", team=team)
    s.propose(HandResult.from_event({"type": "hand_scored", "points": {team: points}, "source": "points", "evidence": None}))
    assert s.confirm().saved


def test_undo_says_what_it_took_back_and_redo_puts_it_back(session):
    _hand(session, "A", 72)
    totals = dict(session.state.totals)
    preview = session.undo_preview()
    assert preview.kind == "hand" and preview.hand_number == 1 and preview.scored["A"] == totals["A"]
    assert session.state.totals == totals  # a preview changes nothing
    assert session.undo().saved
    assert session.state.last_undone == preview and session.state.can_redo
    assert session.state.totals == {"A": 0, "B": 0}
    assert session.redo().saved and session.state.totals == totals
    assert session.state.last_undone is None  # its cause is gone
    session.choose_trump("copes")
    assert session.undo_preview().kind == "bid"


def test_an_edit_shows_the_new_totals_before_it_is_saved(session):
    _hand(session, "A", 50)
    before = dict(session.state.totals)
    after = session.edit_preview(0, {"trump": "oros", "delegated": False, "doubling": "none",
                                     "points": {"B": 50}})
    assert after == {"A": 0, "B": 14} and session.state.totals == before
    assert session.edit_hand(0, {"trump": "oros", "delegated": False, "doubling": "none",
                                 "points": {"B": 50}}).saved
    assert session.state.totals == after


def test_a_match_left_in_play_is_resumed_by_id(session, tmp_path):
    _hand(session, "B", 60)
    first, totals = session.state.match_id, dict(session.state.totals)
    session.new_match()
    assert session.state.match_id != first and session.state.totals == {"A": 0, "B": 0}
    session.resume(first)
    assert session.state.match_id == first and session.state.totals == totals


def test_a_proposed_hand_is_applied_once_not_on_every_look(session, monkeypatch):
    session.choose_trump("oros")
    session.start_play()
    session.begin_score("camera")
    session.add_read_cards(["1O", "3O", "12O", "11O"])
    session.update_draft(team="A")
    assert session.state.draft.cards == ("1O", "3O", "12O", "11O") and session.state.draft.pile_owner_chosen
    from kiosk.game import Match
    calls = []
    real = Match.apply
    monkeypatch.setattr(Match, "apply", lambda self, ev: calls.append(ev["type"]) or real(self, ev))
    session.propose(HandResult.from_event({"type": "hand_scored", "piles": {"A": ["1O", "3O", "12O", "11O"]},
                     "source": "camera", "evidence": None}))
    points = session.state.pending.breakdown[0].points
    for _ in range(5):  # the confirmation read many times: by screens, a publisher...
        assert session.state.pending.breakdown[0].points == points
    assert calls.count("hand_scored") == 1  # checked and previewed in one go


def test_an_unfinished_game_without_pairs_is_resumed_at_the_table(tmp_path):
    """An imported three-player match is the table's match at start (issue 24): one total
    per seat, on the variants' scoreboard."""
    path = tmp_path / "journal.sqlite"
    with Journal(path) as j:
        three = j.create_match({"type": "match_created", "variant": "three",
                                "rules": {"preset": "reglament"}, "first_dealer": 0,
                                "players": ["Anna", "Pere", "Marta"]})
        assert j.current_match().match_id == three
    s = TableSession(Journal(path), drafts=DraftStore(tmp_path / "draft.json"))
    s.resume()
    assert s.match_id == three and s.state.step == "variant_board"
    assert s.state.game.totals == (0, 0, 0) and s.state.game.players == ("Anna", "Pere", "Marta")
