"""Registration in the organiser's browser: plain HTML forms (no JavaScript), in Catalan,
Spanish and English (the kiosk's gettext catalogue, :mod:`kiosk.messages`). Pairs, late entries (a pair added once round 1 has begun plays from
the next round) and withdrawals (from the next round). The same store calls as the JSON
API; a POST answers with a redirect back to the page (the browser's back button and a
reload never post twice).

With an admin token the forms carry it in a password field: a browser form cannot send
the ``Authorization`` header the API uses.
"""

from __future__ import annotations

import hmac
import html
from urllib.parse import parse_qs, urlencode

from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse
from starlette.routing import Route

from kiosk.messages import LANGUAGES, translations


def render(store, lang: str, *, message: str = "", error: bool = False, token_needed: bool = False) -> str:
    lang = lang if lang in LANGUAGES else "ca"
    _, e = translations(lang).gettext, html.escape  # the kiosk's one catalogue
    # (labels taken out of the f-strings below, where the catalogue's extractor cannot see them)
    w = {"title": _("Pair registration"), "name": _("Pair's name"), "player": _("Player"),
         "add": _("Register the pair"), "withdraw": _("Withdraw"), "pairs": _("Registered pairs"),
         "none": _("No pairs yet."), "standings": _("Live standings"), "token": _("Organiser's token")}
    token = (f'<label>{e(w["token"])} <input type="password" name="token" required></label>'
             if token_needed else "")
    rows = []
    for p in store.pairs():
        notes = []
        if p.entered_round > 1:
            notes.append(_("late entry: plays from round {n}").format(n=p.entered_round))
        if p.withdrawn_round is not None:
            notes.append(_("withdrawn from round {n}").format(n=p.withdrawn_round))
        action = "" if p.withdrawn_round is not None else (
            f'<form method="post" action="register/pairs/{p.id}/withdraw?lang={lang}" class="inline">'
            f'{token}<button type="submit" name="withdraw" value="{p.id}">{e(w["withdraw"])}</button></form>')
        players = ", ".join(x for x in p.players if x)
        rows.append(f'<tr data-pair="{p.id}"><td>{p.id}</td><td class="name">{e(p.name)}</td>'
                    f'<td>{e(players)}</td><td class="note">{e(" · ".join(notes))}</td><td>{action}</td></tr>')
    table = (f'<table id="pairs"><tbody>{"".join(rows)}</tbody></table>' if rows
             else f'<p id="pairs">{e(w["none"])}</p>')
    flash = f'<p id="message" class="{"error" if error else "ok"}">{e(message)}</p>' if message else ""
    return f"""<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>{e(w["title"])}</title>
<style>
 body {{ margin:0; padding:1em 2em; background:#0f2a1d; color:#f4f1e8; font-family:"DejaVu Sans", sans-serif;
        font-size: clamp(15px, 1.4vw, 26px); }}
 a {{ color:#f2c14e; }} h1 {{ margin:.2em 0 .5em; }}
 form.add {{ display:flex; flex-wrap:wrap; gap:.6em; align-items:end; margin-bottom:1em; }}
 label {{ display:flex; flex-direction:column; gap:.2em; color:#a9b8ad; }}
 input, button {{ font:inherit; padding:.35em .5em; }} button {{ background:#f2c14e; border:0; border-radius:.3em; }}
 table {{ border-collapse:collapse; width:100%; }} td {{ padding:.25em .5em; border-bottom:1px solid #3c5a48; }}
 td.note {{ color:#a9b8ad; font-style:italic; }} form.inline {{ display:flex; gap:.4em; margin:0; }}
 #message.error {{ color:#e4572e; }} #message.ok {{ color:#6fcf6f; }}
</style></head><body>
<p><a href="./?lang={lang}">{e(w["standings"])}</a> · <a href="register?lang=ca">ca</a>
 <a href="register?lang=es">es</a> <a href="register?lang=en">en</a></p>
<h1>{e(w["title"])}</h1>{flash}
<form method="post" action="register/pairs?lang={lang}" class="add">
<label>{e(w["name"])} <input name="name" required maxlength="80"></label>
<label>{e(w["player"])} 1 <input name="player1" maxlength="60"></label>
<label>{e(w["player"])} 2 <input name="player2" maxlength="60"></label>
{token}<button type="submit" id="add">{e(w["add"])}</button></form>
<h2>{e(w["pairs"])}</h2>{table}
</body></html>"""


def routes(tournament, *, admin_token: str | None) -> list[Route]:
    store = tournament.store

    def lang_of(request: Request) -> str:
        lang = request.query_params.get("lang", "ca")
        return lang if lang in LANGUAGES else "ca"

    def back(lang: str, message: str, error: bool = False) -> RedirectResponse:
        query = urlencode({"lang": lang, "msg": message, **({"error": "1"} if error else {})})
        return RedirectResponse(f"/register?{query}", status_code=303)

    async def form_of(request: Request) -> dict[str, str]:
        # url-encoded forms by the standard library: no multipart package for three fields
        fields = parse_qs((await request.body()).decode("utf-8", "replace"), keep_blank_values=True)
        return {k: v[0].strip() for k, v in fields.items()}

    def token_ok(form: dict) -> bool:
        return not admin_token or hmac.compare_digest(form.get("token", ""), admin_token)

    async def page(request: Request) -> HTMLResponse:
        q = request.query_params
        return HTMLResponse(render(store, lang_of(request), message=q.get("msg", ""),
                                   error=q.get("error") == "1", token_needed=bool(admin_token)))

    async def add(request: Request) -> RedirectResponse:
        lang, form = lang_of(request), await form_of(request)
        _ = translations(lang).gettext
        if not token_ok(form):
            return back(lang, _("The organiser's token is not right."), True)
        name = form.get("name", "")
        if not name:
            return back(lang, _("A pair needs a name."), True)
        store.add_pair(name[:80], [p[:60] for p in (form.get("player1", ""), form.get("player2", "")) if p])
        tournament._bump()
        return back(lang, _("Registered: {name}.").format(name=name[:80]))

    async def withdraw(request: Request) -> RedirectResponse:
        lang, form = lang_of(request), await form_of(request)
        _ = translations(lang).gettext
        if not token_ok(form):
            return back(lang, _("The organiser's token is not right."), True)
        pair_id = int(request.path_params["pair"])
        names = {p.id: p.name for p in store.pairs()}
        try:
            store.withdraw(pair_id)
        except KeyError:
            return back(lang, _("That pair is not playing any more."), True)
        tournament._bump()
        return back(lang, _("Withdrawn: {name}.").format(name=names.get(pair_id, pair_id)))

    return [Route("/register", page), Route("/register/pairs", add, methods=["POST"]),
            Route("/register/pairs/{pair:int}/withdraw", withdraw, methods=["POST"])]
