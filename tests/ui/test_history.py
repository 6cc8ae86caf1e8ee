"""Match history: the past matches and their sheets; export to a USB stick (a real file
system on a loop device, presented as a removable disk: tests/usb/stick.py)."""

from __future__ import annotations

import json

import pytest

from kiosk.game import score_match_json
from kiosk.ui.i18n import _
from tests.ui.flows import bid, confirm, score_points, start_match
from tests.ui.ui2steps import wait_for
from tests.usb.stick import FILESYSTEMS, loop_stick

pytestmark = [pytest.mark.ui, pytest.mark.slow]


@pytest.fixture
def stick(tmp_path):
    with loop_stick(tmp_path, fs=FILESYSTEMS[0]) as plugged:
        yield plugged


def test_history_and_export_to_a_stick(kiosk, tmp_path, stick):
    d = kiosk.start(usb=stick.usb)
    start_match(d, dealer=0)
    bid(d, "botifarra")
    score_points(d, "A", 60)
    confirm(d)
    bid(d, "oros", levels=("contro",))
    score_points(d, "B", 50)
    confirm(d)
    totals = d.app.session.state.totals
    assert totals == {"A": 48, "B": 28}

    d.tap("history")
    assert d.screen == "history"
    history = d.current.history
    assert len(history.infos) == 1 and history.totals == totals
    rows = [w for w in d.current.ids.sheet.children if not w.header]
    assert len(rows) == 2
    d.tap("export")
    wait_for(d, lambda: not d.current.busy, what="the export")
    on_stick = stick.files()  # synced and unmounted: read by mounting it again
    files = sorted(on_stick)
    assert [f.rsplit(".", 1)[1] for f in files] == ["json", "pdf"], d.app.banner.text
    data = json.loads(on_stick[files[0]].decode("utf-8"))
    assert score_match_json(data)["totals"] == totals
    assert on_stick[files[1]].startswith(b"%PDF")
    assert files[0].rsplit(".", 1)[0] in d.app.banner.text
    assert d.app.banner.text.endswith(_("You can take the USB stick out now."))
    assert not stick.is_mounted()

    # the stick is gone: a clear message, nothing written anywhere
    stick.pull()
    d.tap("export")
    wait_for(d, lambda: not d.current.busy, what="the export")
    assert d.app.banner.text == _("No USB stick found. Plug one in and try again.")
    d.shot(force=True)

    # a second match: listed first; tapping the first one shows its sheet again
    d.tap("back")
    assert d.screen == "scoreboard"
    d.app.session.new_match()
    assert not d.app.banner.text  # the stick's message left with the screen it was about
    d.tap("history")
    assert len(d.current.history.infos) == 2
    first = d.current.history.infos[-1].id
    d.tap(f"match_{first}")
    assert d.current.history.selected == first and d.current.history.totals == totals


def test_export_with_a_table_name_never_overwrites(kiosk, tmp_path, stick):
    """The stick carried from table to table: the files carry the table's name; exporting the
    same match again writes a -2 pair beside the first and the message names it."""
    from kiosk.settings import Settings
    settings = Settings(path=tmp_path / "settings.ini")
    settings.set("table.name", "Taula 7 / Bar l'Àngel")
    d = kiosk.start(settings=settings, usb=stick.usb)
    assert d.app.sm.get_screen("scoreboard").status.startswith("Taula 7 / Bar l'Àngel · ")
    start_match(d, dealer=0)
    bid(d, "botifarra")
    score_points(d, "A", 60)
    confirm(d)
    d.tap("history")
    names = []
    for _n in range(2):
        d.tap("export")
        wait_for(d, lambda: not d.current.busy, what="the export")
        names.append(d.current.last_export.json_path.stem)
        assert names[-1] in d.app.banner.text, d.app.banner.text
    assert "-taula-7-bar-l-angel-match" in names[0] and names[1] == names[0] + "-2"
    on_stick = stick.files()
    assert sorted(on_stick) == sorted(f"{n}.{ext}" for n in names for ext in ("json", "pdf"))
    first, second = (json.loads(on_stick[f"{n}.json"].decode("utf-8")) for n in names)
    assert first == second and "table" not in first  # the match JSON is unchanged
    d.shot(force=True)


