"""The organiser's app as a process: registration, late entries, withdrawals, byes, a
manual round, corrections with their audit trail, CSV and PDF exports."""

from __future__ import annotations

import csv
import io
import urllib.request

from tests.club.organiser_proc import Organiser

ENDS = {"target": 101, "max_hands": 12, "time_limit_min": 60, "points_cap": 121}


def _raw(organiser: Organiser, path: str) -> bytes:
    with urllib.request.urlopen(organiser.base + path, timeout=60) as r:
        return r.read()


def test_a_tournament_run_from_the_api(broker_factory, organiser_factory):
    org = organiser_factory(broker_factory([str(t) for t in range(1, 5)]), token="s3cret")
    assert org.post("/api/pairs", {"name": "Intrús"}, token="guess")[0] == 401
    assert org.get("/api/pairs") == []
    for p in range(1, 6):
        assert org.post("/api/pairs", {"name": f"Parella {p}", "players": ["a", "b"]})[0] == 201
    assert org.post("/api/pairs", {"name": " "})[0] == 400

    # five pairs: a bye for the lowest-ranked, never twice
    assert org.post("/api/rounds", ENDS)[0] == 201
    r1 = [p for p in org.get("/api/rounds")["pairings"] if p["round"] == 1]
    byes = [p["pair_a"] for p in r1 if p["pair_b"] is None]
    assert len(byes) == 1 and len(r1) == 3

    # a correction decides table 1 of round 1; the audit trail keeps what it replaced
    assert org.post("/api/corrections", {"round": 1, "table": "1", "totals": {"A": 101, "B": 40}})[0] == 400
    status, body = org.post("/api/corrections", {"round": 1, "table": "1", "totals": {"A": 101, "B": 40},
                                                 "reason": "full sheet at the bar"})
    assert status == 201
    status, _ = org.post("/api/corrections", {"round": 1, "table": "1", "totals": {"A": 95, "B": 101},
                                              "reason": "the pairs agree the last hand was B's"})
    audit = org.get("/api/corrections")
    assert [c["totals"] for c in audit] == [{"A": 101, "B": 40}, {"A": 95, "B": 101}]
    assert audit[1]["before"] == {"A": 101, "B": 40}
    t1 = next(p for p in r1 if p["table"] == "1")
    standings = {s["pair"]: s for s in org.get("/api/standings")}
    assert standings[t1["pair_b"]]["won"] == 1 and standings[t1["pair_a"]]["lost"] == 1
    assert standings[t1["pair_b"]]["diff"] == 6 and not standings[t1["pair_b"]]["provisional"]
    assert standings[byes[0]]["byes"] == 1

    # a late entry and a withdrawal take effect from the next round
    assert org.post("/api/pairs", {"name": "Parella 6 (tard)"})[0] == 201
    assert org.post(f"/api/pairs/{t1['pair_a']}/withdraw", {})[0] == 200
    assert org.post("/api/pairs/99/withdraw", {})[0] == 404
    plan = org.get("/api/rounds/next")
    placed = [x for t in plan["tables"] for x in t] + ([plan["bye"]] if plan["bye"] else [])
    assert sorted(placed) == sorted({1, 2, 3, 4, 5, 6} - {t1["pair_a"]})
    assert plan["bye"] != byes[0]
    played = {frozenset((p["pair_a"], p["pair_b"])) for p in r1 if p["pair_b"]}
    assert not any(frozenset(t) in played for t in plan["tables"])

    # a manual round must place every active pair once
    active = sorted(placed)
    assert org.post("/api/rounds", {**ENDS, "pairs": [[active[0], active[1]]]})[0] == 400
    manual = [[active[0], active[1]], [active[2], active[3]], [active[4], None]]
    assert org.post("/api/rounds", {**ENDS, "pairs": manual})[0] == 201
    r2 = [p for p in org.get("/api/rounds")["pairings"] if p["round"] == 2]
    assert [[p["pair_a"], p["pair_b"]] for p in r2] == manual

    rows = list(csv.DictReader(io.StringIO(_raw(org, "/export/standings.csv").decode())))
    assert len(rows) == 6 and rows[0]["rank"] == "1"
    pdf = _raw(org, "/export/standings.pdf?lang=ca")
    assert pdf.startswith(b"%PDF") and len(pdf) > 1000
    page = _raw(org, "/?lang=es").decode()
    assert 'lang="es"' in page and "Clasificación" in page
