"""Export today's matches in one go (the history view-model on real journals): only today's,
oldest first, the singular, a stick pulled midway, a full stick, an empty day, a match
that cannot be read."""

from __future__ import annotations

import errno
import json
import os
from datetime import datetime
from pathlib import Path

import pytest

from kiosk.game import score_match_json
from kiosk.journal import Journal
from kiosk.usb import UsbSticks
from kiosk.ui import i18n
from kiosk.ui.viewmodels.history import HistoryViewModel
from kiosk.ui.viewmodels.stickexport import ExportFailed, ManyExported, NoStick
from tests.ui_vm.history_data import _match, catalan_fixture  # noqa: F401  (fixture)


YESTERDAY_EVENING = datetime(2026, 11, 21, 22, 30).timestamp()  # local times
TODAY_MORNING = datetime(2026, 11, 22, 9, 15).timestamp()


def _day_journal(path, times):
    """A journal whose matches were created at the given local times (one per time)."""
    clock = {"t": times[0]}
    journal = Journal(path, clock=lambda: clock["t"])
    mids = []
    for n, t in enumerate(times):
        clock["t"] = t
        mids.append(_match(journal, (f"Parella {n}", "Rivals"), hands=(("oros", 40 + n),)))
    return journal, mids


def test_export_today_writes_only_todays_matches_oldest_first(tmp_path):
    times = [YESTERDAY_EVENING, YESTERDAY_EVENING + 600, TODAY_MORNING, TODAY_MORNING + 3600,
             TODAY_MORNING + 7200]
    journal, mids = _day_journal(tmp_path / "journal.sqlite", times)
    stick = tmp_path / "stick"
    stick.mkdir()
    try:
        vm = HistoryViewModel(journal, table_name=lambda: "Taula 7",
                              now=lambda: datetime(2026, 11, 22, 20, 0))
        assert vm.today_ids() == mids[2:]
        payloads, unreadable = vm.today_payloads()
        assert unreadable == 0 and [p["match_id"] for p in payloads] == mids[2:]
        seen = []
        result = vm.sticks.export_many(payloads, stick, unreadable=unreadable, on_progress=lambda n, t: seen.append((n, t)))
        assert seen == [(1, 3), (2, 3), (3, 3)] and result.problem is None and result.total == 3
        assert [r.json_path.name for r in result.written] == [
            f"botifarra-2026-11-22_{hhmm}-taula-7-match{mid}.json"
            for hhmm, mid in zip(("0915", "1015", "1115"), mids[2:])]
        assert sorted(p.name for p in stick.iterdir()) == sorted(
            n for r in result.written for n in (r.json_path.name, r.pdf_path.name))
        for r, mid in zip(result.written, mids[2:]):
            data = json.loads(r.json_path.read_text("utf-8"))
            assert score_match_json(data)["totals"] == journal.load(mid).totals
            assert r.pdf_path.read_bytes().startswith(b"%PDF")
        assert vm.sticks.many_message(result) == ("3 partides desades a la memòria USB", True)
        assert vm.sticks.progress_message(3, 7) == "Escrivint 3 de 7…"

        # again (a second stick run): nothing overwritten, every pair gets -2
        again = vm.sticks.export_many(vm.today_payloads()[0], stick)
        assert [r.json_path.stem for r in again.written] == [r.json_path.stem + "-2" for r in result.written]
        assert len(list(stick.iterdir())) == 12
        # just after midnight the evening's matches are yesterday's
        vm.now = lambda: datetime(2026, 11, 21, 23, 59)
        assert vm.today_ids() == mids[:2]
    finally:
        journal.close()


def test_export_today_one_match_and_the_singular(tmp_path):
    journal, mids = _day_journal(tmp_path / "journal.sqlite", [YESTERDAY_EVENING, TODAY_MORNING])
    try:
        vm = HistoryViewModel(journal, now=lambda: datetime(2026, 11, 22, 12, 0))
        result = vm.sticks.export_many(vm.today_payloads()[0], tmp_path)
        assert len(result.written) == 1
        assert vm.sticks.many_message(result) == ("1 partida desada a la memòria USB", True)
    finally:
        journal.close()


