"""Edit a past hand: its trump, doubling and one pair's points; totals recompute."""

from __future__ import annotations

from kivy.properties import BooleanProperty, NumericProperty, StringProperty

from kiosk.ui.i18n import _, shown_names
from kiosk.ui.screens.base import KioskScreen, level_name, load_kv, totals_after_edit, trump_name
from kiosk.ui.viewmodels.evidence import current_evidence
from kiosk.ui.screens.base import LEVELS, TRUMPS
from kiosk.ui.viewmodels.points import PointsPad
from kiosk.ui.widgets import KButton, SuitButton

load_kv(__file__)


class EditHandScreen(KioskScreen):
    title = StringProperty("")
    trump = StringProperty("")
    doubling = StringProperty("none")
    team = StringProperty("A")
    kind = StringProperty("played")
    display = StringProperty("")
    index = NumericProperty(0)
    name_a = StringProperty("")
    name_b = StringProperty("")
    has_photo = BooleanProperty(False)
    preview = StringProperty("")  # the totals the match would have after this edit

    def refresh(self) -> None:
        session = self.session
        draft = session.state.draft
        if draft is None or draft.hand is None:
            return
        self.index = int(draft.hand)
        data = session.hand_data(self.index)
        names = shown_names(session.state.team_names)
        self.name_a, self.name_b = names["A"], names["B"]
        self.title = _("Edit hand {n}").format(n=self.index + 1)
        self.has_photo = current_evidence(session) is not None
        self.delegated = bool(data.get("delegated"))
        edit = draft.edit or {}  # a change not saved yet (kept across a restart)
        self.trump = edit.get("trump") or data.get("trump") or "oros"
        self.doubling = edit.get("doubling") or data.get("doubling") or "none"
        kind = "misdeal" if data.get("misdeal") else "penalty" if "penalty" in data else "played"
        self.kind = edit.get("kind") or kind
        points = data.get("points") or {data.get("penalty") or "A": 0}
        self.pad = PointsPad(edit.get("team") or next(iter(points)))
        self.pad.digits = (str(edit.get("digits", "")) if edit else
                           str(next(iter(points.values()))) if self.kind == "played" else "")
        self._build()

    def _keep(self) -> None:
        """The change so far in the draft: a restart shows it again (not saved yet)."""
        self.session.update_draft(edit={"trump": self.trump, "doubling": self.doubling, "kind": self.kind,
                                   "team": self.pad.team, "digits": self.pad.digits})

    def _build(self) -> None:
        """The trump and doubling buttons: made once, then their words and which is chosen
        changed in place (each tap on this screen refreshes it)."""
        trumps, levels = self.ids.trumps, self.ids.levels
        if not trumps.children:
            for t in TRUMPS:
                b = SuitButton(suit=t, action=t)
                b.bind(on_release=lambda w: self._set(trump=w.action))
                trumps.add_widget(b)
            for level in ("none",) + LEVELS:
                b = KButton(action=level)
                b.bind(on_release=lambda w: self._set(doubling=w.action))
                levels.add_widget(b)
        for b in trumps.children:
            b.text, b.selected = trump_name(b.action), b.action == self.trump
        for b in levels.children:
            b.text, b.selected = level_name(b.action) or _("No doubling"), b.action == self.doubling
        self.team = self.pad.team
        names = {"A": self.name_a, "B": self.name_b}
        # The pair buttons say what they choose: whose points, or who broke a rule.
        self.display = ((self.pad.digits or "?") if self.kind == "played" else
                        _("{name} broke a rule").format(name=names[self.pad.team]) if self.kind == "penalty"
                        else "")
        self.preview = self._preview()

    def _data(self) -> dict | None:
        if self.kind == "misdeal":
            return {"misdeal": True}
        if self.kind == "penalty":  # the pair chosen is the one that broke a rule
            return {"trump": self.trump, "delegated": self.delegated, "doubling": self.doubling,
                    "penalty": self.pad.team}
        if self.pad.problem:
            return None
        return {"trump": self.trump, "delegated": self.delegated, "doubling": self.doubling,
                "points": {self.pad.team: self.pad.value}}

    def _preview(self) -> str:
        totals = totals_after_edit(self.session, self.index, self._data())
        if totals is None:  # not a possible hand (yet): nothing to preview
            return ""
        names = shown_names(self.session.state.team_names)
        return _("After: {a} {ta} – {tb} {b}").format(a=names["A"], ta=totals.get("A", 0),
                                                      tb=totals.get("B", 0), b=names["B"])

    def _set(self, **kw) -> None:
        for k, v in kw.items():
            setattr(self, k, v)
        self._keep()

    def press(self, key: str) -> None:
        if key.isdigit() and len(self.pad.digits) >= 2:
            self.pad.digits = ""  # a whole number is shown: a digit starts a new one
        self.pad.press(key)
        self._keep()

    def set_team(self, team: str) -> None:
        self.pad.team = team
        self._keep()

    def set_kind(self, kind: str) -> None:
        self.kind = kind
        self._keep()

    def save(self) -> None:
        data = self._data()
        if data is None:
            self.app.show_message(self.pad.problem)
            return
        self.app.act(self.session.edit_hand, self.index, data)

    def on_confirm_button(self):
        self.save()
        return True
