"""Simulated tables for the club tests and benchmark: real journals, events appended
through kiosk.journal, hands drawn from a seeded random generator."""

from __future__ import annotations

import random
import time
from typing import Callable

from clubwire.payloads import Confirmation, RoundAssignment
from kiosk.club.round import Banner, ResultState, banner, confirming_team, match_created_event, minutes_left, result_state
from kiosk.journal import Journal
from kiosk.table import TableSession
from kiosk.game import HandResult


def new_match(journal: Journal, *, preset: str = "butinet", names=("A", "B"), rules: dict | None = None) -> int:
    return journal.create_match({"type": "match_created", "rules": rules or {"preset": preset},
                                 "first_dealer": 0, "players": [None] * 4,
                                 "team_names": {"A": names[0], "B": names[1]}})


def play_hand(journal: Journal, match_id: int, rng: random.Random):
    """Append one hand (bids, maybe a doubling, the score; sometimes a misdeal or an
    undo/redo); returns the match after it."""
    match = journal.load(match_id)
    if rng.random() < 0.08:
        return journal.append(match_id, {"type": "misdeal"})
    trumps = [b for b in match.legal_bids() if b["type"] == "trump"]
    match = journal.append(match_id, rng.choice(trumps))
    doubles = [b for b in match.legal_bids() if b["type"] == "double"]
    if doubles and rng.random() < 0.2:
        match = journal.append(match_id, rng.choice(doubles))
    match = journal.append(match_id, {"type": "play"})
    points = rng.randint(0, 72)
    match = journal.append(match_id, {"type": "hand_scored", "points": {"A": points}, "source": "points"})
    if rng.random() < 0.1:
        journal.append(match_id, {"type": "undo"})
        match = journal.append(match_id, {"type": "redo"})
    return match


def play_match(journal: Journal, match_id: int, rng: random.Random, *, max_hands: int = 40):
    match = journal.load(match_id)
    while not match.is_over and len(match.hands) < max_hands:
        match = play_hand(journal, match_id, rng)
    return match


class JournalRound:
    """A table's part of a round written straight into a journal (no session, no screen):
    the many simulated tables of the club tests and benchmark. The kiosk itself plays a
    round through :class:`kiosk.club.table.ClubTable` over its table session.

    Args:
        journal: the table's Journal. outbox: the publisher's sidecar (``publisher.outbox``).
        notify: tells the publisher the journal changed (``publisher.notify``).
    """

    def __init__(self, journal: Journal, outbox, *, notify: Callable[[], None] = lambda: None,
                 clock: Callable[[], float] = time.time) -> None:
        self.journal = journal
        self.outbox = outbox
        self._notify = notify
        self._clock = clock

    @property
    def assignment(self) -> RoundAssignment | None:
        return self.outbox.assignment()

    def banner(self, lang: str = "ca") -> Banner | None:
        a = self.assignment
        return banner(a, lang=lang, now=self._clock()) if a else None

    def start_match(self) -> int:
        """Create the round's match in the journal and bind it to the round."""
        a = self.assignment
        if a is None:
            raise LookupError("no round order received from the organiser yet")
        match_id = self.journal.create_match(match_created_event(a))
        self.outbox.bind_round(match_id, a.round)
        self._notify()
        return match_id

    def enforce_time(self, match_id: int) -> bool:
        """Append ``time_up`` once the round's time has run out; True if it did now."""
        a = self.assignment
        found, bound = self.outbox.bound_round(match_id)
        if a is None or not found or bound != a.round or minutes_left(a, now=self._clock()) != 0:
            return False
        match = self.journal.load(match_id)
        if match.is_over or match.time_up or "time_up" not in match.available_events():
            return False
        self.journal.append(match_id, {"type": "time_up"})
        self._notify()
        return True

    def state(self, match_id: int) -> ResultState:
        return result_state(self.journal.load(match_id), self.outbox.confirmation(match_id))

    def confirm(self, match_id: int, by: str) -> None:
        """The opponents' tap: ``by`` must be :func:`confirming_team` of the finished match."""
        match = self.journal.load(match_id)
        if not match.is_over:
            raise ValueError("only a finished match's result can be confirmed")
        if by != confirming_team(match):
            raise ValueError(f"the result is confirmed by pair {confirming_team(match)}, the opponents")
        self.outbox.save_confirmation(Confirmation(self.outbox.table, match_id, by, len(match.events)))
        self._notify()


def play_hand_through(session: TableSession, rng: random.Random) -> None:
    """One hand through the table session, as the screens play it: a trump, then the points."""
    if session.match.phase == "choose_trump":
        session.choose_trump(rng.choice(session.state.bids.trumps))
    session.begin_score("points")
    session.propose(HandResult.from_event({"type": "hand_scored", "points": {"A": rng.randint(0, 72)}, "source": "points"}))
    assert session.confirm().saved
