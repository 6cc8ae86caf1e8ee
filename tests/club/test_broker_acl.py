"""The shipped ACL on a real mosquitto: a table writes and reads only its own topics."""

from __future__ import annotations

import threading

import paho.mqtt.client as mqtt

from tests.club.broker import ORGANISER_PASSWORD, table_password


def _client(broker, user: str, password: str) -> mqtt.Client:
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"acl-{user}", protocol=mqtt.MQTTv5)
    client.username_pw_set(user, password)
    connected = threading.Event()
    client.on_connect = lambda c, u, f, rc, p: connected.set() if not rc.is_failure else None
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    assert connected.wait(5), f"{user} could not connect"
    return client


def _puback(client: mqtt.Client, topic: str) -> int:
    """Publish QoS 1 and return the broker's PUBACK reason code (MQTT 5)."""
    done = threading.Event()
    codes = {}

    def on_publish(c, u, mid, reason_code, properties):
        codes[mid] = reason_code.value
        done.set()
    client.on_publish = on_publish
    info = client.publish(topic, b'{"table":"7","match":1,"seq":1,"event":{"type":"misdeal"}}', qos=1)
    assert done.wait(5)
    return codes[info.mid]


def test_a_table_cannot_publish_on_another_tables_topic(broker_factory):
    broker = broker_factory(["7", "8"])
    received: list[str] = []
    organiser = _client(broker, "organiser", ORGANISER_PASSWORD)
    got = threading.Event()

    def on_message(c, u, msg):
        received.append(msg.topic)
        got.set()
    organiser.on_message = on_message
    subscribed = threading.Event()
    organiser.on_subscribe = lambda *a: subscribed.set()
    organiser.subscribe("botifarra/table/+/events", qos=1)
    assert subscribed.wait(5)

    table7 = _client(broker, "7", table_password("7"))
    assert _puback(table7, "botifarra/table/8/events") == 135      # Not authorized
    assert _puback(table7, "botifarra/table/8/ack") == 135
    assert _puback(table7, "botifarra/table/7/ack") == 135          # acks come from the organiser only
    assert _puback(table7, "botifarra/table/7/events") == 0         # its own topic: accepted
    assert got.wait(5)
    assert received == ["botifarra/table/7/events"]

    # another table's round order is never delivered (mosquitto checks reads at delivery)
    rounds: list[str] = []
    own = threading.Event()

    def on_round(c, u, msg):
        rounds.append(msg.topic)
        if msg.topic.endswith("/7/round"):
            own.set()
    table7.on_message = on_round
    organiser.publish("botifarra/table/8/round", b"{}", qos=1, retain=True).wait_for_publish(5)
    organiser.publish("botifarra/table/7/round", b"{}", qos=1, retain=True).wait_for_publish(5)
    table7.subscribe([("botifarra/table/8/round", 1), ("botifarra/table/+/round", 1)])
    assert own.wait(5)
    table7.publish("botifarra/table/7/state", b"{}", qos=1).wait_for_publish(5)  # a round trip more
    assert set(rounds) == {"botifarra/table/7/round"}

    # a wrong password is refused
    bad = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="acl-bad", protocol=mqtt.MQTTv5)
    bad.username_pw_set("8", "wrong")
    refused = threading.Event()
    bad.on_connect = lambda c, u, f, rc, p: refused.set() if rc.is_failure else None
    bad.connect("127.0.0.1", broker.port)
    bad.loop_start()
    assert refused.wait(5)
    for c in (bad, table7, organiser):
        c.disconnect()
        c.loop_stop()
