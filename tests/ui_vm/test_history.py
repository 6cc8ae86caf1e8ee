"""The history view-model on a real journal: the list, the sheet, export into a folder (the
mounting of a real stick around it: tests/usb)."""

from __future__ import annotations

import errno
import json
import os
import re
import resource
import shutil
import signal
import subprocess
from datetime import datetime
from pathlib import Path

import pytest

from kiosk.game import score_match_json
from kiosk.journal import Journal
from kiosk.usb import UsbSticks
from kiosk.ui import i18n
from tests.ui_vm.history_data import _match, catalan_fixture, journal_fixture  # noqa: F401  (fixtures)
from kiosk.ui.viewmodels.history import HistoryViewModel, slug
from kiosk.ui.viewmodels.stickexport import ExportFailed, NoStick, _explain


def test_list_newest_first_and_the_sheet(journal):
    first = _match(journal, ("Avis", "Nets"), hands=(("oros", 50),))
    second = _match(journal, ("Cal Pep", "Ca la Rosa"), hands=(("botifarra", 72), ("copes", 40)))
    vm = HistoryViewModel(journal)
    vm.reload()
    assert [i.id for i in vm.infos] == [second, first]
    assert vm.selected == second
    assert vm.team_names == {"A": "Cal Pep", "B": "Ca la Rosa"}
    assert [r.number for r in vm.sheet] == [1, 2]
    assert vm.sheet[0].trump == "botifarra" and vm.sheet[0].scored == {"A": 72, "B": 0}
    assert vm.totals == {"A": 76, "B": 0}
    assert "Cal Pep 76 – 0 Ca la Rosa" in vm.line(vm.infos[0]) and "en joc" in vm.line(vm.infos[0])
    vm.select(first)
    assert vm.team_names["A"] == "Avis" and vm.totals == {"A": 14, "B": 0}


def test_no_matches(journal):
    vm = HistoryViewModel(journal)
    vm.reload()
    assert vm.infos == [] and vm.selected is None and vm.sheet == []
    assert vm.summary == i18n._("No matches yet")


def test_export_writes_json_and_pdf_that_score_the_same(tmp_path, journal):
    mid = _match(journal, ("Nosaltres", "Vosaltres·Ç"), hands=(("botifarra", 72), ("oros", 30)))
    stick = tmp_path / "stick"
    stick.mkdir()
    vm = HistoryViewModel(journal)
    vm.reload()
    result = vm.sticks.export(vm.export_payload(mid), stick)
    assert result.json_path.parent == stick and result.pdf_path.parent == stick
    assert sorted(p.name for p in stick.iterdir()) == sorted([result.json_path.name, result.pdf_path.name])
    data = json.loads(result.json_path.read_text("utf-8"))
    assert score_match_json(data)["totals"] == journal.load(mid).totals == {"A": 72, "B": 6}
    pdf = result.pdf_path.read_bytes()
    assert pdf.startswith(b"%PDF") and len(pdf) > 1000
    assert shutil.which("pdftotext"), "pdftotext is needed (Debian package poppler-utils)"
    text = subprocess.run(["pdftotext", "-layout", str(result.pdf_path), "-"], capture_output=True,
                          text=True, check=True).stdout
    assert "Full de puntuació" in text and "Vosaltres·Ç" in text and "Botifarra" in text
    assert "72" in text and " 6" in text


def test_no_stick_is_a_clear_message(tmp_path, journal):
    mid = _match(journal)
    vm = HistoryViewModel(journal, usb=UsbSticks(sys_root=tmp_path / "no-sticks"))
    vm.reload()
    with pytest.raises(NoStick) as info:
        vm.sticks.export(vm.export_payload(mid))
    assert "USB" in str(info.value)


def test_stick_pulled_before_writing(tmp_path, journal):
    mid = _match(journal)
    vm = HistoryViewModel(journal)
    vm.reload()
    with pytest.raises(ExportFailed) as info:
        vm.sticks.export(vm.export_payload(mid), tmp_path / "pulled")
    assert str(info.value) == i18n._("The USB stick could not be written (was it pulled out?). "
                                     "Nothing was saved on it; plug it in and try again.")


