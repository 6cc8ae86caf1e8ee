"""Trick mode at the table (kiosk/table/tricks.py): each card one journal event, a restart
resumes at the same trick, the 12th trick ends on the confirmation with the tricks' points,
a renunci is scored only when the table confirms it and corrected when it dismisses it."""

from __future__ import annotations

import pytest

from kiosk.game import Match, match_from_json
from kiosk.game.errors import IllegalPlayError
from kiosk.journal import Journal
from kiosk.settings import Settings
from kiosk.table import TableSession
from kiosk.table.drafts import DraftStore
from tests.table.trickplay import play_hand


def tricks_settings() -> Settings:
    settings = Settings()
    settings.set("camera.mode", "tricks")
    return settings


def session_at(tmp_path, settings=None) -> TableSession:
    return TableSession(Journal(tmp_path / "j.sqlite"), settings=settings or tricks_settings(),
                        drafts=DraftStore(tmp_path / "draft.json"))


def started(tmp_path) -> TableSession:
    session = session_at(tmp_path)
    session.new_match(first_dealer=0)
    session.choose_trump("oros")
    return session


def test_each_card_is_one_journal_event_and_a_restart_resumes_at_the_same_trick(tmp_path):
    session = started(tmp_path)
    plays = play_hand(3, trump="oros", first_lead=1)
    for trick, seat, card in plays[:21]:  # the first card closes the bidding
        assert session.trick_play.play_card(seat, card).saved
    state = session.state
    assert state.step == "tricks" and state.phase == "playing"
    assert state.tricks.number == 6 and state.tricks.played == 21
    events = session.journal.load(session.match_id).events
    assert [e for e in events if e["type"] == "card_played"][-1] == \
        {"type": "card_played", "trick": 6, "seat": plays[20][1], "card": plays[20][2]}
    with pytest.raises(IllegalPlayError, match="already played"):
        session.trick_play.play_card(plays[21][1], plays[0][2])  # a card already played: nothing written
    assert session.state.events == state.events
    again = session_at(tmp_path)  # the power cut: a new session over the same journal
    assert again.state.step == "tricks" and again.state.tricks == state.tricks
    for trick, seat, card in plays[21:]:
        again.trick_play.play_card(seat, card)
    after = again.state
    assert after.step == "confirm" and after.tricks.complete and after.tricks.played == 48
    breakdown = {b.team: b.points for b in after.pending.breakdown}
    assert breakdown == after.tricks.points and sum(breakdown.values()) == 72
    assert again.confirm().saved
    assert again.state.step == "scoreboard" and again.state.tricks is None  # the next hand's bidding
    folded = Match.from_events(again.journal.load(again.match_id).events)
    assert folded.hands[0].points == breakdown
    assert [(p.trick, p.seat, p.card.code) for p in folded.cards_of_hand(0).events] == plays  # History's replay
    assert folded.apply({"type": "undo"}).cards_in_play.played_hand() == folded.cards_of_hand(0).played_hand()
    exported = again.journal.export_match(again.match_id)  # `export`: the tricks, from each leader
    tricks = exported["hands"][0]["tricks"]
    assert len(tricks) == 12 and [c for t in tricks for c in t] == [c for _, _, c in plays]
    imported = match_from_json(exported)
    assert imported.cards_of_hand(0) == folded.cards_of_hand(0) and imported.to_json() == exported
    with pytest.raises(Exception, match="already played"):
        match_from_json({**exported, "hands": [{**exported["hands"][0], "tricks": [tricks[0]] * 12}]})


def test_a_card_before_the_bidding_is_closed_is_refused_and_an_undo_takes_a_card_back(tmp_path):
    match = Match.create("reglament").apply({"type": "trump", "seat": 0, "trump": "copes"})
    card = {"type": "card_played", "trick": 1, "seat": 1, "card": "1O"}
    with pytest.raises(Exception, match="once the bidding is over"):
        match.apply(card)
    playing = match.apply({"type": "play"}).apply(card)
    assert playing.cards_in_play.to_play == 2
    assert playing.apply({"type": "undo"}).cards_in_play is None
    assert playing.apply({"type": "undo"}).apply({"type": "redo"}) == playing
    assert playing.apply({"type": "penalty", "offender": "B"}).cards_in_play is None


