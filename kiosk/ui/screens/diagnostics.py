"""Diagnostics (from the settings): versions, camera and GPIO status, disk space, the
journal check and the last errors. The collector of ``botifarra-kiosk diag`` runs on a
worker thread; its report comes back to the screen through the Clock."""

from __future__ import annotations

import threading

from kivy.factory import Factory
from kivy.properties import BooleanProperty, StringProperty

from kiosk.ui.screens.base import KioskScreen, load_kv
from kiosk.ui.viewmodels.diagnostics import DiagnosticsViewModel

load_kv(__file__)


class DiagnosticsScreen(KioskScreen):
    running = BooleanProperty(False)
    details = StringProperty("")
    details_title = StringProperty("")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.diag = DiagnosticsViewModel(db_path=self.app.db_path,
                                         camera_source=str(self.app.settings["camera.source"]))

    def on_pre_enter(self, *args):
        super().on_pre_enter(*args)
        if self.diag.report is None:
            self.run()

    def run(self) -> None:
        if self.running:
            return
        self.running = True
        self.diag.camera_source = str(self.app.settings["camera.source"])

        def work():
            report = self.diag.collect()  # the collector never raises: failures are in the report
            self.app.to_ui(self._done)(report)

        threading.Thread(target=work, name="diagnostics", daemon=True).start()
        self.refresh()

    def _done(self, report) -> None:
        self.diag.set_report(report)
        self.running = False
        self.refresh()

    def refresh(self) -> None:
        box = self.ids.summary
        box.clear_widgets()
        for label, text, fine in self.diag.summary():
            row = Factory.DiagRow()
            row.fine = fine
            row.ids.label.text = label
            row.ids.body.text = text
            box.add_widget(row)
        self.details = "\n".join(self.diag.details())
        self.details_title = self.diag.details_title() if self.details else ""
