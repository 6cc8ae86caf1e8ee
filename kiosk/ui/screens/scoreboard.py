"""Scoreboard (home): both totals huge, progress to the target, the paper-style sheet,
the seat diagram, and the actions that fit where the hand is."""

from __future__ import annotations

from kivy.clock import Clock
from kivy.properties import BooleanProperty, DictProperty, ListProperty, NumericProperty, StringProperty

from kiosk.ui.i18n import LANGUAGE_NAMES, _, shown_names
from kiosk.ui.screens.base import KioskScreen, load_kv, trump_name, player_name
from kiosk.table import HandRow, TableState, Undone, sheet_of
from kiosk.ui.widgets import SheetRow
from kiosk.ui import buttonbar, toolicons  # noqa: F401  (ButtonBar, ToolButton for kv)

from kiosk.ui import club_strip  # noqa: F401,E402  (ClubStrip for kv)

load_kv(__file__)


def sheet_values(team_names: dict, sheet: list[HandRow]) -> list[dict[str, object]]:
    """What each line of the paper-style sheet says (its heading first), as ``SheetRow``
    properties."""
    rows: list[dict[str, object]] = [
        dict(header=True, index=0, number="#", suit="", trump=_("Trump"), delegated="", doubling="×", misdeal=False,
             points=_("Points"), scored_a="", scored_b="", total_a=team_names["A"], total_b=team_names["B"],
             disabled=True)]
    for i, r in enumerate(sheet):
        delegated = r.delegated and r.kind != "misdeal"
        if r.kind == "misdeal":  # nobody scores: said on the narrowest sheet too, never blank
            trump, suit, points = _("Misdeal"), "", ""
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
        rows.append(dict(header=False, index=i, number=str(r.number), suit=suit, trump=trump,
                         doubling=doubling, delegated=_("delegated") if delegated else "",
                         points=points, misdeal=r.kind == "misdeal", scored_a=str(r.scored.get("A", 0) or ""),
                         scored_b=str(r.scored.get("B", 0) or ""),
                         total_a=str(r.totals.get("A", "")), total_b=str(r.totals.get("B", "")),
                         disabled=False))
    return rows


def _new_row(values: dict[str, object], on_tap) -> SheetRow:
    row = SheetRow(**values)
    if on_tap:
        row.bind(on_release=lambda w: on_tap(w.index))
    return row


def fill_rows(box, values: list[dict[str, object]], *, on_tap=None) -> None:
    """``box``'s sheet lines made to say ``values`` (``sheet_values``): the lines already
    there changed in place, only where they differ, the missing ones added, those left over
    taken away. A line already there keeps the ``on_tap`` it was built with."""
    shown = list(reversed(box.children))
    for row, v in zip(shown, values):
        for name, value in v.items():
            if getattr(row, name) != value:
                setattr(row, name, value)
    for row in shown[len(values):]:
        box.remove_widget(row)
    for v in values[len(shown):]:
        box.add_widget(_new_row(v, on_tap))


def fill_sheet(head, box, team_names: dict, sheet: list[HandRow], *, on_tap=None) -> None:
    """The sheet's heading in ``head`` and its hands in ``box``, the lines already there
    changed in place: a refresh that leaves the sheet as it was builds no widget (on a Pi,
    building every line again on each refresh was most of the scoreboard's time)."""
    header, *lines = sheet_values(team_names, sheet)
    fill_rows(head, [header], on_tap=on_tap)
    fill_rows(box, lines, on_tap=on_tap)


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
        gains = [f"+{n} {shown_names(state.team_names)[t]}" for t, n in sorted(undone.scored.items()) if n]
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


