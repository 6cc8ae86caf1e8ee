"""The kiosk's in-process publisher, started from the [club] settings as `run` does."""

from __future__ import annotations

import random
import time

from kiosk.club import start_from_settings
from kiosk.journal import Journal
from organiser.link import BrokerLink
from organiser.store import Store
from organiser.tournament import Tournament
from kiosk.settings import Settings
from kiosk.table import TableSession
from tests.club.broker import ORGANISER_PASSWORD, table_password
from tests.club.sim import play_hand_through
from tests.polling import until


def test_no_club_settings_no_publisher(tmp_path):
    assert start_from_settings(Settings(), tmp_path / "j.sqlite") is None


def test_a_bad_club_setting_leaves_the_kiosk_running_without_club_mode(tmp_path):
    settings = Settings()
    settings.set("club.broker", "http://nope")
    settings.set("club.table", "7")
    Journal(tmp_path / "j.sqlite").close()
    assert start_from_settings(settings, tmp_path / "j.sqlite") is None


def test_the_settings_start_a_publisher_that_follows_the_session(tmp_path, broker_factory):
    broker = broker_factory(["7"])
    tournament = Tournament(Store(tmp_path / "club.sqlite"))
    link = BrokerLink(tournament, broker.url, password=ORGANISER_PASSWORD)
    link.start()
    settings = Settings(path=tmp_path / "settings.ini")
    settings.set("club.broker", broker.url)
    settings.set("club.table", "7")
    settings.set("club.password", table_password("7"))
    settings.save()
    settings = Settings.load(tmp_path / "settings.ini")
    journal = Journal(tmp_path / "j.sqlite")
    publisher = start_from_settings(settings, tmp_path / "j.sqlite")
    session = TableSession(journal)
    unfollow = publisher.follow(session)  # what ClubTable.over does in the kiosk
    try:
        assert session.new_match().saved
        rng = random.Random(1)
        for _ in range(3):
            play_hand_through(session, rng)  # no notify: the session's states tell the publisher
        match = session.match
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and not (tournament.tables() and tournament.tables()[0].hands == 3):
            time.sleep(0.05)
        row = tournament.tables()[0]
        assert (row.table, row.totals, row.hands, row.online) == ("7", match.totals, len(match.hands), True)
        # the table's retained report, made from the session's state (not a fold of its own)
        assert until(lambda: (tournament.store.table_status()["7"][2] or {}).get("hand") == 4, 10)
        assert tournament.store.table_status()["7"][2] == {"match": session.match_id, "minutes_left": None,
                                                           "hand": 4}
    finally:
        unfollow()
        publisher.stop()
        journal.close()
        link.stop()
