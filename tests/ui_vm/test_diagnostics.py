"""The diagnostics view-model: the diag collector's report as sentences."""

from __future__ import annotations

import re

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
    assert "Python 3." in summary["Versions"][0] and "Kivy 2.3.1" in summary["Versions"][0]
    assert summary["Disk"][0].startswith("Free space: ")
    assert summary["Camera"][0].startswith("Setting: Demo photos.")
    assert summary["Disk"][0].endswith("%)") and " GB of " in summary["Disk"][0]
    details = vm.details()
    assert "== journal ==" in details and "integrity: ok" in details


def test_a_damaged_journal_is_reported(tmp_path):
    path = tmp_path / "journal.sqlite"
    path.write_bytes(b"SQLite format 3\0" + b"\x13" * 4000)
    vm = DiagnosticsViewModel(db_path=path, collect=lambda db: diag.collect(
        db, {"journal": diag.section_journal}))
    vm.set_report(vm.collect())
    assert vm.journal_ok is False
    label, text, fine = next(line for line in vm.summary() if line[0] == "Journal")
    assert text == "Journal check FAILED: see the details below" and not fine
    assert any(line.startswith("integrity: NOT OK") for line in vm.details())


def test_no_gpio_says_touch_and_keyboard():
    report = {"sections": {"gpio": {"controls": "touch and keyboard only"}, "journal": {"integrity": "ok"}}}
    vm = DiagnosticsViewModel(db_path=None, collect=lambda db: report)
    vm.set_report(vm.collect())
    texts = [text for _label, text, _fine in vm.summary()]
    assert "Touch and keyboard only: space = scan, enter = confirm, backspace = undo" in texts
    assert "Last errors" in [label for label, _t, _f in vm.summary()]


# Reports that take every branch of the rows (the words the collector writes are English).
DISK = {"data dir": "/x", "free": "76.4 GB of 252.0 GB (30% free)", "writable": True}
REPORTS = {
    "sound": {"sections": {
        "app": {"version": "0.1.0", "python": "3.11.7"},
        "libraries": {"kivy": "2.3.1", "opencv": "5.0.0", "gpiozero": "2.0.1", "numpy": "2.1.0"},
        "cameras": {"v4l2": ["/dev/video0: C920"], "picamera2": "not available"},
        "gpio": {"enabled in settings": True, "gpio": "GPIO available through lgpio"},
        "disk": DISK, "journal": {"integrity": "ok"}, "errors": {"last errors": "none"}}},
    "troubled": {"sections": {
        "app": {"version": "0.1.0", "python": "3.11.7"},
        "libraries": {"kivy": "not importable: ImportError: no module", "opencv": "import crashed (signal 4)"},
        "cameras": {"v4l2": "none", "picamera2": ["imx708 /base/soc"]},
        "gpio": {"enabled in settings": True, "gpio": "no GPIO: no /dev/gpiochip*",
                 "controls": "touch and keyboard only (space = scan, enter = confirm, backspace = undo)"},
        "disk": {**DISK, "free": "150.0 MB of 7.1 GB (2% free)", "warning": "less than 200 MB free"},
        "journal": {"integrity": "NOT OK: database disk image is malformed"},
        "errors": {"last errors": ["2026-11-22 ERROR camera lost: timed out"]}}},
    "mock_and_failures": {"sections": {
        "cameras": {"v4l2": "none", "picamera2": "failed: no cameras"},
        "gpio": {"enabled in settings": True, "gpio": "mock pins (explicit setting gpio.pin_factory = mock)"},
        "disk": {"error": "FileNotFoundError: [Errno 2] No such file or directory"},
        "journal": {"state": "no journal yet (no match has been played here)"},
        "errors": {"error": "PermissionError: [Errno 13] Permission denied"}}},
    "no_report_sections": {"sections": {}},
}
# Names that are the same in every language (programs, units, the data shown as it is).
NAMES = {"python", "kivy", "opencv", "gpiozero", "gpio", "lgpio", "gb", "mb", "picamera2", "imx708", "base",
         "soc", "dev", "video0", "c920"}