def test_export_today_stick_pulled_midway_keeps_what_was_written(tmp_path, monkeypatch):
    """The third of five fails at its PDF rename (the stick pulled): the first two stay whole,
    the third leaves nothing (no temp file), the last two are not tried."""
    journal, mids = _day_journal(tmp_path / "journal.sqlite", [TODAY_MORNING + 60 * n for n in range(5)])
    stick = tmp_path / "stick"
    stick.mkdir()
    try:
        vm = HistoryViewModel(journal, now=lambda: datetime(2026, 11, 22, 18, 0))
        payloads, _unreadable = vm.today_payloads()
        assert len(payloads) == 5
        real_replace, calls = os.replace, []

        def replace(src, dst):
            calls.append(Path(dst).name)
            if len(calls) == 6:  # 1.json 1.pdf 2.json 2.pdf 3.json [3.pdf fails]
                raise OSError(errno.EIO, "Input/output error")
            return real_replace(src, dst)

        monkeypatch.setattr(os, "replace", replace)
        seen = []
        result = vm.sticks.export_many(payloads, stick, on_progress=lambda n, t: seen.append(n))
        assert seen == [1, 2, 3] and len(calls) == 6
        assert isinstance(result.problem, ExportFailed) and result.total == 5
        assert [r.json_path.stem for r in result.written] == [p["stem"] for p in payloads[:2]]
        assert sorted(p.name for p in stick.iterdir()) == sorted(
            f"{p['stem']}.{ext}" for p in payloads[:2] for ext in ("json", "pdf"))
        for r in result.written:
            assert json.loads(r.json_path.read_text("utf-8"))["team_names"]
        text, info = vm.sticks.many_message(result)
        assert not info
        assert text.startswith("Només s'han desat 2 de les 5 partides a la memòria USB; 3 no s'han desat.")
        assert "estirat" in text and "No s'hi ha desat res" not in text
    finally:
        journal.close()


def test_export_today_full_stick_at_once_and_no_stick(tmp_path):
    journal, _mids = _day_journal(tmp_path / "journal.sqlite", [TODAY_MORNING, TODAY_MORNING + 60])
    try:
        vm = HistoryViewModel(journal, usb=UsbSticks(sys_root=tmp_path / "no-sticks"),
                              now=lambda: datetime(2026, 11, 22, 18, 0))
        payloads, _unreadable = vm.today_payloads()
        result = vm.sticks.export_many(payloads)
        assert isinstance(result.problem, NoStick) and result.written == ()
        assert vm.sticks.many_message(result) == (i18n._("No USB stick found. Plug one in and try again."), False)
        # a full stick after the first match: the count and the reason
        full = ManyExported(written=(object(),), total=2, problem=ExportFailed(errno.ENOSPC, "x"))
        text, info = vm.sticks.many_message(full)
        assert not info and "1 de les 2" in text and "1 no s'han desat" in text and text.endswith("plena.")
    finally:
        journal.close()


def test_export_today_on_an_empty_day(tmp_path):
    journal, _mids = _day_journal(tmp_path / "journal.sqlite", [YESTERDAY_EVENING])
    stick = tmp_path / "stick"
    stick.mkdir()
    try:
        vm = HistoryViewModel(journal,
                              now=lambda: datetime(2026, 11, 22, 10, 0))
        payloads, unreadable = vm.today_payloads()
        assert payloads == [] and unreadable == 0
        result = vm.sticks.export_many(payloads, stick, on_progress=lambda n, t: pytest.fail("nothing to write"))
        assert result.written == () and result.problem is None
        assert vm.sticks.many_message(result) == (
            "Avui no hi ha cap partida: no s'ha escrit res a la memòria USB.", True)
        assert list(stick.iterdir()) == []
    finally:
        journal.close()


def test_export_today_skips_a_match_that_cannot_be_read_and_says_so(tmp_path):
    import sqlite3
    db = tmp_path / "journal.sqlite"
    journal, mids = _day_journal(db, [TODAY_MORNING, TODAY_MORNING + 60])
    journal.close()
    conn = sqlite3.connect(db)  # hand-edited behind the kiosk's back
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute("UPDATE events SET data = ? WHERE match_id = ? AND seq = 2",
                 (json.dumps({"type": "trump", "seat": 0, "trump": "hearts"}), mids[0]))
    conn.execute("UPDATE matches SET summary = NULL WHERE id = ?", (mids[0],))
    conn.commit()
    conn.close()
    journal = Journal(db)
    try:
        vm = HistoryViewModel(journal, now=lambda: datetime(2026, 11, 22, 18, 0))
        payloads, unreadable = vm.today_payloads()
        assert [p["match_id"] for p in payloads] == mids[1:] and unreadable == 1
        result = vm.sticks.export_many(payloads, tmp_path, unreadable=unreadable)
        text, info = vm.sticks.many_message(result)
        assert len(result.written) == 1 and not info
        assert text == "1 partida desada a la memòria USB. 1 de les partides d'avui no es pot llegir; no s'ha desat."
    finally:
        journal.close()
