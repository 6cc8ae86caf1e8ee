"""Diagnostics from the settings: the collector runs off the UI thread; the journal is ok."""

from __future__ import annotations

import pytest

from kiosk.settings import Settings
from kiosk.ui import i18n
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
    d.shot()
    d.tap("back")
    assert d.screen == "settings" and d.current.mode == "options", "still unlocked after diagnostics"
