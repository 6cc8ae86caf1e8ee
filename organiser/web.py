"""The organiser's web app (Starlette): the live page, the JSON API, the exports.

| route | what |
|---|---|
| ``GET /`` (``?lang=ca|es|en``) | the live page for the projector |
| ``GET /events`` | server-sent events: the page's data on every change |
| ``GET /api/tables`` | ``[{"table","match","totals":{"A","B"},"hands","winner","online",...}]`` |
| ``GET /api/standings`` | the ranked pairs (won, drawn, diff, points for, provisional) |
| ``GET/POST /api/pairs``, ``POST /api/pairs/{id}/withdraw`` | registration, late entries, withdrawals |
| ``GET /api/rounds``, ``GET /api/rounds/next``, ``POST /api/rounds`` | pairings; start a round (``pairs`` = manual override) |
| ``GET/POST /api/corrections`` | corrections and their audit trail |
| ``GET /export/standings.csv``, ``/export/standings.pdf`` | exports |
| ``GET /register``, ``POST /register/pairs``, ``.../{id}/withdraw`` | registration forms (no JS) |
"""

from __future__ import annotations

import asyncio
import hmac
import json
from dataclasses import asdict

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from clubwire.payloads import EndConditions
from organiser import exports, page, register
from organiser.swiss import PairingImpossible
from organiser.tournament import Tournament


def _table_json(row) -> dict:
    return asdict(row)


def snapshot(tournament: Tournament) -> dict:
    rounds = tournament.store.rounds()
    current = rounds[-1].number if rounds else None
    names = {p.id: p.name for p in tournament.store.pairs()}
    pairs = {p.table: [names.get(p.pair_a, ""), names.get(p.pair_b, "")]
             for p in tournament.store.pairings() if p.round == current and p.table is not None}
    return {"version": tournament.version, "round": current, "pairs": pairs, "scoring": tournament.scoring.name,
            "tables": [_table_json(r) for r in tournament.tables()],
            "standings": [asdict(s) for s in tournament.standings()]}


def create_app(tournament: Tournament, *, title: str = "Botifarra", admin_token: str | None = None) -> Starlette:
    """The app. With ``admin_token``, every POST needs ``Authorization: Bearer <token>``
    (the page and the GETs stay open: the projector and the players read them)."""
    async def home(request: Request) -> HTMLResponse:
        return HTMLResponse(page.render(request.query_params.get("lang", "ca"), title))

    async def events(request: Request) -> StreamingResponse:
        async def stream():
            seen = -1
            while True:
                if await request.is_disconnected():
                    return
                if tournament.version != seen:
                    data = await asyncio.to_thread(snapshot, tournament)
                    seen = data["version"]
                    yield f"data: {json.dumps(data, ensure_ascii=False)}\n\n"
                else:
                    # the broker thread bumps the version; a short wait off the event loop
                    await asyncio.to_thread(tournament.wait_change, seen, 1.0)
                    if tournament.version == seen:
                        yield ": keep-alive\n\n"
        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    async def tables(request: Request) -> JSONResponse:
        rows = await asyncio.to_thread(tournament.tables)
        return JSONResponse([_table_json(r) for r in rows])

    async def standings(request: Request) -> JSONResponse:
        rows = await asyncio.to_thread(tournament.standings)
        return JSONResponse([asdict(s) for s in rows])

    async def pairs(request: Request) -> JSONResponse:
        if request.method == "POST":
            body = await _json(request)
            name = str(body.get("name") or "").strip()
            if not name:
                return _bad("a pair needs a name")
            players = [str(p) for p in body.get("players") or []]
            pid = tournament.store.add_pair(name, players)
            tournament._bump()
            return JSONResponse({"id": pid}, status_code=201)
        return JSONResponse([asdict(p) for p in tournament.store.pairs()])

    async def withdraw(request: Request) -> JSONResponse:
        try:
            tournament.store.withdraw(int(request.path_params["pair"]))
        except KeyError as exc:
            return _bad(str(exc.args[0]), 404)
        tournament._bump()
        return JSONResponse({"ok": True})

    async def rounds(request: Request) -> JSONResponse:
        if request.method == "POST":
            body = await _json(request)
            try:
                conditions = EndConditions(**{k: body[k] for k in ("target", "max_hands", "time_limit_min",
                                                                  "points_cap") if k in body})
                override = body.get("pairs")
                if override is not None:
                    override = [(int(a), None if b is None else int(b)) for a, b in override]
                info = tournament.start_round(conditions, preset=str(body.get("preset") or "reglament"),
                                              override=override)
            except PairingImpossible as exc:
                return _bad(str(exc), 409)
            except (TypeError, ValueError) as exc:
                return _bad(str(exc))
            return JSONResponse({"round": info.number}, status_code=201)
        return JSONResponse({"rounds": [asdict(r) for r in tournament.store.rounds()],
                             "pairings": [asdict(p) for p in tournament.store.pairings()]})

    async def next_round(request: Request) -> JSONResponse:
        try:
            plan = tournament.next_round()
        except PairingImpossible as exc:
            return _bad(str(exc), 409)
        return JSONResponse({"tables": [list(t) for t in plan.tables], "bye": plan.bye})

    async def corrections(request: Request) -> JSONResponse:
        if request.method == "POST":
            body = await _json(request)
            try:
                totals = {"A": int(body["totals"]["A"]), "B": int(body["totals"]["B"])}
                cid = tournament.correct(int(body["round"]), str(body["table"]), totals, str(body.get("reason") or ""))
            except (KeyError, TypeError, ValueError) as exc:
                return _bad(f"a correction needs round, table, totals {{A, B}} and a reason ({exc})")
            return JSONResponse({"id": cid}, status_code=201)
        return JSONResponse([asdict(c) for c in tournament.store.corrections()])

    async def csv_export(request: Request) -> Response:
        text = exports.standings_csv(tournament.standings())
        return Response(text, media_type="text/csv; charset=utf-8",
                        headers={"Content-Disposition": 'attachment; filename="standings.csv"'})

    async def pdf_export(request: Request) -> Response:
        lang = request.query_params.get("lang", "ca")
        labels = page.labels(lang)
        data = await asyncio.to_thread(exports.standings_pdf, tournament.standings(), title=title,
                                       rounds=len(tournament.store.rounds()), labels=labels)
        return Response(data, media_type="application/pdf")

    def guarded(endpoint):
        async def check(request: Request):
            if admin_token and request.method == "POST" and not hmac.compare_digest(
                    request.headers.get("authorization", ""), f"Bearer {admin_token}"):
                return _bad("this needs the organiser's token (Authorization: Bearer ...)", 401)
            return await endpoint(request)
        return check

    pairs, withdraw, rounds, corrections = map(guarded, (pairs, withdraw, rounds, corrections))
    return Starlette(routes=[
        Route("/", home), Route("/events", events),
        Route("/api/tables", tables), Route("/api/standings", standings),
        Route("/api/pairs", pairs, methods=["GET", "POST"]),
        Route("/api/pairs/{pair:int}/withdraw", withdraw, methods=["POST"]),
        Route("/api/rounds", rounds, methods=["GET", "POST"]), Route("/api/rounds/next", next_round),
        Route("/api/corrections", corrections, methods=["GET", "POST"]),
        Route("/export/standings.csv", csv_export), Route("/export/standings.pdf", pdf_export),
        *register.routes(tournament, admin_token=admin_token),
    ])


async def _json(request: Request) -> dict:
    try:
        body = await request.json()
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def _bad(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)
