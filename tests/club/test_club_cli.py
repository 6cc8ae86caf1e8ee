"""``botifarra-kiosk club publish`` as a real process against a real mosquitto and the
organiser's broker link."""

from __future__ import annotations

import os
import random
import subprocess
import sys

from kiosk.journal import Journal
from organiser.link import BrokerLink
from organiser.store import Store
from organiser.tournament import Tournament
from tests.club.broker import ORGANISER_PASSWORD, free_port, table_password
from tests.club.sim import new_match, play_match


def _publish(*args: str, env_home) -> subprocess.CompletedProcess:
    env = dict(os.environ, BOTIFARRA_CONFIG_DIR=str(env_home / "config"), BOTIFARRA_CLUB_PASSWORD="")
    return subprocess.run([sys.executable, "-m", "kiosk", "club", "publish", *args],
                          capture_output=True, text=True, timeout=60, env=env)


def test_bad_input_is_one_line_and_status_2(tmp_path):
    db = tmp_path / "j.sqlite"
    Journal(db).close()
    for args, words in ((["--broker", "http://x", "--table", "7", "--db", str(db)], "mqtt://"),
                        (["--broker", "mqtt://127.0.0.1:1", "--table", "7", "--db", str(tmp_path / "no.sqlite")],
                         "no journal"),
                        (["--broker", "mqtt://127.0.0.1:1", "--table", "a/b", "--db", str(db)], "table name"),
                        (["--table", "7", "--db", str(db)], "no broker")):
        r = _publish(*args, env_home=tmp_path)
        assert r.returncode == 2, (args, r.stderr)
        assert r.stdout == "" and len(r.stderr.strip().splitlines()) == 1 and words in r.stderr, r.stderr


def test_until_acked_sends_everything_and_exits_0(tmp_path, broker_factory):
    broker = broker_factory(["7"])
    tournament = Tournament(Store(tmp_path / "club.sqlite"))
    link = BrokerLink(tournament, broker.url, password=ORGANISER_PASSWORD)
    link.start()
    db = tmp_path / "table7.sqlite"
    with Journal(db) as journal:
        for seed in (1, 2):
            play_match(journal, new_match(journal), random.Random(seed))
        expected = {m.id: (m.totals, m.hands, m.winner) for m in journal.matches()}

    wrong = _publish("--broker", broker.url, "--table", "7", "--db", str(db), "--password", "nope",
                     "--until-acked", env_home=tmp_path)
    assert wrong.returncode == 2 and "refused" in wrong.stderr, wrong.stderr

    r = _publish("--broker", broker.url, "--table", "7", "--db", str(db), "--password", table_password("7"),
                 "--until-acked", "--timeout", "30", env_home=tmp_path)
    assert r.returncode == 0, r.stderr
    got = {row.match: (row.totals, row.hands, row.winner) for row in tournament.tables()}
    assert got == expected
    # again: nothing new, acknowledged at once
    assert _publish("--broker", broker.url, "--table", "7", "--db", str(db), "--password", table_password("7"),
                    "--until-acked", "--timeout", "30", env_home=tmp_path).returncode == 0
    link.stop()

    # next week's tournament: a new organiser file has none of it, so everything goes again
    fresh = Tournament(Store(tmp_path / "club-next.sqlite"))
    link = BrokerLink(fresh, broker.url, password=ORGANISER_PASSWORD)
    link.start()
    assert link.connected.wait(10)
    r = _publish("--broker", broker.url, "--table", "7", "--db", str(db), "--password", table_password("7"),
                 "--until-acked", "--timeout", "30", env_home=tmp_path)
    assert r.returncode == 0, r.stderr
    assert {row.match: (row.totals, row.hands, row.winner) for row in fresh.tables()} == expected
    link.stop()


def test_until_acked_with_no_broker_gives_up_at_the_timeout(tmp_path):
    db = tmp_path / "j.sqlite"
    with Journal(db) as journal:
        play_match(journal, new_match(journal), random.Random(3))
    r = _publish("--broker", f"mqtt://127.0.0.1:{free_port()}", "--table", "7", "--db", str(db),
                 "--until-acked", "--timeout", "2", env_home=tmp_path)
    assert r.returncode == 1 and "not acknowledged" in r.stderr and "not connected" in r.stderr, r.stderr
