"""The projector page in a real headless Chromium, fed by a real mosquitto and the
organiser's app as a process: it shows a confirmed hand within 1 s, in ca/es/en;
screenshots at 1920x1080 and 1280x720 go to artifacts/."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from kiosk.club.publisher import Publisher
from kiosk.journal import Journal
from tests.club.broker import table_password
from tests.club.chromium import Chromium
from tests.club.sim import JournalRound, play_hand
from tests.polling import until

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
TABLES = [str(t) for t in range(1, 7)]

pytestmark = pytest.mark.slow


def _until(predicate, timeout: float):
    return until(predicate, timeout, pause=0.01)


def test_the_live_page_follows_the_tables_within_a_second(tmp_path, broker_factory, organiser_factory):
    broker = broker_factory(TABLES)
    organiser = organiser_factory(broker)
    names = ["Can Pruna", "Els Tigres", "La Penya", "Cal Rovira", "Les Forques", "Sant Jordi", "Ca l'Anna",
             "El Racó", "Vilaplana", "Torrefarrera", "Els Amics", "La Botifarra"]
    for name in names:
        organiser.post("/api/pairs", {"name": name, "players": []})
    assert organiser.post("/api/rounds", {"target": 101, "max_hands": 12, "time_limit_min": 55,
                                          "points_cap": 121, "preset": "torrefarrera"})[0] == 201
    journals, publishers, matches = {}, {}, {}
    rng = random.Random(4)
    for t in TABLES:
        journals[t] = Journal(tmp_path / f"t{t}.sqlite")
        publishers[t] = Publisher(tmp_path / f"t{t}.sqlite", t, broker.url, password=table_password(t), poll_s=0.5)
        publishers[t].start()
    assert _until(lambda: all(p.outbox.assignment() for p in publishers.values()), 10)
    for t in TABLES:
        club = JournalRound(journals[t], publishers[t].outbox, notify=publishers[t].notify)
        matches[t] = club.start_match()
        for _ in range(int(t) + 1):
            play_hand(journals[t], matches[t], rng)
        publishers[t].notify()
    for p in publishers.values():
        assert p.wait_acked(timeout=20)

    browser = Chromium(tmp_path / "chromium-profile", organiser.base + "/?lang=ca")
    try:
        score_of = "(document.querySelector('[data-table=\"3\"] .score') || {}).textContent"
        assert _until(lambda: browser.evaluate(score_of), 10), "the page never drew table 3"
        assert browser.evaluate("document.getElementById('title').textContent") == "Botifarra"
        assert browser.evaluate("document.querySelector('#standings th:nth-child(2)').textContent") == "Parella"

        delays = []
        for _ in range(3):
            before = browser.evaluate(score_of)
            match = play_hand(journals["3"], matches["3"], rng)
            committed = time.monotonic()
            publishers["3"].notify()
            expected = f"{match.totals['A']} – {match.totals['B']}"
            if expected == before:
                continue
            assert _until(lambda: browser.evaluate(score_of) == expected, 3), (before, expected)
            delays.append(time.monotonic() - committed)
        assert delays and max(delays) < 1.0, delays

        shots = [browser.screenshot(ARTIFACTS / f"club-live-{w}x{h}.png", w, h) for w, h in ((1920, 1080), (1280, 720))]
        assert all(s.stat().st_size > 10_000 for s in shots)
        # nothing spills out sideways at the small size
        assert browser.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

        for lang, heading in (("es", "Pareja"), ("en", "Pair")):
            browser.navigate(organiser.base + f"/?lang={lang}")
            assert _until(lambda: browser.evaluate(
                "(document.querySelector('#standings th:nth-child(2)') || {}).textContent") == heading, 10), lang
        browser.screenshot(ARTIFACTS / "club-live-en-1280x720.png", 1280, 720)
    finally:
        browser.close()
        for t in TABLES:
            publishers[t].stop()
            journals[t].close()
