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
        session = self.session
        self.names = session.state.team_names
        self.totals = session.state.totals
        self.progress = session.state.progress
        self.target = session.state.target or 0
        self.language = LANGUAGE_NAMES.get(self.app.language, "")
        self.role_labels = seat_labels()
        if session.state.has_match:
            self.seat_names = [player_name(session.state, s) for s in range(4)]
            self.roles = session.state.roles if not session.state.is_over else {}
        else:
            self.seat_names = ["", "", "", ""]
            self.roles = {}
        self.status = self._status()
        c = session.state.contract
        self.contract_text = (f"{trump_name(c.trump)} ×{c.multiplier}"
                              if session.state.phase == "playing" and c.trump else "")
        self.update_clock()
        sheet, head = self.ids.sheet, self.ids.sheet_head
        sheet.clear_widgets()
        head.clear_widgets()
        header, *rows = sheet_rows(session.state.team_names, sheet_of(session.match), on_tap=self.edit)
        head.add_widget(header)
        for row in rows:
            sheet.add_widget(row)
        Clock.schedule_once(self._latest_rows_in_view, 0)  # once the rows are laid out
        self._actions()

    @property
    def _portrait(self) -> bool:
        return self.height > self.width

    def on_size(self, *args):
        if (self.session is not None and "actions" in self.ids
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
        tournament = self.session.tournament
        self.clock = clock_text(tournament.time_left)
        self.time_is_up = tournament.time_up
        self.can_call_time = tournament.can_call_time
        if tournament.time_up:
            self.time_note = _("Time! This is the last hand")
        elif self.clock:
            self.time_note = _("Limit {minutes} min").format(minutes=tournament.time_limit_min)
        else:
            self.time_note = ""
        if self.asking_time and not self.can_call_time:
            self.asking_time = False
            self._actions()

    def _status(self) -> str:
        """The status line, after the table's name when it has one ("Taula 7 · Mà 3 · ...")."""
        table = str(self.app.settings.get("table.name", "") or "").strip()
        return f"{table} · {self._hand_status()}" if table else self._hand_status()

    def _hand_status(self) -> str:
        session = self.session
        if not session.state.has_match:
            return _("No match yet: start a new one")
        if session.state.is_over:
            return _("Match over")
        c = session.state.contract
        dealer = player_name(session.state, session.state.roles["dealer"])
        max_hands = session.state.max_hands
        number = f"{session.state.hand_number}/{max_hands}" if max_hands else session.state.hand_number
        text = _("Hand {n} · {dealer} deals").format(n=number, dealer=dealer)
        if session.state.target:
            text += " · " + _("to {target}").format(target=session.state.target)
        if session.state.phase == "playing" and c.trump:
            text += f" · {trump_name(c.trump)}\u00a0×{c.multiplier}"  # kept on one line
        return text

    def _actions(self) -> None:
        bar = self.ids.actions
        bar.clear_widgets()
        session = self.session
        buttons = []
        state = session.state
        undone = state.last_undone if state.can_redo else None
        if self.asking == "undo":
            preview = session.undo_preview()
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
        elif not session.state.has_match or session.state.is_over:
            buttons.append(("new_match", _("New match"), theme.PRIMARY))
        elif session.state.phase in ("choose_trump", "delegated", "doubling"):
            # Misdeal on the left, under the confirmation's Back: never under its Confirm.
            buttons.append(("misdeal", _("Misdeal"), theme.BUTTON))
            buttons.append(("bidding", _("Choose trump"), theme.PRIMARY))
        elif session.state.phase == "playing":
            buttons += [("score_camera", _("Camera"), theme.PRIMARY),
                        ("score_cards", _("Cards"), theme.PRIMARY),
                        ("score_points", _("Points"), theme.PRIMARY),
                        ("penalty", _("Penalty"), theme.DANGER),
                        ("misdeal", _("Misdeal"), theme.BUTTON)]
        if session.state.can_undo and not self.asking_time and not self.asking and undone is None:
            buttons.append(("undo", _("Undo"), theme.BUTTON))
        # Portrait: more than four buttons go on two rows, so no word is broken in two.
        asking = self.asking_time or self.asking or undone is not None
        rows = 2 if self._portrait and len(buttons) > 4 and not asking else 1
        # A question's Yes sits at the far left, its No at the right where Undo (or whatever
        # asked) was: a second tap on Undo answers No.
        bar.rows = rows
        bar.height = self.app.u * (58 * rows + 6 * (rows - 1))
        if asking and self._portrait:  # the question takes three lines beside its two buttons
            bar.height = self.app.u * 80
        for button in buttons:
            if isinstance(button, str):
                bar.add_widget(Factory.KLabel(text=button, font_size=self.app.u * 17, size_hint_x=1.6,
                                              shorten=False))
                continue
            action, text, colour = button
            b = KButton(text=text, color_bg=colour, font_size=self.app.u * 18)
            b.action = action
            b.bind(on_release=lambda w: self.on_action(w.action))
            bar.add_widget(b)

    def on_action(self, action: str) -> None:
        session, app = self.session, self.app
        if action == "new_match":
            if session.state.has_match and not session.state.is_over:
                self.asking = "abandon"  # a match in play is left only on a second touch
                self._actions()
            else:
                app.act(session.open_new_match)
        elif action in ("abandon_no", "undo_no"):
            self.asking = ""
            self._actions()
        elif action == "abandon_yes":
            self.asking = ""
            app.act(session.open_new_match)
        elif action == "undo":
            preview = session.undo_preview()
            if preview is not None and preview.kind in ("hand", "misdeal"):
                self.asking = "undo"  # a scored hand is undone only on a second touch
                self._actions()
            else:
                app.act(session.undo)
        elif action == "undo_yes":
            self.asking = ""
            app.act(session.undo)
            self._actions()
        elif action == "redo":
            app.act(session.redo)
        elif action == "undone_ok":
            session.forget_undone()
        elif action == "bidding":
            app.go("bidding")
        elif action.startswith("score_"):
            app.act(session.begin_score, action[len("score_"):])
        elif action == "penalty":
            app.act(session.begin_action, "penalty")
        elif action == "misdeal":
            app.act(session.misdeal)
        elif action in ("call_time", "call_time_no"):
            self.asking_time = action == "call_time"
            self._actions()
        elif action == "call_time_yes":
            self.asking_time = False
            if app.act(session.call_time):
                app.show_message(_("Time! This is the last hand"), seconds=15)
            self._actions()
        elif action == "language":
            app.next_language()

    def on_undo_button(self):
        """The UNDO button (or Backspace) asks like the Undo touch does."""
        if self.asking == "undo":
            self.on_action("undo_yes")
        elif self.session.state.can_undo:
            self.on_action("undo")
        return True

    def edit(self, index: int) -> None:
        self.app.act(self.session.begin_action, "edit_hand", hand=index)

    def _latest_rows_in_view(self, *_):
        latest_rows_in_view(self.ids.get("sheet_scroll"))
