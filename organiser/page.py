"""The live page for the projector (served by the organiser's app; no broker websockets),
in Catalan, Spanish and English (the kiosk's gettext catalogue). It redraws from server-sent events on every change."""

from __future__ import annotations

import html
import json

from kiosk.messages import LANGUAGES, translations

def labels(lang: str) -> dict[str, str]:
    """The page's (and the PDF's) words in ``lang``, from the kiosk's one gettext catalogue
    (context "standings": the table's short column heads are not the kiosk's words)."""
    pgettext = translations(lang if lang in LANGUAGES else "ca").pgettext
    return {
        "title": pgettext("standings", "Standings"), "tables": pgettext("standings", "Tables"),
        "pair": pgettext("standings", "Pair"), "won": pgettext("standings", "W"),
        "drawn": pgettext("standings", "D"), "lost": pgettext("standings", "L"),
        "score": pgettext("standings", "Score"), "diff": pgettext("standings", "Diff"),
        "points_for": pgettext("standings", "For"), "table": pgettext("standings", "Table"),
        "round": pgettext("standings", "Round"), "rounds": pgettext("standings", "Rounds"),
        "hand": pgettext("standings", "Hand"), "offline": pgettext("standings", "offline"),
        "unconfirmed": pgettext("standings", "to confirm"),
        "provisional": pgettext("standings", "provisional: result not confirmed yet"),
        "confirmed": pgettext("standings", "confirmed"), "playing": pgettext("standings", "playing"),
        "time_up": pgettext("standings", "time up"), "error": pgettext("standings", "error"),
        "min": pgettext("standings", "min"), "bye": pgettext("standings", "bye"),
        "live": pgettext("standings", "live"),
    }


def render(lang: str, title: str) -> str:
    lang = lang if lang in LANGUAGES else "ca"
    return (_PAGE.replace("__LANG__", lang)
                 .replace("__TITLE__", html.escape(title))
                 .replace("__LABELS__", json.dumps(labels(lang), ensure_ascii=False)))


_PAGE = """<!doctype html>
<html lang="__LANG__"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__</title>
<style>
 :root { --bg:#0f2a1d; --fg:#f4f1e8; --dim:#a9b8ad; --accent:#f2c14e; --warn:#e4572e; }
 * { box-sizing: border-box; }
 body { margin:0; background:var(--bg); color:var(--fg); font-family: "DejaVu Sans", sans-serif;
        font-size: clamp(14px, 1.55vw, 30px); }
 header { display:flex; justify-content:space-between; align-items:baseline; padding:.5em 1em;
          border-bottom: 3px solid var(--accent); }
 h1 { margin:0; font-size:1.8em; } #round { color:var(--accent); font-size:1.3em; }
 main { display:grid; grid-template-columns: 3fr 2fr; gap:1em; padding:.6em 1em; }
 table { width:100%; border-collapse:collapse; }
 th { text-align:left; color:var(--dim); font-weight:normal; border-bottom:1px solid var(--dim); }
 td, th { padding:.15em .35em; white-space:nowrap; } td.n, th.n { text-align:right; }
 tr.prov td { color: var(--dim); font-style: italic; }
 .tables { display:grid; grid-template-columns: repeat(auto-fill, minmax(8.5em, 1fr)); gap:.4em;
           align-content:start; }
 .t { border:2px solid var(--dim); border-radius:.4em; padding:.25em .45em; overflow:hidden; }
 .t .meta { white-space:nowrap; overflow:hidden; text-overflow:ellipsis; }
 h2 { margin:.1em 0 .3em; }
 .t .score { font-size:1.35em; font-weight:bold; } .t .meta { color:var(--dim); font-size:.75em; }
 .t.over { border-color: var(--accent); } .t.att { border-color: var(--warn); }
 .badge { color:var(--warn); font-size:.75em; }
 #live { color:var(--dim); font-size:.7em; } #live.on::before { content:"● "; color:#6fcf6f; }
</style></head>
<body>
<header><h1 id="title">__TITLE__</h1><span id="round"></span><span id="live"></span></header>
<main><section><table id="standings"><thead></thead><tbody></tbody></table>
<p id="note"></p></section>
<section><h2 id="tables-title"></h2><div class="tables" id="tables"></div></section></main>
<script>
const L = __LABELS__;
const esc = s => String(s).replace(/[&<>"]/g, c => ({"&":"&amp;","<":"&lt;",">":"&gt;",'"':"&quot;"}[c]));
document.getElementById("tables-title").textContent = L.tables;
function draw(data) {
  const head = `<tr><th class="n">#</th><th>${L.pair}</th><th class="n">${L.won}</th><th class="n">${L.drawn}</th>`
    + `<th class="n">${L.lost}</th><th class="n">${L.score}</th><th class="n">${L.diff}</th>`
    + `<th class="n">${L.points_for}</th></tr>`;
  document.querySelector("#standings thead").innerHTML = head;
  document.querySelector("#standings tbody").innerHTML = data.standings.map(r =>
    `<tr class="${r.provisional ? "prov" : ""}" data-pair="${r.pair}"><td class="n">${r.rank}</td>`
    + `<td>${esc(r.name)}${r.provisional ? " *" : ""}</td><td class="n">${r.won}</td>`
    + `<td class="n">${r.drawn}</td><td class="n">${r.lost}</td><td class="n">${r.score}</td>`
    + `<td class="n">${r.diff > 0 ? "+" : ""}${r.diff}</td><td class="n">${r.points_for}</td></tr>`).join("");
  document.getElementById("note").textContent = data.standings.some(r => r.provisional) ? "* " + L.provisional : "";
  document.getElementById("round").textContent = data.round ? `${L.round} ${data.round}` : "";
  const latest = {};
  for (const t of data.tables) latest[t.table] = t;
  document.getElementById("tables").innerHTML = Object.values(latest).map(t => {
    const since = t.offline_since ? " " + new Date(t.offline_since * 1000).toTimeString().slice(0, 5) : "";
    const att = t.attention.map(a => (L[a] || a) + (a === "offline" ? since : "")).join(" · ");
    const state = t.over ? (t.confirmed ? L.confirmed : "") : L.playing;
    const who = (data.pairs || {})[t.table];
    const hand = `${L.hand} ${t.over ? t.hands : t.hand}${t.max_hands ? "/" + t.max_hands : ""}`;
    const mins = t.minutes_left != null && !t.over ? ` · ${t.minutes_left} ${L.min}` : "";
    return `<div class="t ${t.over ? "over" : ""} ${t.attention.length ? "att" : ""}" data-table="${esc(t.table)}">`
      + `<div>${L.table} ${esc(t.table)}</div>`
      + (who && t.round === data.round ? `<div class="meta">${esc(who[0])} – ${esc(who[1])}</div>` : "")
      + `<div class="score">${t.totals.A} – ${t.totals.B}</div>`
      + `<div class="meta">${hand}${mins}${state ? " · " + state : ""}</div><div class="badge">${esc(att)}</div></div>`;
  }).join("");
  document.body.dataset.version = data.version;
}
const live = document.getElementById("live");
const source = new EventSource("events");
source.onmessage = ev => { live.className = "on"; live.textContent = L.live; draw(JSON.parse(ev.data)); };
source.onerror = () => { live.className = ""; live.textContent = "…"; };
</script></body></html>
"""
