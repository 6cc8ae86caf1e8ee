"""The publisher's backlog over a real table session, journal and sidecar (no broker): it
reads a match's events only when the session's state says there are new ones, and the
table's report is the session's state, equal to what a fold of the journal says."""

from __future__ import annotations

import random

from clubwire.payloads import EndConditions, RoundAssignment
from kiosk.club.backlog import Backlog
from kiosk.club.outbox import Outbox
from kiosk.journal import Journal
from kiosk.table import TableSession
from tests.club.sim import new_match, play_hand, play_hand_through

START = 1_800_000_000.0


def test_the_backlog_reads_the_journal_only_when_the_session_has_new_events(tmp_path):
    now = [START + 300]
    journal = Journal(tmp_path / "j.sqlite", clock=lambda: now[0])
    reader = Journal(tmp_path / "j.sqlite", recover=False)
    outbox = Outbox(tmp_path / "j.sqlite", "7", clock=lambda: now[0])
    outbox.save_assignment(RoundAssignment("7", 2, 12, 3, "", "", EndConditions(101, 12, 60, 121), START, "butinet"))
    session = TableSession(journal, clock=lambda: now[0])
    backlog = Backlog(reader, outbox)
    try:
        assert backlog.refresh(scan=True, state=session.state, round_known=True) == 0
        assert backlog.tracked == {} and backlog.report("7", None) is None  # no match yet
        session.new_match()
        rng = random.Random(3)
        for _ in range(3):
            play_hand_through(session, rng)
        backlog.refresh(scan=False, state=session.state, round_known=True)
        tracked = backlog.tracked[session.match_id]
        assert tracked.events == journal.events(session.match_id) and tracked.round == 2
        session.begin_score("points")  # a draft: a new state, no new event
        backlog.refresh(scan=False, state=session.state, round_known=True)
        assert backlog.tracked[session.match_id] is tracked  # not read again

        match = journal.load(session.match_id)  # the fold the report stands for
        report = backlog.report("7", outbox.assignment(), clock=lambda: now[0])
        assert (report.match, report.totals, report.hands, report.hand, report.max_hands, report.over,
                report.winner, report.round) == (session.match_id, match.totals, len(match.hands),
                                                 match.hand_number, match.rules.max_hands, match.is_over,
                                                 match.winner, 2)
        assert report.minutes_left == 55
    finally:
        journal.close()
        reader.close()
        outbox.close()


def test_another_writers_matches_are_read_by_a_scan(tmp_path):
    journal = Journal(tmp_path / "j.sqlite")
    outbox = Outbox(tmp_path / "j.sqlite", "7")
    backlog = Backlog(journal, outbox)
    try:
        match_id = new_match(journal)
        play_hand(journal, match_id, random.Random(1))
        backlog.refresh(scan=False, state=None, round_known=True)
        assert backlog.tracked == {}  # nobody said so
        assert backlog.refresh(scan=True, state=None, round_known=False) == 1  # waits for the round order
        backlog.refresh(scan=True, state=None, round_known=True)
        assert backlog.tracked[match_id].events == journal.events(match_id)
        assert backlog.report("7", None) is None  # no session: no report
    finally:
        journal.close()
        outbox.close()
