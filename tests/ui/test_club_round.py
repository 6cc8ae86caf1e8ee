"""The kiosk in a tournament round, end to end: a real mosquitto and the organiser's app as
a real process push the round to the table; the scoreboard shows it big, starts the match
with the organiser's pairs, ends it itself when the round's time runs out, and the
opponents' tap turns the organiser's provisional result into a confirmed one."""

from __future__ import annotations

import time

import pytest

from kiosk.club.publisher import Publisher
from kiosk.journal import Journal
from tests.club.broker import table_password
from tests.club.processes import broker_factory, organiser_factory  # noqa: F401  (fixtures)
from tests.polling import until
from tests.ui.flows import bid, score_points

pytestmark = [pytest.mark.ui, pytest.mark.slow]


class ShiftedClock:
    def __init__(self) -> None:
        self.shift = 0.0

    def __call__(self) -> float:
        return time.time() + self.shift


def _pump_until(d, predicate, timeout: float = 15.0):
    return until(predicate, timeout, tick=lambda: d.pump(2))


def _shot_as(d, label: str) -> None:
    name = d.test_name
    d.test_name = f"{name}_{label}"
    d.shot(force=True)
    d.test_name = name


def _table_row(organiser):
    rows = organiser.get("/api/tables")
    return rows[0] if rows else None


def test_a_pushed_round_is_played_ended_by_the_clock_and_confirmed_by_the_opponents(
        kiosk, broker_factory, organiser_factory):  # noqa: F811
    broker = broker_factory(["1"])
    organiser = organiser_factory(broker)
    for name in ("Can Pruna", "Els Tigres"):
        assert organiser.post("/api/pairs", {"name": name, "players": []})[0] == 201
    assert organiser.post("/api/rounds", {"target": 101, "max_hands": 3, "time_limit_min": 50,
                                          "points_cap": 121, "preset": "torrefarrera"})[0] == 201
    pairing = organiser.get("/api/rounds")["pairings"][0]
    names = {p["id"]: p["name"] for p in organiser.get("/api/pairs")}
    name_a, name_b = names[pairing["pair_a"]], names[pairing["pair_b"]]

    Journal(kiosk.db).close()
    publisher = Publisher(kiosk.db, "1", broker.url, password=table_password("1"), poll_s=0.5)
    publisher.start()
    clock = ShiftedClock()
    try:
        d = kiosk.start(club=publisher, clock=clock)
        strip = d.current.ids.club
        assert _pump_until(d, lambda: strip.shown), "the round order never reached the scoreboard"
        assert strip.title == (f"Ronda 1 · Taula 1 · Parella {pairing['pair_a']} contra "
                               f"Parella {pairing['pair_b']}")
        assert strip.note in ("101 punts · 3 mans · 50 min · màx. 121 · Queden 50 min",
                              "101 punts · 3 mans · 50 min · màx. 121 · Queden 49 min")
        _shot_as(d, "round_received")

        d.tap("club_start", shot=False)
        state = d.app.session.state
        assert state.has_match and state.team_names == {"A": name_a, "B": name_b}
        assert not d.has("club_start")
        bid(d, "oros")
        _shot_as(d, "playing")
        score_points(d, "A", 50)
        d.tap("confirm")
        bid(d, "copes")
        clock.shift = 50 * 60  # the round's 50 minutes are up: the kiosk ends it by itself
        assert _pump_until(d, lambda: d.app.session.tournament.time_up, 5)
        events = kiosk.app.journal.events(state.match_id)
        assert events[-1] == {"type": "time_up"}
        assert "Temps" in d.app.banner.text and "S'ha acabat el temps" in strip.note
        score_points(d, "B", 40)
        d.tap("confirm")
        match = d.app.session.match
        assert d.screen == "match_won" and match.is_over and match.end_reason == "time"
        assert len(match.hands) == 2  # the time limit came first (of 101 points, 3 hands)

        strip = d.current.ids.club
        assert strip.offer == "club_confirm" and "provisional" in strip.note
        assert d.find("club_confirm").text == "Confirmeu el resultat"
        assert (name_b if match.winner == "A" else name_a) in strip.note  # the opponents
        row = _pump_until(d, lambda: (r := _table_row(organiser)) and r["over"] and r)
        assert row["totals"] == match.totals and not row["confirmed"]
        assert all(s["provisional"] for s in organiser.get("/api/standings") if s["played"])
        _shot_as(d, "awaiting_confirmation")

        d.tap("club_confirm", shot=False)
        assert "confirmat" in strip.note and not d.has("club_confirm")
        assert _pump_until(d, lambda: _table_row(organiser)["confirmed"]), "the organiser never heard the tap"
        assert not any(s["provisional"] for s in organiser.get("/api/standings"))
        _shot_as(d, "confirmed")
        d.tap("scoreboard", shot=False)
        assert "confirmat" in d.current.ids.club.note
        _shot_as(d, "scoreboard_confirmed")
        d.tap("language", shot=False)  # Català -> Español: the strip's words follow
        strip = d.current.ids.club
        assert strip.title.startswith("Ronda 1 · Mesa 1 · Pareja") and strip.note == "Resultado confirmado"
        broker.kill()  # the link drops: the table is told its results wait
        assert _pump_until(d, lambda: strip.note == "Resultado confirmado · sin conexión", 10), strip.note
    finally:
        kiosk.stop()
        publisher.stop()


def test_botifarra_kiosk_run_with_club_settings_publishes_and_receives_the_round(
        tmp_path, broker_factory, organiser_factory):  # noqa: F811
    """The real command: `[club]` in settings.ini starts the kiosk's own publisher, which
    goes online at the broker, keeps the pushed round order and sends the journal."""
    from kiosk.club.outbox import Outbox
    from kiosk.settings import Settings
    from tests.ui.test_run_command import start, stop, wait_for

    broker = broker_factory(["1"])
    organiser = organiser_factory(broker)
    for name in ("Can Pruna", "Els Tigres"):
        organiser.post("/api/pairs", {"name": name, "players": []})
    assert organiser.post("/api/rounds", {"target": 101, "max_hands": 12, "time_limit_min": 60,
                                          "points_cap": 121})[0] == 201
    settings = Settings(path=tmp_path / "config" / "settings.ini")
    for key, value in (("broker", broker.url), ("table", "1"), ("password", table_password("1"))):
        settings.set(f"club.{key}", value)
    settings.save()
    db = tmp_path / "journal.sqlite"
    with Journal(db) as journal:  # a match scored before club mode was switched on
        journal.create_match({"type": "match_created", "rules": {"preset": "butinet"}, "first_dealer": 0,
                              "players": [None] * 4, "team_names": {"A": "A", "B": "B"}})
    proc = start(tmp_path, "--db", str(db), "--size", "800x480")
    try:
        out = wait_for(proc, "Start application main loop")
        assert "club mode off" not in out, out[-2000:]
        deadline = time.monotonic() + 20
        outbox = Outbox(db, "1")
        while time.monotonic() < deadline and not (outbox.assignment() and organiser.get("/api/tables")):
            time.sleep(0.1)
        assert outbox.assignment() is not None and outbox.assignment().round == 1
        assert [(r["table"], r["online"]) for r in organiser.get("/api/tables")] == [("1", True)]
        outbox.close()
    finally:
        stop(proc)
    assert proc.returncode is not None