def test_second_file_failing_leaves_nothing(tmp_path, journal, monkeypatch):
    """The PDF's rename fails (the stick pulled between the two): the JSON is removed too."""
    mid = _match(journal)
    stick = tmp_path / "stick"
    stick.mkdir()
    vm = HistoryViewModel(journal)
    vm.reload()
    payload = vm.export_payload(mid)
    real_replace, calls = os.replace, []

    def replace(src, dst):
        calls.append(Path(dst).name)
        if len(calls) == 2:
            raise OSError(errno.EIO, "Input/output error")
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(ExportFailed) as info:
        vm.sticks.export(payload, stick)
    assert calls == [f"{payload['stem']}.json", f"{payload['stem']}.pdf"]
    assert "estirat" in str(info.value)
    assert list(stick.iterdir()) == []


def test_a_name_in_the_way_is_not_replaced(tmp_path, journal):
    """A folder where the PDF would go: the pair takes the next free suffix, the folder stays."""
    mid = _match(journal)
    stick = tmp_path / "stick"
    vm = HistoryViewModel(journal)
    vm.reload()
    payload = vm.export_payload(mid)
    (stick / f"{payload['stem']}.pdf" / "in_the_way").mkdir(parents=True)
    result = vm.sticks.export(payload, stick)
    assert (result.json_path.name, result.pdf_path.name) == (f"{payload['stem']}-2.json",
                                                             f"{payload['stem']}-2.pdf")
    assert (stick / f"{payload['stem']}.pdf" / "in_the_way").is_dir()
    assert sorted(p.name for p in stick.iterdir()) == sorted(
        [f"{payload['stem']}.pdf", result.json_path.name, result.pdf_path.name])


def test_a_full_stick_leaves_nothing(tmp_path, journal):
    """A real short write: the file size limit stops the PDF mid-write (EFBIG, like ENOSPC)."""
    mid = _match(journal)
    stick = tmp_path / "stick"
    stick.mkdir()
    vm = HistoryViewModel(journal)
    vm.reload()
    payload = vm.export_payload(mid)
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    old = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    # the limit holds for every file the process writes: Kivy's log file, already past 4000
    # bytes after earlier tests in this process, would fail its next line (EFBIG) instead of
    # the stick. It is set aside while the limit holds (its lines go to the captured log).
    from kivy.logger import FileHandler
    kivy_log, FileHandler.fd = FileHandler.fd, False
    resource.setrlimit(resource.RLIMIT_FSIZE, (4000, hard))
    try:
        with pytest.raises(ExportFailed) as info:
            vm.sticks.export(payload, stick)
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, old)
        FileHandler.fd = kivy_log
    assert "plena" in str(info.value)
    assert list(stick.iterdir()) == []


def test_error_sentences():
    assert "plena" in _explain(OSError(errno.ENOSPC, "No space"))
    assert "només de lectura" in _explain(OSError(errno.EROFS, "Read-only"))
    assert "estirat" in _explain(OSError(errno.EIO, "I/O error"))


