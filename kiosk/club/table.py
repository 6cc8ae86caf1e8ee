"""The table's round as its screens show it: a Kivy-free model over the one writer.

``ClubTable`` joins the table session (:class:`kiosk.table.TableSession`, which writes every
event) and the publisher's sidecar (:class:`kiosk.club.outbox.Outbox`: the round order
received, the round each match belongs to, the opponents' confirmation). The screens only
read :class:`ClubView` and call :meth:`start_match`, :meth:`confirm` and :meth:`tick`;
everything is called on the UI thread (a round order comes from paho's thread through the
app's ``to_ui`` into :meth:`round_received`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from clubwire.payloads import Confirmation, RoundAssignment
from kiosk.club.publisher import Publisher
from kiosk.club.round import ResultState, banner, confirming_team, match_created_event, result_state
from kiosk.table import SaveResult, TableSession


@dataclass(frozen=True)
class ClubView:
    """What the club strip shows. ``title`` is "" until the organiser's order is in."""

    title: str = ""                   # "Ronda 3 · Taula 7 · Parella 12 contra Parella 3"
    ends: str = ""                    # "101 punts · 12 mans · 60 min · màx. 121"
    round: int | None = None
    minutes_left: int | None = None   # the round's clock, whole minutes rounded up
    can_start: bool = False           # an order is in and this table has not begun its match
    online: bool = True               # the link to the broker is up (the results wait if not)
    result: ResultState | None = None  # None: the match on the table is not the round's
    confirming: str | None = None     # the pair whose tap confirms the result ("A" / "B")
    confirming_name: str = ""


class ClubTable:
    """The kiosk's side of a tournament round, for the screens.

    Args:
        session: the table's :class:`kiosk.table.TableSession` (the one writer).
        outbox: the publisher's sidecar (``publisher.outbox``).
        notify: wakes the publisher after a change of the sidecar it must send (``publisher.wake``).
        clock: seconds since the epoch (the round's clock; the organiser's start time).

    Example::

        club = ClubTable(session, publisher.outbox, notify=publisher.wake)
        if club.view().can_start: club.start_match()
        club.tick()                      # once a second, on the UI thread
    """

    def __init__(self, session, outbox, *, notify: Callable[[], None] = lambda: None,
                 clock: Callable[[], float] = time.time, online: Callable[[], bool] = lambda: True) -> None:
        self.session = session
        self.outbox = outbox
        self._notify = notify
        self._online = online
        self._clock = clock
        self._listeners: list[Callable[[], None]] = []
        self._assignment = outbox.assignment()
        self._shown: tuple | None = None
        session.subscribe(lambda state: self._changed())

    @classmethod
    def over(cls, publisher: Publisher, session: TableSession, to_ui: Callable, **options) -> "ClubTable":
        """The club of a running publisher, which follows ``session`` from now on (each
        state it hands out); its round orders (on paho's thread) reach the club through
        ``to_ui`` (the app's one hand-off to the UI loop)."""
        publisher.follow(session)
        club = cls(session, publisher.outbox, notify=publisher.wake,
                   online=lambda: publisher.status().connected, **options)
        publisher.on_round = to_ui(club.round_received)
        club.round_received()  # an order kept just before on_round was set is not missed
        return club

    # ------------------------------------------------------------------ observers
    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        """``listener()`` after each change of what :meth:`view` would say."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _changed(self) -> None:
        for listener in list(self._listeners):
            listener()

    def round_received(self, assignment: RoundAssignment | None = None) -> None:
        """A round order arrived (the publisher kept it in the sidecar first)."""
        self._assignment = assignment or self.outbox.assignment()
        self._changed()

    # ------------------------------------------------------------------ reading
    @property
    def assignment(self) -> RoundAssignment | None:
        return self._assignment

    def _bound_round(self) -> int | None:
        """The round the match on the table belongs to (bound when it began, by us or the
        publisher), or None."""
        match_id = self.session.match_id
        if match_id is None:
            return None
        found, number = self.outbox.bound_round(match_id)
        return number if found else None

    def _round_match(self) -> bool:
        a = self._assignment
        return a is not None and self._bound_round() == a.round

    def view(self, lang: str = "ca") -> ClubView:
        a = self._assignment
        if a is None:
            return ClubView()
        b = banner(a, lang=lang, now=self._clock())
        online = self._online()
        bound, match = self._bound_round(), self.session.match
        result = result_state(match, self.outbox.confirmation(self.session.match_id)) \
            if bound is not None else None
        # an earlier round's result still waiting for the tap comes before the next round
        if bound != a.round and result is not ResultState.AWAITING_CONFIRMATION:
            return ClubView(b.title, b.ends, a.round, b.minutes_left, can_start=True, online=online)
        team = confirming_team(match) if match.is_over else None
        return ClubView(b.title, b.ends, a.round, b.minutes_left, False, online, result, team,
                        match.team_names[team] if team else "")

    # ------------------------------------------------------------------ acting
    def start_match(self) -> SaveResult:
        """Begin the round's match: the organiser's pairs as the teams, the end conditions in
        the rules (the core ends it at the target, after N hands, and caps the points)."""
        a = self._assignment
        if a is None:
            raise LookupError("no round order received from the organiser yet")
        result = self.session.new_match_from(match_created_event(a))
        if result.saved:
            self.outbox.bind_round(self.session.match_id, a.round)
            self._notify()
            self._changed()
        return result

    def tick(self) -> bool:
        """Once a second: when the round's time has run out, the match in play ends after
        the hand in progress (``time_up``, journalled once through the session). True when
        it was saved now; a view that changed (a minute went by, the link went down or came
        back) is told to the observers."""
        a, session = self._assignment, self.session
        ran_out = False
        if (a is not None and self._round_match() and session.tournament.can_call_time
                and banner(a, now=self._clock()).minutes_left == 0
                and not session.tournament.ever_called):
            ran_out = session.call_time().saved  # publishes the new state: observers hear it
        shown = (a and a.round, a and banner(a, now=self._clock()).minutes_left, self._online())
        if shown != self._shown:
            self._shown = shown
            self._changed()
        return ran_out

    def confirm(self) -> None:
        """The opponents' tap: kept in the sidecar and sent until the organiser acks it."""
        match = self.session.match
        if self._bound_round() is None or match is None or not match.is_over:
            raise ValueError("only a round's finished match can be confirmed")
        self.outbox.save_confirmation(Confirmation(self.outbox.table, self.session.match_id,
                                                   confirming_team(match), len(match.events)))
        self._notify()
        self._changed()
