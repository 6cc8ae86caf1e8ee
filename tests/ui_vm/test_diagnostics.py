"""The diagnostics view-model: the diag collector's report as sentences."""

from __future__ import annotations

import argparse

import pytest

from kiosk.commands import diag
from kiosk.journal import Journal
from kiosk.ui import i18n
from kiosk.ui.viewmodels.diagnostics import DiagnosticsViewModel


@pytest.fixture(autouse=True)
def english():
    i18n.set_language("en")
    yield


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "journal.sqlite"
    Journal(path).close()
    return path


def test_real_report_on_a_sound_journal(db):
    vm = DiagnosticsViewModel(db_path=db, camera_source="demo")
    assert vm.summary()[0][0] == "Checking…"
    vm.set_report(vm.collect())
    assert vm.journal_ok is True
    summary = dict((label, (text, fine)) for label, text, fine in vm.summary())
    assert summary["Journal"] == ("Journal check: ok", True)
    assert "Python 3." in summary["Versions"][0] and "kivy 2.3.1" in summary["Versions"][0]
    assert summary["Disk"][0].startswith("Free space: ")
    assert summary["Camera"][0].startswith("Setting: demo.")
    details = vm.details()
    assert "== Journal ==" in details and "integrity: ok" in details


def test_a_damaged_journal_is_reported(tmp_path):
    path = tmp_path / "journal.sqlite"
    path.write_bytes(b"SQLite format 3\0" + b"\x13" * 4000)
    vm = DiagnosticsViewModel(db_path=path, collect=lambda db: diag.collect(
        argparse.Namespace(db=db), {"journal": diag.section_journal}))
    vm.set_report(vm.collect())
    assert vm.journal_ok is False
    label, text, fine = next(line for line in vm.summary() if line[0] == "Journal")
    assert text.startswith("Journal check FAILED") and not fine


def test_no_gpio_says_touch_and_keyboard():
    report = {"sections": {"gpio": {"controls": "touch and keyboard only"}, "journal": {"integrity": "ok"}}}
    vm = DiagnosticsViewModel(db_path=None, collect=lambda db: report)
    vm.set_report(vm.collect())
    texts = [text for _label, text, _fine in vm.summary()]
    assert "Touch and keyboard only: space = scan, enter = confirm, backspace = undo" in texts
    assert "Last errors" in [label for label, _t, _f in vm.summary()]
