"""Diagnostics from the settings: the collector runs off the UI thread; the journal is ok."""

from __future__ import annotations

import re

import pytest

from kiosk.settings import Settings
from kiosk.ui import i18n
from tests.ui.harness import SIZES
from tests.ui.ui2steps import open_settings, wait_for

pytestmark = [pytest.mark.ui, pytest.mark.slow]


def test_diagnostics_shows_the_journal_ok(kiosk, tmp_path):
    d = kiosk.start(settings=Settings(path=tmp_path / "settings.ini"))
    open_settings(d)
    d.tap("diagnostics", shot=False)
    assert d.screen == "diagnostics"
    assert d.current.running  # the UI keeps drawing while the checks run
    d.pump(3)
    wait_for(d, lambda: not d.current.running, timeout=30, what="the diagnostics")
    texts = [row.ids.body.text for row in d.current.ids.summary.children]
    assert i18n._("Journal check: ok") in texts
    assert any("Python 3." in t for t in texts)
    assert "integrity: ok" in d.current.details
    _rows_are_catalan_and_fit(d)
    d.shot()
    d.tap("back")
    assert d.screen == "settings" and d.current.mode == "options", "still unlocked after diagnostics"


# Words the diag collector writes in English and programs' names (the same in every language).
NAMES = {"python", "kivy", "opencv", "gpiozero", "gpio", "gb", "mb", "kb", "tb", "no", "versions", "errors",
         "pins", "dev", "video0", "picamera2"}


def _words(rows) -> set[str]:
    return {w.lower() for label, text in rows for w in re.findall(r"\b[^\W\d_]+\b", f"{label} {text}")}


def _rows_are_catalan_and_fit(d) -> None:
    """Every row reads in Catalan (no word of the same rows in English, numbers with a decimal
    comma); the caption of the English details is Catalan; rows wrap at every size."""
    screen = d.current
    assert i18n.language() == "ca"
    rows = [(row.ids.label.text, row.ids.body.text) for row in reversed(screen.ids.summary.children)]
    try:
        i18n.set_language("en")
        english = [(label, text) for label, text, _fine in screen.diag.summary()]
    finally:
        i18n.set_language("ca")
    assert rows != english
    found = screen.diag.report["sections"]["cameras"].get("v4l2")  # device names are shown as they are
    cameras = {w.lower() for w in re.findall(r"\w+", " ".join(found))} if isinstance(found, list) else set()
    assert not (_words(rows) & _words(english)) - NAMES - cameras, (rows, english)
    disk = dict(rows)["Disc"]
    assert re.search(r"\d,\d [KMGT]?B de \d+,\d [KMGT]?B \(\d+ %\)", disk), disk
    assert screen.details_title.startswith("Detalls per al tècnic")
    assert [line for line in screen.details.splitlines() if line.startswith("==")] == [
        "== app ==", "== libraries ==", "== cameras ==", "== gpio ==", "== disk ==", "== journal ==", "== errors =="]
    problems = []
    for size in SIZES:
        d.resize(size)
        d.pump(2)
        for row in screen.ids.summary.children:
            for w in (row.ids.label, row.ids.body):
                if w.texture_size[0] > w.width + 1 or w.texture_size[1] > row.height + 1:
                    problems.append(f"{size}: {w.text!r} {w.texture_size} in {w.size}, row {row.height:.0f}")
            scroll = screen.ids.scroll
            if row.to_window(row.right, row.y)[0] > scroll.to_window(scroll.right, scroll.y)[0] - scroll.bar_width:
                problems.append(f"{size}: the scroll bar covers {row.ids.label.text!r}")
    assert not problems, problems
