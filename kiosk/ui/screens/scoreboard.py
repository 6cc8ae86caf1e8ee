"""Scoreboard (home): both totals huge, progress to the target, the paper-style sheet,
the seat diagram, and the actions that fit where the hand is."""

from __future__ import annotations

from kivy.clock import Clock
from kivy.factory import Factory
from kivy.properties import BooleanProperty, DictProperty, ListProperty, NumericProperty, StringProperty

from kiosk.ui.i18n import LANGUAGE_NAMES, _
from kiosk.ui.screens.base import KioskScreen, load_kv, trump_name, player_name
from kiosk.table import HandRow, sheet_of
from kiosk.ui.widgets import KButton, SheetRow
from kiosk.ui import theme
from kiosk.ui import toolicons  # noqa: F401  (ToolButton for kv)

from kiosk.ui import club_strip  # noqa: F401,E402  (ClubStrip for kv)

load_kv(__file__)


def sheet_rows(team_names: dict, sheet: list[HandRow], *, on_tap=None) -> list[SheetRow]:
    rows = [SheetRow(header=True, number="#", trump=_("Trump"), doubling="×", points=_("Points"),
                     scored_a="", scored_b="", total_a=team_names["A"], total_b=team_names["B"],
                     disabled=True)]
    for i, r in enumerate(sheet):
        delegated = r.delegated and r.kind != "misdeal"
        if r.kind == "misdeal":  # nobody scores: said on the narrowest sheet too, never blank
            trump, suit, points = _("Misdeal"), "", "0–0"
        else:
            trump = trump_name(r.trump)
            suit = r.trump or ""
            if r.kind == "penalty":
                points = _("Penalty")
            else:
                pa, pb = r.points.get("A"), r.points.get("B")
                points = f"{pa if pa is not None else '–'}–{pb if pb is not None else '–'}"
        doubling = f"×{r.multiplier}" if r.multiplier > 1 else ""
        # "×2" alone: the multiplier names the doubling, and fits the narrowest sheet
        row = SheetRow(index=i, number=str(r.number), suit=suit, trump=trump, doubling=doubling,
                       delegated=_("delegated") if delegated else "",
                       points=points, scored_a=str(r.scored.get("A", 0) or ""),
                       scored_b=str(r.scored.get("B", 0) or ""),
                       total_a=str(r.totals.get("A", "")), total_b=str(r.totals.get("B", "")))
        if on_tap:
            row.bind(on_release=lambda w, i=i: on_tap(i))
        rows.append(row)
    return rows


def latest_rows_in_view(scroll) -> None:
    """The last rows of a sheet's ScrollView (the latest hand, the winning one) in view; a
    short sheet stays at the top. ``None`` while the kv rule is still being built."""
    if scroll is None:
        return
    rows = scroll.children[0] if scroll.children else None
    scroll.scroll_y = 0 if rows is not None and rows.height > scroll.height else 1


def undone_text(undone, state) -> str:
    """What an undo takes back, in the table's words: "hand 3, +36 Nosaltres"."""
    if undone is None:
        return ""
    if undone.kind == "hand":
        gains = [f"+{n} {state.team_names[t]}" for t, n in sorted(undone.scored.items()) if n]
        text = _("hand {n}").format(n=undone.hand_number)
        return text + (", " + ", ".join(gains) if gains else "")
    if undone.kind == "misdeal":
        return _("the misdeal of hand {n}").format(n=undone.hand_number)
    if undone.kind == "bid":
        return _("the last bid")
    return _("the last change")


def clock_text(seconds: float | None) -> str:
    """The tournament clock: minutes:seconds left ("" without a time limit)."""
    if seconds is None:
        return ""
    s = int(seconds + 0.999)  # 0:00 only once it has really run out
    return f"{s // 60}:{s % 60:02d}"


def seat_labels() -> dict[str, str]:
    return {"dealer": _("deals"), "shuffler": _("shuffles"), "cutter": _("cuts"),
            "first_lead": _("leads")}


