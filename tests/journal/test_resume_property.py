"""Stateful property: whatever the table does (bids, hands, penalties, misdeals, undo,
redo) and whenever the kiosk restarts, the journal's match equals the one in memory."""
from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from kiosk.game import BotifarraError
from kiosk.journal import Journal
from tests.journal.helpers import created


class TableSession(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="journal-prop-"))
        self.journal = Journal(self.dir / "journal.sqlite")
        self.match_id = self.journal.create_match(created(first_dealer=2, preset="butinet"))
        self.match = self.journal.load(self.match_id)
        self.refused = 0

    def teardown(self) -> None:
        self.journal.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def _do(self, event: dict) -> None:
        try:
            expected = self.match.apply(event)
        except BotifarraError:
            before = len(self.journal.events(self.match_id))
            try:
                self.journal.append(self.match_id, event)
            except BotifarraError:
                self.refused += 1
            else:
                raise AssertionError(f"the journal accepted an illegal {event}")
            assert len(self.journal.events(self.match_id)) == before
            return
        self.match = self.journal.append(self.match_id, event)
        assert self.match == expected

    @precondition(lambda self: not self.match.is_over)
    @rule(data=st.data())
    def bid(self, data):
        bids = self.match.legal_bids()
        if bids:
            self._do(data.draw(st.sampled_from(bids)))

    @rule(team=st.sampled_from("AB"), points=st.integers(0, 72))
    def score(self, team, points):
        self._do({"type": "hand_scored", "points": {team: points}, "source": "points",
                  "evidence": None})

    @rule(offender=st.sampled_from("AB"))
    def penalty(self, offender):
        self._do({"type": "penalty", "offender": offender})

    @rule()
    def misdeal(self):
        self._do({"type": "misdeal"})

    @rule()
    def undo(self):
        self._do({"type": "undo"})

    @rule()
    def redo(self):
        self._do({"type": "redo"})

    @rule(seat=st.integers(0, 3), trump=st.sampled_from(["oros", "botifarra", "copes"]))
    def any_trump(self, seat, trump):  # often illegal: must be refused and not written
        self._do({"type": "trump", "seat": seat, "trump": trump})

    @rule()
    def restart(self):
        self.journal.close()
        self.journal = Journal(self.dir / "journal.sqlite")
        current = self.journal.current_match()
        if self.match.is_over:
            assert current is None
            return
        assert current.match_id == self.match_id
        self.match = current.match

    @invariant()
    def journal_equals_memory(self):
        stored = self.journal.load(self.match_id)
        assert stored == self.match
        assert stored.phase == self.match.phase and stored.totals == self.match.totals


TableSession.TestCase.settings = settings(max_examples=20, stateful_step_count=30, deadline=None)
test_the_journal_follows_the_table = pytest.mark.slow(TableSession.TestCase)  # fsyncs: ~6 s
