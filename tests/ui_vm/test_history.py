"""The history view-model on a real journal: the list, the sheet, export to a "stick" folder."""

from __future__ import annotations

import errno
import json
import resource
import shutil
import signal
import subprocess

import pytest

from kiosk.game import score_match_json
from kiosk.journal import Journal
from kiosk.ui import i18n
from kiosk.ui.viewmodels.history import ExportFailed, HistoryViewModel, NoStick, _explain


def _match(journal, names=("Nosaltres", "Vosaltres"), hands=((("botifarra"), 72),) * 2):
    mid = journal.create_match({"type": "match_created", "rules": {"preset": "reglament"},
                                "first_dealer": 0, "players": [None] * 4,
                                "team_names": {"A": names[0], "B": names[1]}})
    for n, (trump, points) in enumerate(hands):
        journal.append(mid, {"type": "trump", "seat": n % 4, "trump": trump})
        journal.append(mid, {"type": "play"})
        journal.append(mid, {"type": "hand_scored", "points": {"A": points}, "source": "points",
                             "evidence": None})
    return mid


@pytest.fixture
def journal(tmp_path):
    j = Journal(tmp_path / "journal.sqlite")
    yield j
    j.close()


@pytest.fixture(autouse=True)
def catalan():
    i18n.set_language("ca")
    yield
    i18n.set_language("en")


def test_list_newest_first_and_the_sheet(journal):
    first = _match(journal, ("Avis", "Nets"), hands=(("oros", 50),))
    second = _match(journal, ("Cal Pep", "Ca la Rosa"), hands=(("botifarra", 72), ("copes", 40)))
    vm = HistoryViewModel(journal, usb_roots=())
    vm.reload()
    assert [i.id for i in vm.infos] == [second, first]
    assert vm.selected == second
    assert vm.team_names == {"A": "Cal Pep", "B": "Ca la Rosa"}
    assert [r["number"] for r in vm.sheet] == [1, 2]
    assert vm.sheet[0]["trump"] == "botifarra" and vm.sheet[0]["scored"] == {"A": 72, "B": 0}
    assert vm.totals == {"A": 76, "B": 0}
    assert "Cal Pep 76 – 0 Ca la Rosa" in vm.line(vm.infos[0]) and "en joc" in vm.line(vm.infos[0])
    vm.select(first)
    assert vm.team_names["A"] == "Avis" and vm.totals == {"A": 14, "B": 0}


def test_no_matches(journal):
    vm = HistoryViewModel(journal, usb_roots=())
    vm.reload()
    assert vm.infos == [] and vm.selected is None and vm.sheet == []
    assert vm.summary == i18n._("No matches yet")


def test_sticks_are_found_under_the_roots(tmp_path, journal):
    media = tmp_path / "media"
    (media / "pi" / "USB1").mkdir(parents=True)
    (media / "pi" / "not_a_dir").parent.mkdir(exist_ok=True)
    (media / "pi" / "not_a_dir").write_text("x")
    vm = HistoryViewModel(journal, usb_roots=(str(media / "*" / "*"), str(tmp_path / "mnt" / "*")))
    assert vm.sticks() == [media / "pi" / "USB1"]
    assert HistoryViewModel(journal, usb_roots=(str(tmp_path / "none" / "*"),)).sticks() == []


def test_export_writes_json_and_pdf_that_score_the_same(tmp_path, journal):
    mid = _match(journal, ("Nosaltres", "Vosaltres·Ç"), hands=(("botifarra", 72), ("oros", 30)))
    stick = tmp_path / "stick"
    stick.mkdir()
    vm = HistoryViewModel(journal, usb_roots=(str(tmp_path / "st*"),))
    vm.reload()
    result = vm.export(vm.export_payload(mid))
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
    vm = HistoryViewModel(journal, usb_roots=(str(tmp_path / "nothing" / "*"),))
    vm.reload()
    with pytest.raises(NoStick) as info:
        vm.export(vm.export_payload(mid))
    assert "USB" in str(info.value)


def test_stick_pulled_before_writing(tmp_path, journal):
    mid = _match(journal)
    vm = HistoryViewModel(journal, usb_roots=())
    vm.reload()
    with pytest.raises(ExportFailed) as info:
        vm.export(vm.export_payload(mid), tmp_path / "pulled")
    assert str(info.value) == i18n._("The USB stick could not be written (was it pulled out?). "
                                     "Nothing was saved on it; plug it in and try again.")


def test_second_file_failing_leaves_nothing(tmp_path, journal):
    """The PDF cannot take its name (a folder is in the way): the JSON is removed too."""
    mid = _match(journal)
    stick = tmp_path / "stick"
    vm = HistoryViewModel(journal, usb_roots=())
    vm.reload()
    payload = vm.export_payload(mid)
    (stick / f"{payload['stem']}.pdf" / "in_the_way").mkdir(parents=True)
    with pytest.raises(ExportFailed):
        vm.export(payload, stick)
    assert sorted(p.name for p in stick.iterdir()) == [f"{payload['stem']}.pdf"]


def test_a_full_stick_leaves_nothing(tmp_path, journal):
    """A real short write: the file size limit stops the PDF mid-write (EFBIG, like ENOSPC)."""
    mid = _match(journal)
    stick = tmp_path / "stick"
    stick.mkdir()
    vm = HistoryViewModel(journal, usb_roots=())
    vm.reload()
    payload = vm.export_payload(mid)
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    old = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (4000, hard))
    try:
        with pytest.raises(ExportFailed) as info:
            vm.export(payload, stick)
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, old)
    assert "plena" in str(info.value)
    assert list(stick.iterdir()) == []


def test_error_sentences():
    assert "plena" in _explain(OSError(errno.ENOSPC, "No space"))
    assert "només de lectura" in _explain(OSError(errno.EROFS, "Read-only"))
    assert "estirat" in _explain(OSError(errno.EIO, "I/O error"))