# Words spelt the same in English and that language.
COGNATES = {"ca": {"no", "versions", "errors", "pins"}, "es": {"no"}}


def _rows(report, language, camera_source="auto"):
    i18n.set_language(language)
    vm = DiagnosticsViewModel(db_path=None, camera_source=camera_source, collect=lambda db: report)
    vm.set_report(vm.collect())
    return vm.summary()


def _words(rows):
    return {w.lower() for label, text, _fine in rows for w in re.findall(r"\b[^\W\d_]+\b", f"{label} {text}")}


@pytest.mark.parametrize("name", sorted(REPORTS))
@pytest.mark.parametrize("language", ["ca", "es"])
def test_no_english_word_in_the_rows_of_another_language(name, language):
    english = _words(_rows(REPORTS[name], "en"))
    shown = _rows(REPORTS[name], language)
    left = (_words(shown) & english) - NAMES - COGNATES[language]
    assert not left, (language, left, shown)
    assert not any(re.search(r"\d\.\d+ [KMGT]?B\b", text) for _label, text, _fine in shown), shown


def test_disk_space_is_written_in_the_languages_numbers():
    texts = {lang: dict((label, text) for label, text, _f in _rows(REPORTS["sound"], lang))
             for lang in ("en", "ca", "es")}
    assert texts["en"]["Disk"] == "Free space: 76.4 GB of 252.0 GB (30%)"
    assert texts["ca"]["Disc"] == "Espai lliure: 76,4 GB de 252,0 GB (30 %)"
    assert texts["es"]["Disco"] == "Espacio libre: 76,4 GB de 252,0 GB (30 %)"
    troubled = dict((label, (text, fine)) for label, text, fine in _rows(REPORTS["troubled"], "ca"))
    assert troubled["Disc"] == ("Espai lliure: 150,0 MB de 7,1 GB (2 %). Menys de 200 MB: les fotos de les "
                                "mans i les còpies de seguretat poden fallar.", False)


def test_the_camera_setting_is_named_as_the_settings_screen_names_it():
    rows = dict((label, text) for label, text, _f in _rows(REPORTS["sound"], "ca", camera_source="auto"))
    assert rows["Càmera"] == "Configuració: Automàtic. Trobades: /dev/video0: C920"
    rows = dict((label, (text, fine)) for label, text, fine in _rows(REPORTS["mock_and_failures"], "es", "demo"))
    assert rows["Cámara"] == ("Configuración: Fotos de demostración. Encontradas: ninguna cámara", True)
    rows = dict((label, (text, fine)) for label, text, fine in _rows(REPORTS["mock_and_failures"], "ca", "auto"))
    assert rows["Càmera"] == ("Configuració: Automàtic. Trobades: cap càmera, es mostren les fotos de "
                              "demostració", False)  # a kiosk meant to have a camera: red


def test_the_details_stay_the_english_report_whatever_the_language():
    """The block under the rows is what ``botifarra-kiosk diag`` prints (headings included),
    so a bug report reads the same from a kiosk in any language; only its caption is translated."""
    report = REPORTS["troubled"]
    vm = DiagnosticsViewModel(db_path=None, collect=lambda db: report)
    vm.set_report(vm.collect())
    english, title_en = vm.details(), vm.details_title()
    i18n.set_language("ca")
    assert vm.details() == english and vm.details_title() != title_en
    assert [line for line in english if line.startswith("==")] == [
        f"== {name} ==" for name in report["sections"]]
    rendered = diag.render({"generated": "x", "sections": report["sections"]}).splitlines()
    assert [line for line in english] == [line for line in rendered[1:] if line]


def test_decimal_mark_follows_the_language():
    i18n.set_language("ca")
    assert i18n.decimal(76.44) == "76,4" and i18n.decimal(3, 2) == "3,00"
    i18n.set_language("en")
    assert i18n.decimal(76.44) == "76.4"