# ---------------------------------------------------------------------- export all of today's matches
def _journal_with_matches(db, times):
    """Matches created at the given local times, written before the kiosk starts."""
    from kiosk.journal import Journal
    clock = {"t": times[0]}
    mids = []
    with Journal(db, clock=lambda: clock["t"]) as journal:
        for n, t in enumerate(times):
            clock["t"] = t
            mid = journal.create_match({"type": "match_created", "rules": {"preset": "reglament"},
                                        "first_dealer": 0, "players": [None] * 4,
                                        "team_names": {"A": f"Parella {n + 1}", "B": "Rivals"}})
            journal.append(mid, {"type": "trump", "seat": 0, "trump": "oros"})
            journal.append(mid, {"type": "play"})
            journal.append(mid, {"type": "hand_scored", "points": {"A": 40 + n}, "source": "points",
                                 "evidence": None})
            mids.append(mid)
    return mids


def _button_words_fit(button) -> list[str]:
    """The button's words as laid out: at most two lines, no word cut in two, inside the button."""
    from kivy.core.text import Label as CoreLabel
    from kivy.app import App
    width = button.width - App.get_running_app().u * 6
    bad = []
    for word in button.text.split():
        core = CoreLabel(text=word, font_size=button.font_size, bold=button.bold)
        core.refresh()
        if core.texture.size[0] > width + 1:
            bad.append(f"{button.action}: the word {word!r} is wider than the button ({width:.0f})")
    core = CoreLabel(text=button.text, font_size=button.font_size, bold=button.bold,
                     halign="center", text_size=(width, None))
    core.refresh()
    line = CoreLabel(text="Xg", font_size=button.font_size, bold=button.bold)
    line.refresh()
    if core.texture.size[1] > min(button.height, 2 * line.texture.size[1]) + 1:
        bad.append(f"{button.action}: {button.text!r} needs {core.texture.size[1]} px high "
                   f"({button.height:.0f} there, two lines at most)")
    return bad


def test_export_todays_matches_in_one_go(kiosk, tmp_path, stick):
    """Two matches yesterday, three today: the button beside Export writes today's three
    (.json + .pdf each), shows "Escrivint n de 3…" while neither export button can start
    another, and ends with one message; the next day's tap says there is nothing to write."""
    import threading
    from datetime import datetime
    from kiosk.ui import i18n
    from tests.ui.harness import SIZES
    from tests.ui.ui2steps import shot_as
    yesterday, today = datetime(2026, 11, 21, 21, 0).timestamp(), datetime(2026, 11, 22, 10, 0).timestamp()
    mids = _journal_with_matches(kiosk.db, [yesterday, yesterday + 900, today, today + 1800, today + 3600])
    from kiosk.settings import Settings
    now = {"t": today + 8 * 3600}
    d = kiosk.start(settings=Settings(path=tmp_path / "settings.ini"), usb=stick.usb,
                    clock=lambda: now["t"])
    d.tap("history")
    assert d.screen == "history" and len(d.current.history.infos) == 5
    assert d.find("export_today").text == "Exporta les d'avui"

    # the new button beside Export: same row, same height, fitting every size in every language
    problems = []
    for lang in ("ca", "es", "en"):
        d.app.set_language(lang)
        for size in SIZES:
            d.resize(size)
            d.pump(2)
            one, today_b = d.find("export"), d.find("export_today")
            if abs(one.y - today_b.y) > 1 or today_b.x < one.right - 1 or today_b.right > d.window.width + 1:
                problems.append(f"{lang} {size}: the buttons overlap or leave the screen")
            problems += [f"{lang} {size}: {p}" for b in (d.find("back"), one, today_b)
                         for p in _button_words_fit(b)]
    assert not problems, problems
    d.app.set_language("ca")
    d.resize(SIZES[0])
    d.pump(2)
    assert i18n.language() == "ca"

    texts = []
    d.app.banner.bind(text=lambda w, text: texts.append(text))
    button = d.find("export_today")
    sticks, real_export, go_on = d.current.history.sticks, d.current.history.sticks.export, threading.Event()

    def held_export(payload, stick=None):  # the first match waits until the test has looked
        assert go_on.wait(20)
        return real_export(payload, stick)

    sticks.export = held_export
    d.tap("export_today")
    assert d.current.busy and d.current.running == "today"
    assert not d.has("export") and not d.has("export_today")  # no second export can start
    assert d.app.banner.text.startswith("Escrivint ") and d.app.banner.text.endswith(" de 3…")
    shot_as(d, "writing_today")
    d.touch_at(*button.to_window(*button.center))  # a tap on the disabled button: nothing more starts
    assert d.current.busy and sum(t.name == "usb-export-today" for t in threading.enumerate()) == 1
    go_on.set()
    wait_for(d, lambda: not d.current.busy, what="the export of today's matches")
    progress = [t for t in texts if t.startswith("Escrivint ") and " de 3" in t]
    assert progress == ["Escrivint 1 de 3…", "Escrivint 2 de 3…", "Escrivint 3 de 3…"], texts
    assert d.app.banner.text == "3 partides desades a la memòria USB. Ja podeu treure la memòria USB."
    assert not d.app._problem_shown  # an information: no error cue
    written = d.current.last_export_today.written
    assert [r.json_path.name.rsplit("-match", 1)[1] for r in written] == [f"{m}.json" for m in mids[2:]]
    on_stick = stick.files()
    assert sorted(on_stick) == sorted(n for r in written for n in (r.json_path.name, r.pdf_path.name))
    for r, mid in zip(written, mids[2:]):
        data = json.loads(on_stick[r.json_path.name].decode("utf-8"))
        assert data["team_names"]["A"] == f"Parella {mid}" and score_match_json(data)["totals"]["A"] > 0
        assert on_stick[r.pdf_path.name].startswith(b"%PDF")
    assert d.has("export") and d.has("export_today")
    shot_as(d, "saved_today")

    # the next day: nothing of today yet, a clear message, nothing written
    now["t"] += 24 * 3600
    d.touch_at(*d.app.banner.center)  # hide the message
    d.tap("export_today")
    assert not d.current.busy
    assert d.app.banner.text == "Avui no hi ha cap partida: no s'ha escrit res a la memòria USB."
    assert len(stick.files()) == 6
    shot_as(d, "nothing_today")


