"""The base of every screen: the table session and the app are injected; kv is loaded once."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ObjectProperty
from kivy.uix.screenmanager import Screen

from kiosk.game import BotifarraError
from kiosk.ui import theme
from kiosk.ui.i18n import _
from kiosk.ui.words import LEVELS, PRESETS, TARGETS, TRUMPS, level_name, trump_name  # noqa: F401


def load_kv(module_file: str) -> None:
    path = str(Path(module_file).with_suffix(".kv"))
    if path not in Builder.files:
        Builder.load_file(path)


class KioskScreen(Screen):
    """A screen over the table session (``session``): it reads ``session.state`` when it is entered and
    again on every change while it is shown (it observes the session; nobody calls it)."""
    session = ObjectProperty(None)
    app = ObjectProperty(None)
    theme = theme

    _drawn = None  # the state last read in: the app may have just shown this screen for it

    def on_session(self, screen, session) -> None:
        if session is not None and hasattr(session, "subscribe"):
            session.subscribe(self._on_state)

    def _on_state(self, state) -> None:
        if self.manager is not None and self.manager.current == self.name and state is not self._drawn:
            self.asking_back = False  # something changed: Back asks again
            self._drawn = state
            self.refresh()

    def on_pre_enter(self, *args):
        self.asking_back = False
        self._drawn = self.session.state
        self.refresh()

    asking_back = BooleanProperty(False)  # Back was tapped once over something entered

    def back_from_scoring(self) -> None:
        """Back while a hand is being scored: with cards tapped, digits typed or a camera
        read on the screen, the first tap asks (the button says "Discard?"), the second
        throws them away; with nothing entered it leaves at once."""
        draft = self.session.state.draft
        entered = draft is not None and bool(draft.cards or draft.other or draft.digits)
        if entered and not self.asking_back:
            self.asking_back = True
            return
        self.asking_back = False
        self.app.act(self.session.cancel)

    def refresh(self) -> None:
        """Read the session's state into this screen's properties (also after a language switch)."""


class PendingActionScreen(KioskScreen):
    """A screen that asks the table to confirm the action the view-model holds pending
    (penalty, misdeal): Confirm (or the CONFIRM button) journals it and plays the chord."""

    def confirm(self) -> None:
        if self.session.state.pending and self.app.save(self.session.confirm):
            self.app.hardware.feedback("chord")

    def on_confirm_button(self):
        self.confirm()
        return True


def player_name(state, seat: int) -> str:
    """The name typed for ``seat``, or "Seient n" when none was."""
    players = state.players
    name = players[seat] if seat < len(players) else None
    return name or _("Seat {n}").format(n=seat + 1)


def totals_after_edit(session, index: int, data: dict | None) -> dict | None:
    """The match's totals if its hand ``index`` were ``data`` (an edit's preview); None while
    it is not a possible hand yet (not all typed, or refused by the rules)."""
    if data is None:
        return None
    try:
        return session.edit_preview(index, data)
    except BotifarraError:
        return None
