"""Diagnostics for the settings screen: the report of ``botifarra-kiosk diag``
(kiosk/diagnostics/probes.py) read into a few plain sentences plus the details.

Plain Python (no Kivy). ``collect()`` is slow (it imports each library in a child process),
so the screen runs it on a worker thread and hands the report back through the Clock.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable

from kiosk.diagnostics.probes import section_lines
from kiosk.ui.i18n import _, decimal
from kiosk.ui.viewmodels.settings import camera_name

# The diag sections the kiosk shows (the others, e.g. systemd and backups, stay in the CLI).
SECTIONS = ("app", "libraries", "cameras", "gpio", "disk", "journal", "errors")
# Library names as the versions row shows them (proper names: the same in every language).
LIBRARY_NAMES = {"kivy": "Kivy", "opencv": "OpenCV", "gpiozero": "gpiozero"}
# ``free`` of diag's disk section: "76.4 GB of 252.0 GB (30% free)".
_DISK_FREE = re.compile(r"^(\d+(?:\.\d+)?) (B|KB|MB|GB|TB) of (\d+(?:\.\d+)?) (B|KB|MB|GB|TB) \((\d+)% free\)$")
_GPIO_THROUGH = re.compile(r"GPIO available through (\S+)")


def _size(number: str, unit: str) -> str:
    """``76.4`` ``GB`` of the report as the current language writes it (``76,4 GB``)."""
    places = len(number.partition(".")[2])
    return f"{decimal(float(number), places)} {unit}"


def _default_collect(db: Path | None) -> dict[str, Any]:
    from kiosk.diagnostics import probes as diag
    return diag.collect(db, {name: diag.SECTIONS[name] for name in SECTIONS})


class DiagnosticsViewModel:
    def __init__(self, *, db_path: Path | None, camera_source: str = "auto",
                 collect: Callable[[Path | None], dict[str, Any]] = _default_collect) -> None:
        self.db_path = db_path
        self.camera_source = camera_source
        self._collect = collect
        self.report: dict[str, Any] | None = None

    def collect(self) -> dict[str, Any]:
        """Gather the report (slow: call it off the UI thread)."""
        return self._collect(self.db_path)

    def set_report(self, report: dict[str, Any]) -> None:
        self.report = report

    # ------------------------------------------------------------------ what the screen shows
    def _section(self, name: str) -> dict[str, Any]:
        return (self.report or {}).get("sections", {}).get(name, {})

    @property
    def journal_ok(self) -> bool | None:
        integrity = self._section("journal").get("integrity")
        if integrity is None:
            return None if "state" not in self._section("journal") else True
        return integrity == "ok"

    def summary(self) -> list[tuple[str, str, bool]]:
        """(label, sentence, fine?) lines for the top of the screen, all in the kiosk's
        language (the report's own English words stay in :meth:`details`)."""
        if self.report is None:
            return [(_("Checking…"), "", True)]
        return [self._versions(), self._journal(), self._disk(), self._buttons(), self._camera(),
                self._errors()]

    def _versions(self) -> tuple[str, str, bool]:
        app, libs = self._section("app"), self._section("libraries")
        versions = "  ".join(f"{name} {libs[key]}" for key, name in LIBRARY_NAMES.items()
                             if key in libs and not str(libs[key]).startswith(("not importable", "import ")))
        app_name = _("App")  # outside the f-string, where Babel's extractor sees it
        return (_("Versions"), f"{app_name} {app.get('version', '?')}  Python {app.get('python', '?')}  {versions}"
                .rstrip(), True)

    def _journal(self) -> tuple[str, str, bool]:
        if "state" in self._section("journal"):
            return _("Journal"), _("No journal yet"), True
        if self.journal_ok:
            return _("Journal"), _("Journal check: ok"), True
        return _("Journal"), _("Journal check FAILED: see the details below"), False

    def _disk(self) -> tuple[str, str, bool]:
        disk = self._section("disk")
        found = _DISK_FREE.match(str(disk.get("free", "")))
        if not found:
            return _("Disk"), _("Free space: could not be read (see the details below)"), False
        free_n, free_unit, total_n, total_unit, percent = found.groups()
        text = _("Free space: {free} of {total} ({percent}%)").format(
            free=_size(free_n, free_unit), total=_size(total_n, total_unit), percent=percent)
        if "warning" in disk:
            text += ". " + _("Less than 200 MB: the photos of the hands and the backups may fail.")
        return _("Disk"), text, "warning" not in disk

    def _buttons(self) -> tuple[str, str, bool]:
        gpio = self._section("gpio")
        keys = _("Touch and keyboard only: space = scan, enter = confirm, backspace = undo")
        if "error" in gpio:
            return _("Buttons"), keys, True
        if "controls" in gpio:
            if gpio.get("enabled in settings") is True:  # asked for, but no GPIO here
                return _("Buttons"), _("The table buttons are on in the settings, but this machine "
                                       "has no GPIO. {keys}").format(keys=keys), False
            return _("Buttons"), keys, True
        status = str(gpio.get("gpio", ""))
        if status.startswith("mock"):
            return _("Buttons"), _("Test pins only: no real buttons"), False
        through = _GPIO_THROUGH.search(status)
        return _("Buttons"), _("Table buttons through GPIO ({factory})").format(
            factory=through.group(1) if through else "?"), True

    def _camera(self) -> tuple[str, str, bool]:
        cams = self._section("cameras")
        v4l2 = cams.get("v4l2", "none")
        found = v4l2 if isinstance(v4l2, list) else []
        pic = cams.get("picamera2")
        if isinstance(pic, list):
            found = found + [f"picamera2: {c}" for c in pic]
        source = camera_name(self.camera_source)
        kind = self.camera_source.split(":")[0]
        if not found and kind == "auto":  # what the table sees: the kiosk falls back to the demo
            return (_("Camera"), _("Setting: {source}. Found: no camera, so the demo photos are shown").format(
                source=source), False)
        text = _("Setting: {source}. Found: {found}").format(
            source=source, found=", ".join(found) if found else _("no camera"))
        return _("Camera"), text, bool(found) or kind in ("demo", "file")  # no camera wanted there

    def _errors(self) -> tuple[str, str, bool]:
        section = self._section("errors")
        errors = section.get("last errors")
        if isinstance(errors, list) and errors:
            return _("Last errors"), _("There are errors in the log: the last ones are in the details below"), False
        if "error" in section:
            return _("Last errors"), _("The log could not be read (see the details below)"), False
        return _("Last errors"), _("none"), True

    # ------------------------------------------------------------------ the details
    @staticmethod
    def details_title() -> str:
        return _("Details for the technician, in English as botifarra-kiosk diag prints them:")

    def details(self) -> list[str]:
        """Every section's lines exactly as ``botifarra-kiosk diag`` prints them: English,
        headed by the section's name (``== disk ==``), so they read the same in a bug report
        whatever the kiosk's language."""
        lines: list[str] = []
        for name in SECTIONS:
            values = self._section(name)
            if not values:
                continue
            lines += [f"== {name} ==", *section_lines(values)]
        return lines
