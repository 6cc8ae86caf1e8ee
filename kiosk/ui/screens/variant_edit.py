"""Edit a past hand of a game without pairs: its trump, doubling, and every player's points,
a renunci (who made it) or a misdeal; the totals the match would have are shown before it
is saved. Opened from History (a row of the table's own match)."""

from __future__ import annotations

from kivy.properties import NumericProperty, StringProperty

from kiosk.ui.i18n import _
from kiosk.ui.screens.base import LEVELS, TRUMPS, KioskScreen, level_name, load_kv, totals_after_edit, trump_name
from kiosk.ui.screens.variant_board import seat_name, signed
from kiosk.ui.screens.variant_points import HAND_POINTS, pad_key, seat_values
from kiosk.ui.widgets import KButton, SuitButton

load_kv(__file__)


def levels_of(game: str) -> tuple[str, ...]:
    """The doublings a game allows: rector i vicari as the pairs; the others only contro."""
    return ("none",) + (LEVELS if game == "two" else ("contro",))


class VariantEditScreen(KioskScreen):
    title = StringProperty("")
    preview = StringProperty("")  # the totals the match would have after this edit
    hint = StringProperty("")
    kind = StringProperty("played")
    trump = StringProperty("oros")
    doubling = StringProperty("none")
    seat = NumericProperty(0)
    index = NumericProperty(0)
    _shape: tuple = ()  # the game the buttons were made for: its key and number of players

    def refresh(self) -> None:
        state = self.session.state
        draft, game = state.draft, state.game
        if draft is None or draft.hand is None or game is None:
            return
        self.index = int(draft.hand)
        data = self.session.hand_data(self.index)
        edit = draft.edit or {}  # a change not saved yet (kept across a restart)
        self.kind = edit.get("kind") or ("misdeal" if data.get("misdeal") else
                                         "penalty" if "penalty" in data else "played")
        self.trump = edit.get("trump") or data.get("trump") or "oros"
        self.doubling = edit.get("doubling") or data.get("doubling") or "none"
        self.seat = int(edit.get("seat", data.get("penalty") or 0))
        self.digits = list(edit.get("digits") or [str(p) for p in data.get("points") or ()]
                           or [""] * game.seats)
        self.title = _("Edit hand {n}").format(n=self.index + 1)
        self._build()

    def _build(self) -> None:
        """The buttons made once per game (their trumps, doublings and players), then only
        told what they say and which is chosen: a tap changes properties, not the widgets."""
        state = self.session.state
        game = state.game
        if self._shape != (game.key, game.seats):
            self._make(game.key, game.seats)
        for button in self._trumps:
            button.text, button.selected = trump_name(button.action), button.action == self.trump
        for button in self._levels:
            button.text = level_name(button.action) or _("No doubling")
            button.selected = button.action == self.doubling
        values = seat_values(tuple(self.digits), game.seats)
        for s, button in enumerate(self._seats):
            text = seat_name(state, s)
            if self.kind == "played":
                typed = self.digits[s] or (f"({values[s]})" if values[s] is not None else "?")
                text = f"{text}:  {typed}"
            button.text, button.font_size = text, self.app.u * 20
            button.selected = s == self.seat and self.kind != "misdeal"
            button.disabled = self.kind == "misdeal"
        total = sum(v for v in values if v is not None)
        self.hint = (_("{name} broke a rule").format(name=seat_name(state, self.seat))
                     if self.kind == "penalty" else "" if self.kind == "misdeal" else
                     _("Points (cards + tricks)") + f": {total} / {HAND_POINTS}")
        self.preview = self._preview()

    def _make(self, game_key: str, seats: int) -> None:
        trumps, levels, grid = self.ids.trumps, self.ids.levels, self.ids.seats
        for box in (trumps, levels, grid):
            box.clear_widgets()
        self._trumps = [SuitButton(suit=t, action=t, on_release=lambda w: self.change(trump=w.action))
                        for t in TRUMPS]
        self._levels = [KButton(action=level, on_release=lambda w: self.change(doubling=w.action))
                        for level in levels_of(game_key)]
        grid.cols = 2 if seats == 4 else seats
        self._seats = [KButton(action=f"seat_{s}", on_release=lambda w, seat=s: self.change(seat=seat))
                       for s in range(seats)]
        for box, buttons in ((trumps, self._trumps), (levels, self._levels), (grid, self._seats)):
            for button in buttons:
                box.add_widget(button)
        self._shape = (game_key, seats)

    def _data(self) -> dict | None:
        if self.kind == "misdeal":
            return {"misdeal": True}
        data = {"trump": self.trump, "doubling": self.doubling}
        if self.kind == "penalty":
            return {**data, "penalty": self.seat}
        values = seat_values(tuple(self.digits), len(self.digits))
        return None if None in values else {**data, "points": values}

    def _preview(self) -> str:
        totals = totals_after_edit(self.session, self.index, self._data())
        if totals is None:  # not a possible hand (yet): nothing to preview
            return ""
        state = self.session.state
        return _("After: {totals}").format(totals="  ".join(
            f"{seat_name(state, s)} {signed(t)}" for s, t in sorted(totals.items())))

    def change(self, **changes) -> None:
        for name, value in changes.items():
            setattr(self, name, value)
        self._keep()

    def _keep(self) -> None:
        """The change so far in the draft: a restart shows it again (not saved yet)."""
        self.session.update_draft(edit={"kind": self.kind, "trump": self.trump, "doubling": self.doubling,
                                        "seat": self.seat, "digits": list(self.digits)})

    def press(self, key: str) -> None:
        if self.kind == "played":
            now = self.digits[self.seat]
            if key.isdigit() and len(now) >= 2:
                now = ""  # a whole number is shown: a digit starts a new one
            self.digits[self.seat] = pad_key(now, key)
            self._keep()

    def save(self) -> None:
        data = self._data()
        if data is None:
            self.app.show_message(_("Type every player's points: they add up to 72."))
            return
        self.app.act(self.session.edit_hand, self.index, data)

    def on_confirm_button(self):
        self.save()
        return True