def test_a_renunci_is_only_scored_when_confirmed_and_a_dismissed_one_is_corrected(tmp_path):
    session = started(tmp_path)
    plays = play_hand(5, trump="oros", first_lead=1, renunci_at=6)
    shown = None
    for trick, seat, card in plays:
        session.trick_play.play_card(seat, card)
        shown = session.state.tricks.renunci
        if shown is not None:
            break
    assert shown is not None and session.state.step == "tricks"  # shown, nothing scored
    assert len(session.state.pending.breakdown if session.state.pending else ()) == 0
    offender = (shown.trick, shown.seat, shown.card)
    assert offender == next(p for p in plays if p[2] == shown.card)
    session.trick_play.confirm_renunci()
    assert session.state.step == "penalty" and session.state.draft.result.event == {"type": "penalty",
                                                                                   "offender": shown.team}
    session.cancel()  # back at the trick: the table dismisses it instead (a misread)
    assert session.state.step == "tricks"
    hand = session.trick_play.hand_in_play()
    played = {p.card.code for p in hand.events}
    legal_again = next(c for c in (f"{r}{s}" for s in "OCEB" for r in range(1, 13))
                       if c not in played and c[-1] == shown.proof_card[-1])
    before = session.state.events
    with pytest.raises(IllegalPlayError):
        session.trick_play.dismiss_renunci(shown.proof_card)  # already played: refused
    assert session.trick_play.dismiss_renunci(legal_again).saved
    assert session.state.events == before + 1
    corrected = [e for e in session.journal.load(session.match_id).events if e["type"] == "card_corrected"]
    assert corrected == [{"type": "card_corrected", "trick": shown.trick, "seat": shown.seat,
                          "card": legal_again}]
    assert session.state.tricks.renunci is None or session.state.tricks.renunci != shown


def test_a_kill_9_mid_hand_resumes_at_the_same_trick(tmp_path):
    """A real process killed by SIGKILL while it plays: every card it was told was saved is
    there, the hand resumes at the trick it had reached and goes on to the confirmation."""
    import os
    import signal
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    child = subprocess.Popen([sys.executable, "-m", "tests.table.trick_child", str(tmp_path)], cwd=root,
                             stdout=subprocess.PIPE, text=True)
    acked = 0
    for line in child.stdout:
        acked = int(line.split()[1])
        if acked >= 22:
            os.kill(child.pid, signal.SIGKILL)
            break
    child.wait()
    assert child.returncode == -signal.SIGKILL and 22 <= acked < 48
    session = session_at(tmp_path)
    view = session.state.tricks
    cards = [e for e in session.journal.load(session.match_id).events if e["type"] == "card_played"]
    assert session.state.step == "tricks" and view.played == len(cards) >= acked
    assert view.number == cards[-1]["trick"] + (len(cards) % 4 == 0)  # the same trick
    if len(cards) % 4:
        on_table = {e["seat"]: e["card"] for e in cards if e["trick"] == view.number}
        assert {s: c for s, c in enumerate(view.table.cards) if c} == on_table
        assert view.to_play == (cards[-1]["seat"] + 1) % 4
    plays = play_hand(3, trump="oros", first_lead=1)
    assert [(e["trick"], e["seat"], e["card"]) for e in cards] == plays[:len(cards)]
    for trick, seat, card in plays[len(cards):]:
        session.trick_play.play_card(seat, card)
    assert session.state.step == "confirm" and session.confirm().saved


def test_piles_mode_stays_the_default(tmp_path):
    session = session_at(tmp_path, Settings())
    session.new_match(first_dealer=0)
    session.choose_trump("oros")
    session.start_play()
    assert session.state.step == "scoreboard" and session.state.tricks is None