@pytest.mark.expect_errors
@pytest.mark.parametrize("button", ["export_today", "export"])
def test_a_bug_while_exporting_frees_the_buttons_and_recovers(kiosk, tmp_path, caplog, button, stick):
    """Not the stick but a bug on the worker thread: it reaches the UI loop's handler (logged,
    back to the scoreboard with the score safe) and the export buttons work again."""
    import time
    _journal_with_matches(kiosk.db, [time.time()])
    d = kiosk.start(usb=stick.usb)
    d.tap("history", shot=False)

    def broken(payload, stick=None):
        raise RuntimeError("a bug in the PDF sheet")

    d.current.history.sticks.export = broken
    screen = d.current
    if button == "export":
        screen.select(screen.history.infos[0].id)
    d.tap(button, shot=False)
    wait_for(d, lambda: not screen.busy, what="the failed export")
    wait_for(d, lambda: d.screen == "scoreboard", what="the recovery")
    assert "a bug in the PDF sheet" in caplog.text
    assert "La puntuació està guardada" in d.app.banner.text
    assert screen.running == "" and not stick.files()


def test_a_game_without_pairs_in_history_and_on_the_stick(kiosk, tmp_path, stick):
    """A three-player match in the journal: History shows its hands with one column per
    player (the running totals, a minus sign for a loss) and Export writes its JSON and PDF."""
    from kiosk.game import VariantMatch
    from kiosk.journal import Journal
    m = VariantMatch.create("three", "reglament", players=["Anna", "Pere", None])
    for ev in ({"type": "trump", "seat": 0, "trump": "oros"}, {"type": "double", "seat": 1, "level": "contro"},
               {"type": "play"}, {"type": "hand_scored", "points": [40, 20, 12]}, {"type": "misdeal"}):
        m = m.apply(ev)
    with Journal(kiosk.db) as journal:  # the three-player match is the one on the table
        [three] = journal.import_matches([m])
    d = kiosk.start(usb=stick.usb)
    assert d.screen == "variant_board"
    d.tap("history")
    assert d.current.history.selected == three
    assert d.screen == "history" and d.current.history.players == ["Anna", "Pere", "Seient 3"]
    header, *rows = reversed(d.current.ids.sheet.children)
    assert [c.text for c in reversed(header.children)][3:] == ["Anna", "Pere", "Seient 3"]
    assert [[c.text for c in reversed(r.children)] for r in rows] == [
        ["1", "Oros", "×2", "32", "\u22128", "\u221224"], ["2", "Mala repartició", "", "32", "\u22128", "\u221224"]]
    d.shot(force=True)
    d.tap("export")
    wait_for(d, lambda: not d.current.busy, what="the export")
    on_stick = stick.files()
    files = sorted(on_stick)
    assert [f.rsplit(".", 1)[1] for f in files] == ["json", "pdf"], d.app.banner.text
    assert json.loads(on_stick[files[0]].decode("utf-8")) == m.to_json()
    assert on_stick[files[1]].startswith(b"%PDF")
    d.tap("back")
    assert d.screen == "variant_board"