# ---------------------------------------------------------------------- tournament tables
def _pdf_text(path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout


def _local_stamp(journal, mid) -> str:
    created = next(i.created_at for i in journal.matches() if i.id == mid)
    return datetime.fromisoformat(created.replace("Z", "+00:00")).astimezone().strftime("%Y-%m-%d_%H%M")


def test_file_stem_with_and_without_a_table_name(journal):
    mid = _match(journal)
    table = {"name": ""}
    vm = HistoryViewModel(journal, table_name=lambda: table["name"])
    vm.reload()
    stamp = _local_stamp(journal, mid)
    assert vm.file_stem(mid) == f"botifarra-{stamp}-match{mid}"
    assert vm.export_payload(mid)["table"] == ""
    table["name"] = "Taula 7"  # read at each export: a change in the settings applies at once
    assert vm.file_stem(mid) == f"botifarra-{stamp}-taula-7-match{mid}"
    assert vm.export_payload(mid)["table"] == "Taula 7"
    assert vm.export_payload(mid)["stem"] == f"botifarra-{stamp}-taula-7-match{mid}"
    table["name"] = "  ¿¿//  "  # nothing usable in a file name: no table part, the sheet keeps it
    assert vm.file_stem(mid) == f"botifarra-{stamp}-match{mid}"
    assert vm.export_payload(mid)["table"] == "¿¿//"
    assert re.fullmatch(r"botifarra-\d{4}-\d\d-\d\d_\d{4}-match\d+", vm.file_stem(mid))


@pytest.mark.parametrize("name, expected", [
    ("Taula 7", "taula-7"),
    ("Taula 7 / Bar l'Àngel", "taula-7-bar-l-angel"),
    ("  MESA   12  ", "mesa-12"),
    ("Sala Col·lectiu: Ñú 3?*<>|\"", "sala-collectiu-nu-3"),  # l·l stays one word
    ("../../etc/passwd", "etc-passwd"),
    ("Taula\n7\t\x00", "taula-7"),
    ("🂡 ♠", ""),
    ("", ""),
    ("x" * 60 + " 7", "x" * 40),
    ("a" * 39 + " b", "a" * 39),  # never ends on a hyphen when cut
])
def test_slug_of_odd_table_names(name, expected):
    assert slug(name) == expected
    assert re.fullmatch(r"([a-z0-9]+(-[a-z0-9]+)*)?", slug(name))


def test_two_tables_same_minute_and_a_repeat_never_overwrite(tmp_path):
    """Two kiosks whose match 1 started in the same minute, one stick carried between them:
    no table name = the same stem, so the second pair of files takes -2, a third export -3."""
    stick = tmp_path / "stick"
    stick.mkdir()
    journals = [Journal(tmp_path / f"table{n}.sqlite") for n in (1, 2)]
    try:
        mids = [_match(j, names, hands=((trump, pts),)) for j, names, trump, pts in
                zip(journals, (("Avis", "Nets"), ("Cal Pep", "Ca la Rosa")), ("oros", "copes"), (50, 60))]
        vms = [HistoryViewModel(j) for j in journals]
        payloads = []
        for vm, mid in zip(vms, mids):
            vm.reload()
            payloads.append(vm.export_payload(mid))
        stem = payloads[0]["stem"]
        payloads[1]["stem"] = stem  # the same minute, the same match id: the clash of the report
        first = vms[0].sticks.export(payloads[0], stick)
        second = vms[1].sticks.export(payloads[1], stick)
        third = vms[0].sticks.export(payloads[0], stick)
        assert [r.json_path.name for r in (first, second, third)] == [
            f"{stem}.json", f"{stem}-2.json", f"{stem}-3.json"]
        assert [r.pdf_path.name for r in (first, second, third)] == [
            f"{stem}.pdf", f"{stem}-2.pdf", f"{stem}-3.pdf"]
        assert len(list(stick.iterdir())) == 6  # no temporary file left
        assert json.loads(first.json_path.read_text("utf-8"))["team_names"]["A"] == "Avis"
        assert json.loads(second.json_path.read_text("utf-8"))["team_names"]["A"] == "Cal Pep"
        assert "Avis" in _pdf_text(first.pdf_path) and "Cal Pep" in _pdf_text(second.pdf_path)
        # only one of the pair taken: both files still move on together
        (stick / f"{stem}-4.pdf").write_bytes(b"someone else's")
        fourth = vms[1].sticks.export(payloads[1], stick)
        assert (fourth.json_path.name, fourth.pdf_path.name) == (f"{stem}-5.json", f"{stem}-5.pdf")
        assert (stick / f"{stem}-4.pdf").read_bytes() == b"someone else's"
        assert not (stick / f"{stem}-4.json").exists()
    finally:
        for j in journals:
            j.close()


def test_table_names_keep_tables_apart_and_print_on_the_sheet(tmp_path):
    stick = tmp_path / "stick"
    stick.mkdir()
    results = []
    for n, name in ((1, "Taula 7"), (2, "Taula 7 / Bar l'Àngel")):
        journal = Journal(tmp_path / f"table{n}.sqlite")
        try:
            mid = _match(journal)
            vm = HistoryViewModel(journal, table_name=lambda name=name: name)
            vm.reload()
            payload = vm.export_payload(mid)
            assert payload["table"] == name
            results.append(vm.sticks.export(payload, stick))
        finally:
            journal.close()
    assert "-taula-7-match" in results[0].json_path.name
    assert "-taula-7-bar-l-angel-match" in results[1].json_path.name
    assert len(list(stick.iterdir())) == 4
    header = _pdf_text(results[1].pdf_path).splitlines()[:4]
    assert any("Taula 7 / Bar l'Àngel" in line for line in header), header
    assert any("Full de puntuació" in line for line in header), header
    # the match JSON is the contract of issue 2: no table in it
    data = json.loads(results[1].json_path.read_text("utf-8"))
    assert "table" not in data and score_match_json(data)["totals"] == {"A": 144, "B": 0}


# ---------------------------------------------------------------------- export all of today's matches


def test_a_game_without_pairs_in_the_list_and_selected(journal):
    """A three-player match played at the table: one total per seat, a minus sign."""
    from kiosk.game import VariantMatch
    m = VariantMatch.create("three", "reglament", players=["Anna", "Pere", None])
    for ev in ({"type": "trump", "seat": 0, "trump": "oros"}, {"type": "play"},
               {"type": "hand_scored", "points": [40, 20, 12]}):
        m = m.apply(ev)
    [match_id] = journal.import_matches([m])
    vm = HistoryViewModel(journal)
    vm.reload()
    vm.select(match_id)
    assert vm.line(vm.info(match_id)).endswith("Anna 16 · Pere \u22124 · Seient 3 \u221212")
    assert vm.summary == "Anna 16 · Pere \u22124 · Seient 3 \u221212" and vm.sheet == []
    assert vm.players == ["Anna", "Pere", "Seient 3"]
    [row] = vm.seat_sheet
    assert (row.number, row.trump, row.scored, row.totals) == (1, "oros", (16, -4, -12), (16, -4, -12))
    # won by one person: "Ha guanyat Anna" (it said "Han guanyat", as for a pair), in the list too
    won = VariantMatch.create("three", {"preset": "reglament", "target": 15}, players=["Anna", "Pere", None])
    for ev in ({"type": "trump", "seat": 0, "trump": "oros"}, {"type": "play"},
               {"type": "hand_scored", "points": [40, 20, 12]}):
        won = won.apply(ev)
    assert won.winner == 0
    [won_id] = journal.import_matches([won])
    vm.reload()
    vm.select(won_id)
    assert vm.summary.endswith(" · Ha guanyat Anna") and " · Ha guanyat Anna\n" in vm.line(vm.info(won_id))


def test_a_game_without_pairs_exports_json_and_a_sheet_per_player(tmp_path, journal):
    """Four each for himself with a contro and a misdeal: the JSON is the match's own (it
    scores the same), the PDF has one column per player and prints a loss with a minus."""
    from kiosk.game import VariantMatch, score_match_json
    m = VariantMatch.create("four_individual", "reglament", players=["Anna", "Pere", None, "Marta"])
    for ev in ({"type": "trump", "seat": 0, "trump": "oros"}, {"type": "double", "seat": 1, "level": "contro"},
               {"type": "play"}, {"type": "hand_scored", "points": [30, 20, 12, 10]},
               {"type": "misdeal"}):
        m = m.apply(ev)
    assert m.totals == (24, 4, -12, -16)
    pair = _match(journal)
    [match_id] = journal.import_matches([m])
    stick = tmp_path / "stick"
    stick.mkdir()
    vm = HistoryViewModel(journal, table_name=lambda: "Taula 3")
    vm.reload()
    payload = vm.export_payload(match_id)
    assert payload["players"] == ["Anna", "Pere", "Seient 3", "Marta"] and payload["winner"] is None
    assert [r.kind for r in payload["seat_sheet"]] == ["played", "misdeal"]
    result = vm.sticks.export(payload, stick)
    data = json.loads(result.json_path.read_text("utf-8"))
    assert data == m.to_json() and score_match_json(data)["totals"] == [24, 4, -12, -16]
    text = _pdf_text(result.pdf_path)
    header = next(line for line in text.splitlines() if "Anna" in line and "Marta" in line and "#" in line)
    assert header.index("Anna") < header.index("Pere") < header.index("Seient 3") < header.index("Marta")
    assert "\u221212" in text and "\u221216" in text and "Total: Anna 24 · Pere 4" in text
    assert "Mala repartició" in text, text
    # today's export takes both games, the pair match first (oldest first)
    vm.now = lambda: datetime.now()
    payloads, unreadable = vm.today_payloads()
    assert [p["match_id"] for p in payloads] == [pair, match_id] and unreadable == 0
    done = vm.sticks.export_many(payloads, stick)
    assert done.problem is None and len(done.written) == 2
