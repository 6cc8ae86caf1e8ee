"""TLS as docs/club.md describes it, on a real mosquitto: an mqtts listener with a
certificate of the test's own CA (made with openssl), the organiser's app connected over
mqtts, `botifarra-kiosk club publish --until-acked` over mqtts as a real process, and the
kiosk's in-process publisher from its [club] settings (ca_file)."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

from kiosk.club import start_from_settings
from kiosk.journal import Journal
from kiosk.settings import Settings
from tests.club.broker import table_password
from tests.club.sim import new_match, play_hand, play_match

pytestmark = pytest.mark.slow


def _publish(tmp_path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, BOTIFARRA_CONFIG_DIR=str(tmp_path / "config"), BOTIFARRA_CLUB_PASSWORD="")
    return subprocess.run([sys.executable, "-m", "kiosk", "club", "publish", *args],
                          capture_output=True, text=True, timeout=60, env=env)


def test_club_publish_until_acked_over_mqtts(tmp_path, broker_factory, organiser_factory):
    broker = broker_factory(["7"], tls=True)
    organiser = organiser_factory(broker, tls=True)
    db = tmp_path / "table7.sqlite"
    with Journal(db) as journal:
        match = play_match(journal, new_match(journal), random.Random(8))
    common = ("--broker", broker.tls_url, "--table", "7", "--db", str(db), "--password", table_password("7"))

    # a kiosk without the CA cannot verify the broker: nothing is sent, it says so
    untrusted = _publish(tmp_path, *common, "--until-acked", "--timeout", "3")
    assert untrusted.returncode == 1 and "not connected" in untrusted.stderr, untrusted.stderr
    assert organiser.get("/api/tables") == []

    r = _publish(tmp_path, *common, "--ca-file", str(broker.ca_file), "--until-acked", "--timeout", "30")
    assert r.returncode == 0, r.stderr
    rows = organiser.get("/api/tables")
    assert [(row["table"], row["totals"], row["hands"], row["winner"]) for row in rows] == [
        ("7", match.totals, len(match.hands), match.winner)]

    # the kiosk's own publisher, from its [club] settings with the CA file
    settings = Settings()
    for key, value in (("broker", broker.tls_url), ("table", "7"), ("password", table_password("7")),
                       ("ca_file", str(broker.ca_file))):
        settings.set(f"club.{key}", value)
    publisher = start_from_settings(settings, db)
    try:
        with Journal(db) as journal:
            second = play_hand(journal, new_match(journal), random.Random(9))
        publisher.notify()
        assert publisher.wait_acked(timeout=20)
        assert any(row["totals"] == second.totals and row["match"] == 2 for row in organiser.get("/api/tables"))
    finally:
        publisher.stop()
