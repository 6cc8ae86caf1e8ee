"""Match history: the past matches and their sheets; export to a USB stick (a tmp folder)."""

from __future__ import annotations

import json

import pytest

from kiosk.game import score_match_json
from kiosk.ui.i18n import _
from tests.ui.flows import bid, confirm, score_points, start_match
from tests.ui.ui2steps import wait_for

pytestmark = [pytest.mark.ui, pytest.mark.slow]


def test_history_and_export_to_a_stick(kiosk, tmp_path):
    media = tmp_path / "media"
    stick = media / "pi" / "STICK"
    stick.mkdir(parents=True)
    d = kiosk.start(usb_roots=[str(media / "*" / "*")])
    start_match(d, dealer=0)
    bid(d, "botifarra")
    score_points(d, "A", 60)
    confirm(d)
    bid(d, "oros", levels=("contro",))
    score_points(d, "B", 50)
    confirm(d)
    totals = d.app.vm.totals
    assert totals == {"A": 48, "B": 28}

    d.tap("history")
    assert d.screen == "history"
    history = d.current.history
    assert len(history.infos) == 1 and history.totals == totals
    rows = [w for w in d.current.ids.sheet.children if not w.header]
    assert len(rows) == 2
    d.tap("export")
    wait_for(d, lambda: not d.current.busy, what="the export")
    files = sorted(p.name for p in stick.iterdir())
    assert [f.rsplit(".", 1)[1] for f in files] == ["json", "pdf"], d.app.banner.text
    data = json.loads((stick / files[0]).read_text("utf-8"))
    assert score_match_json(data)["totals"] == totals
    assert (stick / files[1]).read_bytes().startswith(b"%PDF")
    assert files[0].rsplit(".", 1)[0] in d.app.banner.text

    # the stick is gone: a clear message, nothing written anywhere
    for p in stick.iterdir():
        p.unlink()
    stick.rmdir()
    d.tap("export")
    wait_for(d, lambda: not d.current.busy, what="the export")
    assert d.app.banner.text == _("No USB stick found. Plug one in and try again.")
    d.shot(force=True)

    # a second match: listed first; tapping the first one shows its sheet again
    d.tap("back")
    assert d.screen == "scoreboard"
    d.app.vm.new_match()
    assert d.app.banner.text  # the message still covers the top bar: a first tap hides it
    d.touch_at(*d.app.banner.center)
    assert not d.app.banner.text and d.screen == "scoreboard"
    d.tap("history")
    assert len(d.current.history.infos) == 2
    first = d.current.history.infos[-1].id
    d.tap(f"match_{first}")
    assert d.current.history.selected == first and d.current.history.totals == totals


def test_export_with_a_table_name_never_overwrites(kiosk, tmp_path):
    """The stick carried from table to table: the files carry the table's name; exporting the
    same match again writes a -2 pair beside the first and the message names it."""
    from kiosk.settings import Settings
    media = tmp_path / "media"
    stick = media / "pi" / "STICK"
    stick.mkdir(parents=True)
    settings = Settings(path=tmp_path / "settings.ini")
    settings.set("table.name", "Taula 7 / Bar l'Àngel")
    d = kiosk.start(settings=settings, usb_roots=[str(media / "*" / "*")])
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
    assert sorted(p.name for p in stick.iterdir()) == sorted(
        f"{n}.{ext}" for n in names for ext in ("json", "pdf"))
    first, second = (json.loads((stick / f"{n}.json").read_text("utf-8")) for n in names)
    assert first == second and "table" not in first  # the match JSON is unchanged
    d.shot(force=True)