class ScoreboardScreen(KioskScreen):
    status = StringProperty("")
    names = DictProperty({"A": "", "B": ""})
    totals = DictProperty({"A": 0, "B": 0})
    progress = DictProperty({"A": 0.0, "B": 0.0})
    seat_names = ListProperty(["", "", "", ""])
    roles = DictProperty({})
    role_labels = DictProperty({})
    language = StringProperty("")
    target = NumericProperty(0)
    clock = StringProperty("")          # time left with a tournament time limit, else ""
    time_is_up = BooleanProperty(False)
    time_note = StringProperty("")
    can_call_time = BooleanProperty(False)
    asking_time = BooleanProperty(False)  # the organiser's "call time?" confirmation is open
    contract_text = StringProperty("")  # "Oros ×4" while the hand is played
    asking = StringProperty("")  # the second touch awaited: "undo" (a scored hand) or "abandon"

    def refresh(self) -> None:
        vm = self.vm
        self.names = vm.state.team_names
        self.totals = vm.state.totals
        self.progress = vm.state.progress
        self.target = vm.state.target or 0
        self.language = LANGUAGE_NAMES.get(self.nav.language, "")
        self.role_labels = seat_labels()
        if vm.state.has_match:
            self.seat_names = [player_name(vm.state, s) for s in range(4)]
            self.roles = vm.state.roles if not vm.state.is_over else {}
        else:
            self.seat_names = ["", "", "", ""]
            self.roles = {}
        self.status = self._status()
        c = vm.state.contract
        self.contract_text = (f"{trump_name(c.trump)} ×{c.multiplier}"
                              if vm.state.phase == "playing" and c.trump else "")
        self.update_clock()
        sheet, head = self.ids.sheet, self.ids.sheet_head
        sheet.clear_widgets()
        head.clear_widgets()
        header, *rows = sheet_rows(vm.state.team_names, sheet_of(vm.match), on_tap=self.edit)
        head.add_widget(header)
        for row in rows:
            sheet.add_widget(row)
        Clock.schedule_once(self._latest_rows_in_view, 0)  # once the rows are laid out
        self._actions()

    @property
    def _portrait(self) -> bool:
        return self.height > self.width

    def on_size(self, *args):
        if (self.vm is not None and "actions" in self.ids
                and self._portrait != getattr(self, "_laid_out_portrait", None)):
            self._laid_out_portrait = self._portrait
            self._place_timebar()
            self._actions()
            Clock.schedule_once(self._latest_rows_in_view, 0)  # the sheet's box changed size

    def _place_timebar(self) -> None:
        """The tournament clock goes between the totals in landscape, under them in portrait."""
        bar, row = self.ids.timebar, self.ids.totals_row
        if self._portrait and bar.parent is row:
            row.remove_widget(bar)
            middle = row.parent
            middle.add_widget(bar, index=middle.children.index(row))
        elif not self._portrait and bar.parent is not row:
            bar.parent.remove_widget(bar)
            row.add_widget(bar, index=1)  # between the two totals

    def on_leave(self, *args):
        if self.asking_time or self.asking:
            self.asking_time, self.asking = False, ""
            self._actions()

    def update_clock(self) -> None:
        """Every second (from the app's tick) and on refresh."""
        vm = self.vm
        self.clock = clock_text(vm.time_left)
        self.time_is_up = vm.time_up
        self.can_call_time = vm.can_call_time
        if vm.time_up:
            self.time_note = _("Time! This is the last hand")
        elif self.clock:
            self.time_note = _("Limit {minutes} min").format(minutes=vm.time_limit_min)
        else:
            self.time_note = ""
        if self.asking_time and not self.can_call_time:
            self.asking_time = False
            self._actions()

    def _status(self) -> str:
        """The status line, after the table's name when it has one ("Taula 7 · Mà 3 · ...")."""
        table = str(self.nav.settings.get("table.name", "") or "").strip()
        return f"{table} · {self._hand_status()}" if table else self._hand_status()

    def _hand_status(self) -> str:
        vm = self.vm
        if not vm.state.has_match:
            return _("No match yet: start a new one")
        if vm.state.is_over:
            return _("Match over")
        c = vm.state.contract
        dealer = player_name(vm.state, vm.state.roles["dealer"])
        max_hands = vm.state.max_hands
        number = f"{vm.state.hand_number}/{max_hands}" if max_hands else vm.state.hand_number
        text = _("Hand {n} · {dealer} deals").format(n=number, dealer=dealer)
        if vm.state.target:
            text += " · " + _("to {target}").format(target=vm.state.target)
        if vm.state.phase == "playing" and c.trump:
            text += f" · {trump_name(c.trump)}\u00a0×{c.multiplier}"  # kept on one line
        return text

    def _actions(self) -> None:
        bar = self.ids.actions
        bar.clear_widgets()
        vm = self.vm
        buttons = []
        state = vm.state
        undone = state.last_undone if state.can_redo else None
        if self.asking == "undo":
            preview = vm.undo_preview()
            question = _("Undo {what}?").format(what=undone_text(preview, state))
            buttons = [("undo_yes", _("Yes, undo"), theme.DANGER), question, ("undo_no", _("No"), theme.BUTTON)]
        elif self.asking == "abandon":
            buttons = [("abandon_yes", _("Yes, new match"), theme.DANGER),
                       _("Leave the match in play? It stays in History, to resume."),
                       ("abandon_no", _("No"), theme.BUTTON)]
        elif undone is not None:
            buttons = [_("Undone: {what}").format(what=undone_text(undone, state)),
                       ("redo", _("Redo"), theme.PRIMARY), ("undone_ok", _("OK"), theme.BUTTON)]
        elif self.asking_time:
            buttons = [("call_time_yes", _("Yes, call time"), theme.DANGER),
                       _("Call time? The hand in progress will be the last."),
                       ("call_time_no", _("No"), theme.BUTTON)]
        elif not vm.state.has_match or vm.state.is_over:
            buttons.append(("new_match", _("New match"), theme.PRIMARY))
        elif vm.state.phase in ("choose_trump", "delegated", "doubling"):
            # Misdeal on the left, under the confirmation's Back: never under its Confirm.
            buttons.append(("misdeal", _("Misdeal"), theme.BUTTON))
            buttons.append(("bidding", _("Choose trump"), theme.PRIMARY))
        elif vm.state.phase == "playing":
            buttons += [("score_camera", _("Camera"), theme.PRIMARY),
                        ("score_cards", _("Cards"), theme.PRIMARY),
                        ("score_points", _("Points"), theme.PRIMARY),
                        ("penalty", _("Penalty"), theme.DANGER),
                        ("misdeal", _("Misdeal"), theme.BUTTON)]
        if vm.state.can_undo and not self.asking_time and not self.asking and undone is None:
            buttons.append(("undo", _("Undo"), theme.BUTTON))
        # Portrait: more than four buttons go on two rows, so no word is broken in two.
        asking = self.asking_time or self.asking or undone is not None
        rows = 2 if self._portrait and len(buttons) > 4 and not asking else 1
        # A question's Yes sits at the far left, its No at the right where Undo (or whatever
        # asked) was: a second tap on Undo answers No.
        bar.rows = rows
        bar.height = self.nav.u * (58 * rows + 6 * (rows - 1))
        if asking and self._portrait:  # the question takes three lines beside its two buttons
            bar.height = self.nav.u * 80
        for button in buttons:
            if isinstance(button, str):
                bar.add_widget(Factory.KLabel(text=button, font_size=self.nav.u * 17, size_hint_x=1.6,
                                              shorten=False))
                continue
            action, text, colour = button
            b = KButton(text=text, color_bg=colour, font_size=self.nav.u * 18)
            b.action = action
            b.bind(on_release=lambda w: self.on_action(w.action))
            bar.add_widget(b)

    def on_action(self, action: str) -> None:
        vm, nav = self.vm, self.nav
        if action == "new_match":
            if vm.state.has_match and not vm.state.is_over:
                self.asking = "abandon"  # a match in play is left only on a second touch
                self._actions()
            else:
                nav.act(vm.open_new_match)
        elif action in ("abandon_no", "undo_no"):
            self.asking = ""
            self._actions()
        elif action == "abandon_yes":
            self.asking = ""
            nav.act(vm.open_new_match)
        elif action == "undo":
            preview = vm.undo_preview()
            if preview is not None and preview.kind in ("hand", "misdeal"):
                self.asking = "undo"  # a scored hand is undone only on a second touch
                self._actions()
            else:
                nav.act(vm.undo)
        elif action == "undo_yes":
            self.asking = ""
            nav.act(vm.undo)
            self._actions()
        elif action == "redo":
            nav.act(vm.redo)
        elif action == "undone_ok":
            vm.forget_undone()
        elif action == "bidding":
            nav.go("bidding")
        elif action.startswith("score_"):
            nav.act(vm.begin_score, action[len("score_"):])
        elif action == "penalty":
            nav.act(vm.begin_action, "penalty")
        elif action == "misdeal":
            nav.act(vm.misdeal)
        elif action in ("call_time", "call_time_no"):
            self.asking_time = action == "call_time"
            self._actions()
        elif action == "call_time_yes":
            self.asking_time = False
            if nav.act(vm.call_time):
                nav.show_message(_("Time! This is the last hand"), seconds=15)
            self._actions()
        elif action == "language":
            nav.next_language()

    def on_undo_button(self):
        """The UNDO button (or Backspace) asks like the Undo touch does."""
        if self.asking == "undo":
            self.on_action("undo_yes")
        elif self.vm.state.can_undo:
            self.on_action("undo")
        return True

    def edit(self, index: int) -> None:
        self.nav.act(self.vm.begin_action, "edit_hand", hand=index)

    def _latest_rows_in_view(self, *_):
        latest_rows_in_view(self.ids.get("sheet_scroll"))