def bar_of(state: TableState, asking: str) -> str:
    """Which buttons the bar at the bottom holds (scoreboard.kv lists them): a question
    asked ("ask_undo", "ask_abandon", "ask_time"), what was just undone ("undone"), else
    what fits where the hand is."""
    if asking in ("undo", "abandon"):
        return f"ask_{asking}"
    if state.last_undone is not None and state.can_redo:
        return "undone"
    if asking == "time":
        return "ask_time"
    if not state.has_match or state.is_over:
        return "new_match"
    if state.phase in ("choose_trump", "delegated", "doubling"):
        return "bidding"
    return "playing" if state.phase == "playing" else ""


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
    contract_text = StringProperty("")  # "Oros ×4" while the hand is played
    # the second touch awaited: "undo" (a scored hand), "abandon" (a match in play), or
    # "time" (the organiser's "call time?")
    asking = StringProperty("")
    bar = StringProperty("")  # which buttons the bar holds: bar_of(state, asking)
    question = StringProperty("")  # the bar's question, or what was undone ("": neither)
    can_undo_here = BooleanProperty(False)  # Undo ends the bar

    _preview = (None, None)  # (state, what undo would take back): the core asked once per state

    def refresh(self) -> None:
        session = self.session
        self.names = names = shown_names(session.state.team_names)
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
        fill_sheet(self.ids.sheet_head, self.ids.sheet, names, sheet_of(session.match),
                   on_tap=self.edit)
        Clock.schedule_once(self._latest_rows_in_view, 0)  # once the rows are laid out
        self._show_bar()

    @property
    def _portrait(self) -> bool:
        return self.height > self.width

    def on_size(self, *args):
        if (self.session is not None and "actions" in self.ids
                and self._portrait != getattr(self, "_laid_out_portrait", None)):
            self._laid_out_portrait = self._portrait
            self._place_timebar()
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
        self.asking = ""

    def on_asking(self, *args) -> None:
        if self.session is not None:
            self._show_bar()

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
        if self.asking == "time" and not self.can_call_time:
            self.asking = ""

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

    def _show_bar(self) -> None:
        state = self.session.state
        self.bar = bar = bar_of(state, self.asking)
        self.can_undo_here = state.can_undo and bar in ("new_match", "bidding", "playing", "")
        if bar == "ask_undo":
            self.question = _("Undo {what}?").format(what=undone_text(self._undo_preview(), state))
        elif bar == "ask_abandon":
            self.question = _("Leave the match in play? It stays in History, to resume.")
        elif bar == "undone":
            self.question = _("Undone: {what}").format(what=undone_text(state.last_undone, state))
        elif bar == "ask_time":
            self.question = _("Call time? The hand in progress will be the last.")
        else:
            self.question = ""

    def _undo_preview(self) -> Undone | None:
        state = self.session.state
        if self._preview[0] is not state:
            self._preview = (state, self.session.undo_preview())
        return self._preview[1]

    # ------------------------------------------------------------------ the bar's actions
    def new_match(self) -> None:
        """A match in play is left only on a second touch (it stays in History)."""
        state = self.session.state
        if state.has_match and not state.is_over:
            self.asking = "abandon"
        else:
            self.app.act(self.session.open_new_match)

    def abandon_match(self) -> None:
        self.asking = ""
        self.app.act(self.session.open_new_match)

    def never_mind(self) -> None:
        """No to the question asked."""
        self.asking = ""

    def undo(self) -> None:
        """A scored hand (or a misdeal) is undone only on a second touch."""
        preview = self._undo_preview()
        if preview is not None and preview.kind in ("hand", "misdeal"):
            self.asking = "undo"
        else:
            self.app.act(self.session.undo)

    def undo_confirmed(self) -> None:
        self.asking = ""
        self.app.act(self.session.undo)

    def redo(self) -> None:
        self.app.act(self.session.redo)

    def seen_undone(self) -> None:
        self.session.forget_undone()

    def score(self, method: str) -> None:
        """Score the hand by "camera", "cards" or "points"."""
        self.app.act(self.session.begin_score, method)

    def penalty(self) -> None:
        self.app.act(self.session.begin_action, "penalty")

    def misdeal(self) -> None:
        self.app.act(self.session.misdeal)

    def ask_time(self) -> None:
        self.asking = "time"

    def call_time(self) -> None:
        self.asking = ""
        if self.app.act(self.session.call_time):
            self.app.show_message(_("Time! This is the last hand"), seconds=15)

    def on_undo_button(self):
        """The UNDO button (or Backspace) asks like the Undo touch does."""
        if self.asking == "undo":
            self.undo_confirmed()
        elif self.session.state.can_undo:
            self.undo()
        return True

    def edit(self, index: int) -> None:
        self.app.act(self.session.begin_action, "edit_hand", hand=index)

    def _latest_rows_in_view(self, *_):
        latest_rows_in_view(self.ids.get("sheet_scroll"))
