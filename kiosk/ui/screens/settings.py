"""Settings behind a PIN: the big PIN pad first (3 wrong tries -> wait 30 s), then the
choices (rules preset and target for new matches, language live, camera, screen, both
pairs confirm, the table's name typed as a number on the same pad), the PIN change (typed
twice) and the way to the diagnostics."""

from __future__ import annotations

import time

from kivy.clock import Clock
from kivy.factory import Factory
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from kiosk.ui.i18n import LANGUAGE_NAMES, LANGUAGES, N_, _
from kiosk.ui.navigation import Overlay
from kiosk.ui.screens.base import KioskScreen, load_kv
from kiosk.ui.words import PRESET_NAMES
from kiosk.ui.viewmodels.settings import LABELS, TABLE_DIGITS, SettingsViewModel, camera_name

load_kv(__file__)

TITLES = {"pin": N_("Type the PIN"), "new_pin": N_("Type the new PIN"),
          "new_pin_again": N_("Type the new PIN again"), "table": N_("Number of this table")}


class PinPanel(BoxLayout):
    screen = ObjectProperty(None)


class OptionsPanel(BoxLayout):
    screen = ObjectProperty(None)


class SettingsScreen(KioskScreen):
    mode = StringProperty("pin")  # pin | options | new_pin | new_pin_again | table
    title = StringProperty("")
    shown = StringProperty("")
    hint = StringProperty("")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.svm = SettingsViewModel(self.app.settings, clock=time.monotonic)
        self.pin_panel = PinPanel(screen=self)
        self.options_panel = OptionsPanel(screen=self)
        self._tick = None
        self._typed = ""  # digits of a new PIN (or of the table's number) being typed

    # ------------------------------------------------------------------ enter / leave
    def on_leave(self, *args):
        if self.manager is None or self.manager.current not in ("diagnostics", "learn_deck", "seats"):
            self.svm.lock()
            self.mode = "pin"
        self._stop_tick()

    def close(self) -> None:
        self.svm.lock()
        self.mode = "pin"
        self.app.close_overlay()

    def refresh(self) -> None:
        if not self.svm.unlocked and self.mode != "pin":
            self.mode = "pin"
        body = self.ids.body
        panel = self.options_panel if self.mode == "options" else self.pin_panel
        if panel.parent is not body:
            body.clear_widgets()
            body.add_widget(panel)
        if self.mode == "options":
            self._build_options()
        else:
            self._update_pin()

    # ------------------------------------------------------------------ PIN pad
    def _digits(self) -> str:
        return self.svm.pin.digits if self.mode == "pin" else self._typed

    def press(self, key: str) -> None:
        if self.mode == "pin":
            self.svm.pin.press(key)
        elif key == "back":
            self._typed = self._typed[:-1]
        elif key == "clear":
            self._typed = ""
        elif key.isdigit() and len(self._typed) < (TABLE_DIGITS if self.mode == "table" else 8):
            self._typed += key
        self._update_pin()

    def ok(self) -> None:
        if self.mode == "pin":
            if self.svm.unlock():
                self.app.show_message("")  # "PIN incorrecte" is gone with its cause
                self.mode = "options"
                self.refresh()
                return
            self.app.show_message(self.svm.pin.problem)
            self._update_pin()
            return
        typed, self._typed = self._typed, ""
        if self.mode == "table":
            self.mode = "options"
            try:
                self.svm.set_table(typed)
            except OSError as exc:
                self.app.show_message(_("The settings could not be saved: {error}").format(
                    error=exc.strerror or exc))
            self.refresh()
            return
        step = self.svm.enter_new_pin(typed)
        if step == "again":
            self.mode = "new_pin_again"
        elif step == "changed":
            self.mode = "options"
            self.app.show_message(_("The PIN is changed"), info=True)
        else:
            self.mode = "new_pin"
            self.app.show_message(step)
        self.refresh()

    def pad_back(self) -> None:
        """The Back button under the pad: leave the settings, or end a PIN change (or the
        table's number: the name stays as it was)."""
        if self.mode == "pin":
            self.close()
        else:
            self._typed = ""
            self.svm.new_pin = None
            self.mode = "options"
            self.refresh()

    def _update_pin(self) -> None:
        self.title = _(TITLES.get(self.mode, TITLES["pin"]))
        self.shown = "●" * len(self._digits()) or "–"
        if self.mode == "table":  # what OK will save, in words: "Taula 37"
            self.shown = self.svm.table_name_for(self._typed) or "–"
            self.hint = _("Now: {name}. 0 = no table name.").format(
                name=self.svm.value("table.name") or "–")
        elif self.mode == "pin":
            self.hint = self.svm.pin.problem
            if self.svm.pin.wait and self._tick is None:
                self._tick = Clock.schedule_interval(lambda dt: self._countdown(), 0.5)
        else:
            self.hint = _("4 to 8 digits")

    def _countdown(self) -> None:
        self._update_pin()
        if not self.svm.pin.wait:
            self._stop_tick()

    def _stop_tick(self) -> None:
        if self._tick is not None:
            self._tick.cancel()
            self._tick = None

    def on_confirm_button(self):
        if self.mode != "options":
            self.ok()
        return True

    # ------------------------------------------------------------------ options
    def _value_text(self, name: str) -> str:
        v = self.svm.value(name)
        if name == "match.preset":
            return _(PRESET_NAMES.get(v, v))
        if name == "match.target":
            return _("To {n}").format(n=v)
        if isinstance(v, bool):
            return _("Yes") if v else _("No")
        if name == "camera.source":
            return camera_name(v)
        if name == "table.name":
            return v or "–"
        if name == "ui.sound" and v in ("on", "off"):
            return _("Yes") if v == "on" else _("No")
        if v == "auto":
            return _("Automatic")
        return str(v)

    def _build_options(self) -> None:
        """One row per setting, made once; each refresh (a value cycled, the language
        switched) changes their words in place."""
        grid = self.options_panel.ids.rows
        if not grid.children:
            for name in LABELS:
                grid.add_widget(self._row(name))
        for row in grid.children:
            name = row.setting
            row.ids.label.text = _(LABELS[name])
            row.ids.help.text = self.svm.help(name)
            for b in row.ids.value_box.children:
                if name == "ui.language":
                    lang = b.action.removeprefix("language_")
                    b.text, b.selected = LANGUAGE_NAMES[lang], self.app.language == lang
                else:
                    b.text = self._value_text(name)

    def _row(self, name: str):
        row = Factory.SettingsRow()
        row.setting = name
        if name == "ui.language":
            for lang in LANGUAGES:
                b = Factory.SettingsValue()
                b.action = f"language_{lang}"
                b.bind(on_release=lambda w, lang=lang: self.language(lang))
                row.ids.value_box.add_widget(b)
        else:
            b = Factory.SettingsValue()
            b.action = name
            if name == "table.name":  # typed as a number on the pad
                b.bind(on_release=lambda w: self.table())
            else:
                b.bind(on_release=lambda w, name=name: self.cycle(name))
            row.ids.value_box.add_widget(b)
        return row

    def cycle(self, name: str) -> None:
        try:
            self.svm.cycle(name)
        except OSError as exc:
            self.app.show_message(_("The settings could not be saved: {error}").format(error=exc.strerror or exc))
            return
        if self.svm.needs_restart(name):
            self.app.show_message(_("Saved. It takes effect at the next start."), info=True)
        self._build_options()

    def language(self, lang: str) -> None:
        self.app.set_language(lang)  # live switch of every screen
        try:
            self.svm.change("ui.language", lang)
        except OSError as exc:
            self.app.show_message(_("The settings could not be saved: {error}").format(error=exc.strerror or exc))
        self._build_options()

    def table(self) -> None:
        """Open the number pad for the table's number (OK saves "Taula N"; 0 = none)."""
        self._typed = ""
        self.mode = "table"
        self.refresh()

    def change_pin(self) -> None:
        self._typed = ""
        self.svm.new_pin = None
        self.mode = "new_pin"
        self.refresh()

    def diagnostics(self) -> None:
        self.app.open_overlay(Overlay.DIAGNOSTICS)
