"""The kiosk's club model over a real table session, journal and sidecar (no window): what
the strip shows, the round's match through the one writer, the round's clock, the tap."""

from __future__ import annotations

from clubwire.payloads import EndConditions, RoundAssignment
from kiosk.club.outbox import Outbox
from kiosk.club.round import ResultState
from kiosk.club.table import ClubTable
from kiosk.journal import Journal
from kiosk.table import TableSession
from kiosk.game import HandResult

START = 1_800_000_000.0


def _bid(session) -> None:
    session.choose_trump(session.state.bids.trumps[0])


def _scored(session, points_a: int) -> None:
    if session.match.phase == "choose_trump":
        _bid(session)
    session.begin_score("points")
    session.propose(HandResult.from_event({"type": "hand_scored", "points": {"A": points_a}, "source": "points"}))
    assert session.confirm().saved


def test_the_round_from_order_to_confirmation_through_the_session(tmp_path):
    now = [START + 120]
    journal = Journal(tmp_path / "j.sqlite", clock=lambda: now[0])
    outbox = Outbox(tmp_path / "j.sqlite", "7", clock=lambda: now[0])
    session = TableSession(journal, clock=lambda: now[0])
    wakes, heard = [], []
    link = [True]
    club = ClubTable(session, outbox, notify=lambda: wakes.append(1), clock=lambda: now[0],
                     online=lambda: link[0])
    club.subscribe(lambda: heard.append(1))
    try:
        assert club.view() == club.view("es") and not club.view().title  # no order yet
        outbox.save_assignment(RoundAssignment("7", 2, 12, 3, "Can Pruna", "Els Tigres",
                                               EndConditions(101, 12, 60, 121), START, "butinet"))
        club.round_received()
        view = club.view()
        assert view.title == "Ronda 2 · Taula 7 · Parella 12 contra Parella 3" and view.can_start
        assert view.minutes_left == 58 and view.result is None and heard
        assert club.view("es").title.startswith("Ronda 2 · Mesa 7")

        assert club.start_match().saved
        assert session.state.team_names == {"A": "Can Pruna", "B": "Els Tigres"}
        assert outbox.bound_round(session.match_id) == (True, 2) and wakes
        assert session.tournament.time_left is None  # one clock only: the round's, not the match's own
        assert not club.view().can_start and club.view().result is ResultState.PLAYING

        _scored(session, 60)
        heard.clear()
        link[0] = False  # the broker went away: the strip says so at the next tick
        assert not club.tick() and heard and not club.view().online
        link[0] = True
        _bid(session)  # the second hand is being played when the time runs out
        assert not club.tick()
        now[0] = START + 3600  # the organiser started the round an hour ago
        assert club.tick() and session.tournament.time_up and club.view().minutes_left == 0
        assert not club.tick()  # once
        _scored(session, 30)
        assert session.match.is_over and session.match.end_reason == "time"
        view = club.view()
        assert view.result is ResultState.AWAITING_CONFIRMATION
        assert (view.confirming, view.confirming_name) == ("B", "Els Tigres")  # the pair that lost
        outbox.save_assignment(RoundAssignment("7", 3, 12, 5, "Can Pruna", "La Penya",
                                               EndConditions(101, 12, 60, 121), START + 3700, "butinet"))
        club.round_received()  # the next round is pushed before the opponents tapped
        view = club.view()
        assert view.round == 3 and not view.can_start and view.result is ResultState.AWAITING_CONFIRMATION
        club.confirm()
        assert outbox.confirmation(session.match_id).by == "B"
        assert club.view().can_start  # confirmed: the next round's match can begin
    finally:
        journal.close()
        outbox.close()
