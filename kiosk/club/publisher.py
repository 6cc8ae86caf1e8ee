"""``Publisher``: sends a table's journal events to the organiser until acknowledged.

It follows the table session (:meth:`Publisher.follow`): each state the session hands out
tells it which match has new events and what the table shows, so it reads the journal only
when there is something new and never folds a match itself (:mod:`kiosk.club.backlog`).
The journal is the outbox (paho keeps an unsent QoS 1 message in memory only, and a broker
killed with SIGKILL can lose what it already acknowledged), so nothing counts as delivered
until the organiser's app acks it on ``.../ack``. The publisher only hands paho a message
while connected, at most ``window`` in flight and ``max_per_second`` a second, so an
outage's backlog drains at a steady pace instead of as a flood.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from clubwire import topics
from clubwire.payloads import Ack, BadMessage, EventMessage, RoundAssignment
from kiosk.club.backlog import Backlog
from kiosk.club.outbox import Outbox
from kiosk.journal import Journal
from kiosk.table import TableSession, TableState

log = logging.getLogger(__name__)
SESSION_EXPIRY_S = 7 * 24 * 3600   # the broker keeps our subscriptions and queued acks a week
ROUND_GRACE_S = 0.3


@dataclass(frozen=True)
class PublisherStatus:
    connected: bool
    pending: int            # events written but not acknowledged
    error: str | None       # the latest connection refusal, in plain words


class Publisher:
    """Publishes the journal at ``journal_path`` as table ``table`` to ``broker``.

    Args:
        journal_path: the kiosk's journal (opened read-only; the kiosk stays the writer).
        table: the table's name: its topic level and its broker login.
        broker: ``mqtt://host:port`` or ``mqtts://host:port``.
        user, password: the table's broker login (user defaults to the table name).
        resend_after_s: resend an event not acked after this long.
        max_per_second, window: the pacing.
        poll_s: how often the delivery wakes by itself, to resend and to update the round's
            minutes in the table's report (it never reads the journal for that).
        on_round: called (on paho's thread) with each RoundAssignment received (settable).

    Raises:
        BadBrokerURL, BadTableName: at construction.

    Example::

        pub = Publisher(db, "7", "mqtt://127.0.0.1:1883", password="s3cret")
        pub.start(); pub.follow(session)   # hears every state the table session hands out
        pub.wait_acked(timeout=30); pub.stop()
    """

    def __init__(self, journal_path: str | os.PathLike, table: str, broker: str, *,
                 user: str | None = None, password: str | None = None, ca_file: str | None = None,
                 resend_after_s: float = 3.0, max_per_second: float = 200.0, window: int = 64,
                 poll_s: float = 1.0, on_round: Callable[[RoundAssignment], None] | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.table = topics.check_table(table)
        self._host, self._port, tls = topics.parse_broker(broker)
        self.journal_path = Path(journal_path)
        self.outbox = Outbox(journal_path, table, clock=clock)
        self._clock = clock
        self._resend_after_s = resend_after_s
        self._max_per_second = max_per_second
        self._window = window
        self._poll_s = poll_s
        self.on_round = on_round
        self._cond = threading.Condition()
        self._dirty = True
        self._scan = True             # read the whole journal at the next pump (the backlog)
        self._handed: TableState | None = None  # the session's latest state, not yet taken
        self._stopping = False
        self._connected = False
        self._error: str | None = None
        self._pending = -1           # unknown until the first scan
        self._settled = False        # True once connected and the retained messages are in
        # (match, seq) -> when sent; seq 0 = the match's confirmation. Only the publisher's
        # thread touches it; paho's thread only moves _acked and raises _reconnected.
        self._inflight: dict[tuple[int, int], float] = {}
        self._reconnected = False
        self._subscribed_at: float | None = None
        # what the organiser we last heard from has acked (its id comes retained on
        # ORGANISER_ID; a different id is a new tournament file that has nothing yet)
        self._organiser = self.outbox.organiser()
        self._acked: dict[int, int] = {}
        self._confirm_acked: set[int] = set()
        self._load_acks()
        self._backlog: Backlog | None = None
        self._last_report: bytes | None = None
        self._tokens = float(window)
        self._token_time = time.monotonic()
        self._thread: threading.Thread | None = None
        self._journal: Journal | None = None

        self._client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"table-{table}",
                                   protocol=mqtt.MQTTv5)
        self._client.username_pw_set(user or table, password)
        if tls:
            self._client.tls_set(ca_certs=ca_file)
        self._client.will_set(topics.topic(table, "online"), b"offline", qos=1, retain=True)
        self._client.reconnect_delay_set(min_delay=1, max_delay=8)
        self._client.max_inflight_messages_set(window)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_message = self._on_message
        self._client.on_subscribe = self._on_subscribe

    # -- life --------------------------------------------------------------------------

    def start(self) -> None:
        self._journal = Journal(self.journal_path, recover=False)
        self._backlog = Backlog(self._journal, self.outbox)
        props = Properties(PacketTypes.CONNECT)
        props.SessionExpiryInterval = SESSION_EXPIRY_S
        self._client.connect_async(self._host, self._port, keepalive=10, clean_start=False,
                                   properties=props)
        self._client.loop_start()
        self._thread = threading.Thread(target=self._run, name=f"club-publisher-{self.table}", daemon=True)
        self._thread.start()

    def stop(self, *, say_offline: bool = True) -> None:
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        if self._thread:
            self._thread.join(timeout=10)
        if say_offline and self._connected:
            self._client.publish(topics.topic(self.table, "online"), b"offline", qos=1, retain=True)
        self._client.disconnect()
        self._client.loop_stop()
        if self._journal is not None:
            self._journal.close()
        self.outbox.close()

    def follow(self, session: TableSession) -> Callable[[], None]:
        """Hear every state ``session`` hands out (on its thread: the state is only kept
        here, the delivery's thread reads what is new). Returns the unsubscribe."""
        self._on_state(session.state)
        return session.subscribe(self._on_state)

    def _on_state(self, state: TableState) -> None:
        with self._cond:
            before, self._handed = self._handed, state
            if before is None or (before.match_id, before.events) != (state.match_id, state.events):
                self._pending = -1  # new events: wait_acked must not pass on stale news
            self._dirty = True
            self._cond.notify_all()

    def notify(self) -> None:
        """Someone other than a followed session wrote to the journal: read it again now."""
        with self._cond:
            self._scan = True
            self._dirty = True
            self._pending = -1  # unknown until the next scan: wait_acked must not pass on stale news
            self._cond.notify_all()

    def wake(self) -> None:
        """The sidecar changed (a round bound, a confirmation kept): send what is due now."""
        with self._cond:
            self._dirty = True
            self._pending = -1
            self._cond.notify_all()

    def status(self) -> PublisherStatus:
        with self._cond:
            return PublisherStatus(self._connected, self._pending, self._error)

    def wait_acked(self, timeout: float | None = None) -> bool:
        """Block until every journal event (and confirmation) is acknowledged."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while self._pending != 0 or not self._settled:
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self._cond.wait(timeout=left if left is not None else 1.0)
            return True

    def _load_acks(self) -> None:
        acks = self.outbox.all_acked(self._organiser)
        self._acked = {m: u for m, (u, _) in acks.items()}
        self._confirm_acked = {m for m, (_, c) in acks.items() if c}

    # -- paho's thread -----------------------------------------------------------------

    def _switch_organiser(self, organiser: str) -> None:
        """Called with self._cond held."""
        if organiser and organiser != self._organiser:
            self._organiser = organiser
            self.outbox.set_organiser(organiser)
            self._load_acks()
            self._reconnected = True  # forget what was in flight: it went to the other one
            self._pending = -1
            self._dirty = True
            self._cond.notify_all()

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            with self._cond:
                self._error = f"the broker refused table {self.table}: {reason_code}"
            return
        with self._cond:
            self._subscribed_at = None  # each connection waits for its retained messages
        client.subscribe([(topics.topic(self.table, "ack"), 1), (topics.topic(self.table, "round"), 1),
                          (topics.ORGANISER_ID, 1)])
        client.publish(topics.topic(self.table, "online"), b"online", qos=1, retain=True)
        with self._cond:
            self._connected = True
            self._error = None
            self._reconnected = True  # whatever was in flight may be lost: send again, paced
            self._last_report = None
            self._dirty = True
            self._cond.notify_all()

    def _on_subscribe(self, client, userdata, mid, reason_codes, properties) -> None:
        with self._cond:
            self._subscribed_at = time.monotonic()
            self._dirty = True
            self._cond.notify_all()

    def _on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        with self._cond:
            self._connected = False
            if reason_code.is_failure and reason_code.value in (134, 135, 138):
                self._error = f"the broker refused table {self.table}: {reason_code}"

    def _on_message(self, client, userdata, msg) -> None:
        if msg.topic == topics.ORGANISER_ID:
            with self._cond:
                self._switch_organiser(msg.payload.decode("utf-8", "replace").strip())
            return
        split = topics.split(msg.topic)
        if split is None or split[0] != self.table:
            return
        try:
            if split[1] == "ack":
                ack = Ack.from_bytes(self.table, msg.payload)
                with self._cond:
                    if not self._organiser:
                        self._switch_organiser(ack.organiser)
                    if ack.organiser != self._organiser:
                        return  # a late ack of another tournament file: not this one's
                    self.outbox.mark_acked(ack.organiser, ack.match, ack.upto, confirmed=ack.confirmed)
                    if ack.upto > self._acked.get(ack.match, 0):
                        self._acked[ack.match] = ack.upto
                    if ack.confirmed:
                        self._confirm_acked.add(ack.match)
                    self._dirty = True
                    self._cond.notify_all()
            elif split[1] == "round" and msg.payload:
                assignment = RoundAssignment.from_bytes(self.table, msg.payload)
                self.outbox.save_assignment(assignment)
                if self.on_round:
                    self.on_round(assignment)
                self.wake()
        except BadMessage as exc:
            log.warning("club: ignored a bad message on %s: %s", msg.topic, exc)

    # -- the publisher's thread ----------------------------------------------------------

    def _run(self) -> None:
        again_in = 0.0
        while True:
            with self._cond:
                if not self._dirty and not self._stopping:
                    self._cond.wait(timeout=min(self._poll_s, again_in) if again_in else self._poll_s)
                if self._stopping:
                    return
                self._dirty = False
            try:
                again_in = self._pump()
            except Exception:  # a journal hiccup must not end the delivery for the night
                log.exception("club: publishing failed; retrying")
                again_in = self._poll_s

    def _round_known(self) -> bool:
        """Has the broker had its chance to hand us the retained round order? (It comes
        right after the SUBACK; a short grace covers paho's thread handing it over.)"""
        with self._cond:
            return self._subscribed_at is not None and time.monotonic() - self._subscribed_at > ROUND_GRACE_S

    def _take_token(self) -> bool:
        now = time.monotonic()
        self._tokens = min(float(self._window), self._tokens + (now - self._token_time) * self._max_per_second)
        self._token_time = now
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        return False

    def _pump(self) -> float:
        """Send what is due; returns how soon to look again (0: at the next poll)."""
        with self._cond:
            scan, handed = self._scan, self._handed
            self._scan = False
        waiting = self._backlog.refresh(scan=scan, state=handed, round_known=self._round_known())
        if scan and waiting:
            with self._cond:
                self._scan = True  # the matches not bound to a round yet: look again
        # the retained organiser id and round order come right after the SUBACK: until then
        # we cannot tell what is acked (a new tournament file has nothing), so send nothing
        settled = self._round_known()
        if not settled:
            with self._cond:
                if self._connected:
                    waiting = max(waiting, 1)
        pending = waiting
        again_in = ROUND_GRACE_S if waiting else 0.0
        now = time.monotonic()
        confirmations = {c.match: c for c in self.outbox.confirmations()}
        with self._cond:
            connected = self._connected
            acked_now = dict(self._acked)
            confirm_acked = set(self._confirm_acked)
            if self._reconnected:
                self._inflight.clear()
                self._reconnected = False
        for key in [k for k in self._inflight
                    if (k[1] <= acked_now.get(k[0], 0) if k[1] else k[0] in confirm_acked)]:
            del self._inflight[key]

        def wake(after: float) -> None:
            nonlocal again_in
            again_in = after if not again_in else min(again_in, after)

        for match_id, tracked in sorted(self._backlog.tracked.items()):
            acked = acked_now.get(match_id, 0)
            unsent = range(acked + 1, len(tracked.events) + 1)
            pending += len(unsent)
            conf = confirmations.get(match_id)
            confirm_due = conf is not None and match_id not in confirm_acked
            pending += int(confirm_due)
            if not connected or not settled:
                continue
            for seq in unsent:
                sent_at = self._inflight.get((match_id, seq))
                if sent_at is not None and now - sent_at < self._resend_after_s:
                    wake(self._resend_after_s - (now - sent_at))
                    continue
                if len(self._inflight) >= self._window or not self._take_token():
                    wake(0.05)  # paced: the rest goes out as tokens come back
                    break
                msg = EventMessage(self.table, match_id, seq, tracked.events[seq - 1], tracked.round)
                self._client.publish(topics.topic(self.table, "events"), msg.to_bytes(), qos=1)
                self._inflight[(match_id, seq)] = now
                wake(self._resend_after_s)
            if confirm_due and acked >= conf.upto:
                sent_at = self._inflight.get((match_id, 0))
                if sent_at is None or now - sent_at >= self._resend_after_s:
                    self._client.publish(topics.topic(self.table, "confirm"), conf.to_bytes(), qos=1)
                    self._inflight[(match_id, 0)] = now
                wake(self._resend_after_s)
        if connected:
            self._publish_report()
        with self._cond:
            self._pending = pending
            self._settled = settled
            self._cond.notify_all()
        return again_in

    def _publish_report(self) -> None:
        report = self._backlog.report(self.table, self.outbox.assignment(), clock=self._clock)
        payload = report.to_bytes() if report else None
        if payload and payload != self._last_report:
            self._client.publish(topics.topic(self.table, "state"), payload, qos=1, retain=True)
            self._last_report = payload
