"""Diagnostics for the settings screen: the report of ``botifarra-kiosk diag``
(kiosk/commands/diag.py) read into a few plain sentences plus the details.

Plain Python (no Kivy). ``collect()`` is slow (it imports each library in a child process),
so the screen runs it on a worker thread and hands the report back through the Clock.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, Callable

from kiosk.commands.diag import section_lines
from kiosk.ui.i18n import N_, _

# The diag sections the kiosk shows (the others, e.g. systemd and backups, stay in the CLI).
SECTIONS = ("app", "libraries", "cameras", "gpio", "disk", "journal", "errors")
TITLES = {"app": N_("App"), "libraries": N_("Libraries"), "cameras": N_("Camera"),
          "gpio": N_("Buttons (GPIO)"), "disk": N_("Disk"), "journal": N_("Journal"),
          "errors": N_("Last errors")}


def _default_collect(db: Path | None) -> dict[str, Any]:
    from kiosk.commands import diag
    return diag.collect(argparse.Namespace(db=db, json=True),
                        {name: diag.SECTIONS[name] for name in SECTIONS})


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
        """(label, sentence, fine?) lines for the top of the screen."""
        if self.report is None:
            return [(_("Checking…"), "", True)]
        app, libs = self._section("app"), self._section("libraries")
        versions = "  ".join(f"{k} {libs.get(k, '?')}" for k in ("kivy", "opencv", "gpiozero")
                             if not str(libs.get(k, "")).startswith("not importable"))
        out = [(_("Versions"), f"{_('App')} {app.get('version', '?')}  Python {app.get('python', '?')}  {versions}",
                True)]
        journal = self._section("journal")
        ok = self.journal_ok
        if "state" in journal:
            out.append((_("Journal"), _("No journal yet"), True))
        elif ok:
            out.append((_("Journal"), _("Journal check: ok"), True))
        else:
            out.append((_("Journal"), _("Journal check FAILED: {detail}").format(
                detail=journal.get("integrity", journal.get("error", "?"))), False))
        disk = self._section("disk")
        out.append((_("Disk"), _("Free space: {free}").format(free=disk.get("free", disk.get("error", "?"))),
                    "warning" not in disk and "error" not in disk))
        gpio = self._section("gpio")
        if "controls" in gpio or "error" in gpio:
            out.append((_("Buttons"), _("Touch and keyboard only: space = scan, enter = confirm, "
                                        "backspace = undo"), True))
        else:
            out.append((_("Buttons"), _("GPIO buttons: {status}").format(status=gpio.get("gpio", "?")), True))
        cams = self._section("cameras")
        v4l2 = cams.get("v4l2", "none")
        found = v4l2 if isinstance(v4l2, list) else []
        pic = cams.get("picamera2")
        if isinstance(pic, list):
            found = found + [f"picamera2: {c}" for c in pic]
        out.append((_("Camera"), _("Setting: {source}. Found: {found}").format(
            source=self.camera_source, found=", ".join(found) if found else _("no camera")), bool(found)))
        errors = self._section("errors").get("last errors")
        if isinstance(errors, list) and errors:
            out.append((_("Last errors"), errors[-1], False))
        else:
            out.append((_("Last errors"), _("none"), True))
        return out

    def details(self) -> list[str]:
        """Every section's lines (the text of ``botifarra-kiosk diag``)."""
        lines: list[str] = []
        for name in SECTIONS:
            values = self._section(name)
            if not values:
                continue
            lines += [f"== {_(TITLES[name])} ==", *section_lines(values)]
        return lines
