"""The organiser's broker link: receives every table's events, stores them in batches,
acks what is stored, pushes round orders.

paho's network thread only parses and queues; one writer thread drains the queue, stores
a whole batch in ONE transaction (one fsync for many events) and only then publishes the
acks, so an ack always means "on the organiser's disk".
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from dataclasses import dataclass

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from clubwire import topics
from clubwire.payloads import Ack, BadMessage, Confirmation, EventMessage, TableReport
from organiser.store import Incoming
from organiser.tournament import Tournament

log = logging.getLogger(__name__)
BATCH = 500


@dataclass(frozen=True)
class _Online:
    table: str
    online: bool


class BrokerLink:
    """Connect ``tournament`` to ``broker`` as the organiser.

    Args:
        tournament: where events go (and where round orders come from).
        broker: ``mqtt://host:port``.
        password: the organiser's broker password (user ``organiser``).
        on_batch: called after each stored batch with the time it was stored (benchmarks).

    Example::

        link = BrokerLink(tournament, "mqtt://127.0.0.1:1883", password="...")
        link.start(); ...; link.stop()
    """

    def __init__(self, tournament: Tournament, broker: str, *, password: str | None,
                 user: str = topics.ORGANISER_USER, ca_file: str | None = None,
                 on_batch=None) -> None:
        self.tournament = tournament
        self._host, self._port, tls = topics.parse_broker(broker)
        self._queue: queue.Queue = queue.Queue()
        self._stop = threading.Event()
        self._on_batch = on_batch
        self.connected = threading.Event()
        self.error: str | None = None
        self._client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="botifarra-organiser",
                                   protocol=mqtt.MQTTv5)
        self._client.username_pw_set(user, password)
        if tls:
            self._client.tls_set(ca_certs=ca_file)
        self._client.reconnect_delay_set(min_delay=1, max_delay=5)
        self._client.max_inflight_messages_set(200)
        self._client.max_queued_messages_set(0)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_message = self._on_message
        self._writer = threading.Thread(target=self._write_loop, name="club-organiser-writer", daemon=True)
        tournament.set_publisher(self.publish)

    def start(self) -> None:
        props = Properties(PacketTypes.CONNECT)
        props.SessionExpiryInterval = 14 * 24 * 3600
        self._client.connect_async(self._host, self._port, keepalive=10, clean_start=False,
                                   properties=props)
        self._writer.start()
        self._client.loop_start()

    def stop(self) -> None:
        self._stop.set()
        self._queue.put(None)
        self._writer.join(timeout=10)
        self._client.disconnect()
        self._client.loop_stop()

    def publish(self, topic: str, payload: bytes, retain: bool) -> None:
        self._client.publish(topic, payload, qos=1, retain=retain)

    # -- paho's thread -------------------------------------------------------------------

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            self.error = f"the broker refused the organiser: {reason_code}"
            return
        self.error = None
        client.subscribe([(topics.subscription(leaf), 1) for leaf in topics.TABLE_TO_ORGANISER])
        client.publish(topics.ORGANISER_ID, self.tournament.store.id.encode(), qos=1, retain=True)
        self.connected.set()
        # Round orders are retained at the broker, but a broker that lost its store would
        # leave tables without them: publish the current round again on every connect.
        rounds = self.tournament.store.rounds()
        if rounds:
            self.tournament.push_round(rounds[-1].number)

    def _on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        self.connected.clear()

    def _on_message(self, client, userdata, msg) -> None:
        where = topics.split(msg.topic)
        if where is None:
            return
        table, leaf = where
        try:
            if leaf == "events":
                self._queue.put(EventMessage.from_bytes(table, msg.payload))
            elif leaf == "confirm":
                self._queue.put(Confirmation.from_bytes(table, msg.payload))
            elif leaf == "online":
                self._queue.put(_Online(table, msg.payload == b"online"))
            elif leaf == "state" and msg.payload:
                self._queue.put(TableReport.from_bytes(table, msg.payload))
        except BadMessage as exc:
            log.warning("organiser: ignored a bad message on %s: %s", msg.topic, exc)

    # -- the writer thread ------------------------------------------------------------------

    def _write_loop(self) -> None:
        while not self._stop.is_set():
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            while len(batch) < BATCH:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    self._stop.set()
                    break
                batch.append(item)
            try:
                self._store(batch)
            except Exception:  # the disk said no: nothing is acked, the tables resend
                log.exception("organiser: could not store %d messages", len(batch))
                time.sleep(0.5)

    def _store(self, batch: list) -> None:
        events = [Incoming(m.table, m.match, m.seq, m.event, m.round) for m in batch
                  if isinstance(m, EventMessage)]
        confirmations = [(c.table, c.match, c.by, c.upto) for c in batch if isinstance(c, Confirmation)]
        online = {o.table: o.online for o in batch if isinstance(o, _Online)}  # the latest wins
        states = {s.table: {"match": s.match, "minutes_left": s.minutes_left, "hand": s.hand}
                  for s in batch if isinstance(s, TableReport)}
        acks = self.tournament.ingest(events, confirmations, online, states)
        stored_at = time.time()
        for (table, match), upto in acks.items():
            confirmed = self.tournament.store.confirmation(table, match) is not None
            ack = Ack(table, match, upto, confirmed, self.tournament.store.id)
            self._client.publish(topics.topic(table, "ack"), ack.to_bytes(), qos=1)
        if self._on_batch:
            self._on_batch(events, stored_at)
