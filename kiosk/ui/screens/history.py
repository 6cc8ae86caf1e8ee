"""Match history: past matches from the journal, the chosen match's score sheet, and the
export of a match, or of all of today's matches, to a USB stick (JSON + printable PDF),
written off the UI thread; progress and the result reach the screen through the Clock."""

from __future__ import annotations

import threading
from datetime import datetime

from kivy.factory import Factory
from kivy.properties import BooleanProperty, StringProperty

from kiosk.ui.i18n import _
from kiosk.ui.navigation import Overlay
from kiosk.ui.screens.base import KioskScreen, load_kv
from kiosk.ui.screens.scoreboard import fill_rows, sheet_values
from kiosk.ui.screens.variant_board import fill_seat_sheet
from kiosk.ui.viewmodels.history import HistoryViewModel
from kiosk.ui.viewmodels.stickexport import ExportFailed

load_kv(__file__)


class HistoryScreen(KioskScreen):
    summary = StringProperty("")
    busy = BooleanProperty(False)       # an export is running: no second one starts
    running = StringProperty("")        # which: "one" (the selected match) or "today"
    can_export = BooleanProperty(False)
    can_resume = BooleanProperty(False)  # the chosen match is unfinished and not the one on the table

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.history = HistoryViewModel(self.session.journal,
                                        usb=getattr(self.app, "usb", None),
                                        table_name=lambda: self.app.settings.get("table.name", ""),
                                        now=lambda: datetime.fromtimestamp(self.session.clock()))
        self._listed: list[int] = []  # the matches the list's items are for, in order
        self._sheet_for: tuple | None = None  # what the sheet's lines were built for

    def refresh(self) -> None:
        self.history.reload()
        self._show()

    def _show(self) -> None:
        h = self.history
        self.summary = h.summary
        self.can_export = h.match is not None
        info = next((i for i in h.infos if i.id == h.selected), None)
        self.can_resume = bool(info is not None and not info.is_over and not info.error
                               and info.id != self.session.state.match_id)
        self._list(h)
        self._sheet(h)

    def _list(self, h: HistoryViewModel) -> None:
        """An item per match; the items already there for the same matches given their new
        words in place (a match chosen, History shown again: no widget built again)."""
        lst = self.ids.matches
        if self._listed == [info.id for info in h.infos]:
            for b, info in zip(reversed(lst.children), h.infos):
                b.text, b.selected = h.line(info), info.id == h.selected
            return
        lst.clear_widgets()
        for info in h.infos:
            b = Factory.HistoryItem(text=h.line(info), selected=info.id == h.selected)
            b.action = f"match_{info.id}"
            b.bind(on_release=lambda w, i=info.id: self.select(i),
                   width=self.fit_item, font_size=self.fit_item, text=self.fit_item)
            self.fit_item(b)
            lst.add_widget(b)
        self._listed = [info.id for info in h.infos]

    def _sheet(self, h: HistoryViewModel) -> None:
        """The chosen match's sheet, its lines already there changed in place (built again
        only for a sheet of the other kind, other players, another size or tapping)."""
        sheet = self.ids.sheet
        if h.players:  # a game without pairs: one column per player; the table's own match edits
            own = h.selected == self.session.state.match_id
            kind = ("seats", tuple(h.players), self.app.u, own)
        else:
            kind = ("pairs",) if h.match is not None else None
        if kind != self._sheet_for:
            sheet.clear_widgets()
            self._sheet_for = kind
        if kind is None:
            return
        if h.players:
            fill_seat_sheet(sheet, h.players, h.seat_sheet, self.app.u, on_tap=self.edit if own else None)
        else:
            fill_rows(sheet, sheet_values(h.team_names, h.sheet), on_tap=self.replay)

    def fit_item(self, item, *_args) -> None:
        """A match's item as high as its words need at its width, and never under 60 u. The
        words are measured apart (a height bound to the item's own texture fed back into the
        list's layout and was seen stuck at a stale width)."""
        from kivy.core.text import Label as CoreLabel
        u = self.app.u
        options = {k: getattr(item, k) for k in item._font_properties}
        options.update(text_size=(max(1.0, item.width - u * 24), None), shorten=False, max_lines=0)
        core = CoreLabel(**options)
        core.refresh()
        item.height = max(u * 60, core.content_size[1] + u * 16)

    def select(self, match_id: int) -> None:
        self.history.select(match_id)
        self._show()

    def replay(self, index: int) -> None:
        """A hand played by camera, replayed trick by trick (others have no tricks to show)."""
        hand = self.history.match.cards_of_hand(index) if self.history.match is not None else None
        if hand is None or not hand.tricks:
            return
        self.manager.get_screen("replay").show(hand, number=index + 1, team_names=self.history.team_names)
        self.app.open_overlay(Overlay.REPLAY)

    def edit(self, index: int) -> None:
        """A hand of the table's own match (a game without pairs) edited on the table."""
        self.app.act(self.session.begin_action, "edit_hand", hand=index)

    def resume(self) -> None:
        """Reopen the chosen unfinished match on the table, where it was left."""
        if self.can_resume:
            self.app.act(self.session.resume, self.history.selected)

    def export(self) -> None:
        if self.busy or self.history.selected is None:
            return
        try:
            payload = self.history.export_payload()
        except Exception as exc:  # the journal could not give this match
            self.app.show_message(str(exc))
            return
        self.busy, self.running = True, "one"
        self.app.show_message(_("Writing to the USB stick…"), seconds=60, info=True)

        def work():
            try:
                result = self.history.sticks.export(payload)
            except ExportFailed as exc:
                message = str(exc)
                self.app.to_ui(self._exported)(None, message)
            except Exception as exc:  # a bug, not the stick: free the buttons, then raise it on
                self.app.to_ui(self._crashed)(exc)  # the UI loop (logged, recover())
            else:
                self.app.to_ui(self._exported)(result, None)

        threading.Thread(target=work, name="usb-export", daemon=True).start()

    def _exported(self, result, problem) -> None:
        self.busy, self.running = False, ""
        self.last_export = result
        if result is None:
            self.app.show_message(problem, seconds=10)
        else:
            text = _("Saved on the USB stick: {name} (.json and .pdf)").format(name=result.json_path.stem)
            if result.safe_to_pull:
                text += " " + _("You can take the USB stick out now.")
            self.app.show_message(text, seconds=10, info=True)

    def export_today(self) -> None:
        """Every match created today onto the stick, one after another (one export at a time:
        both export buttons are disabled while it runs)."""
        if self.busy:
            return
        h = self.history
        try:
            payloads, unreadable = h.today_payloads()
        except Exception as exc:  # the journal could not give the list
            self.app.show_message(str(exc))
            return
        self._show()
        if not payloads:
            text, info = h.sticks.many_message(h.sticks.export_many(payloads, unreadable=unreadable))
            self.app.show_message(text, seconds=10, info=info)
            return
        self.busy, self.running = True, "today"
        self.app.show_message(h.sticks.progress_message(1, len(payloads)), seconds=120, info=True)

        def progress(n, total):
            self.app.to_ui(self._progress)(n, total)

        def work():
            try:
                result = h.sticks.export_many(payloads, unreadable=unreadable, on_progress=progress)
            except Exception as exc:  # a bug, not the stick: free the buttons, then raise it on
                self.app.to_ui(self._crashed)(exc)  # the UI loop (logged, recover())
                return
            self.app.to_ui(self._exported_today)(result)

        threading.Thread(target=work, name="usb-export-today", daemon=True).start()

    def _progress(self, n: int, total: int) -> None:
        if self.busy:  # a late tick never covers the final message
            self.app.show_message(self.history.sticks.progress_message(n, total), seconds=120, info=True)

    def _exported_today(self, result) -> None:
        self.busy, self.running = False, ""
        self.last_export_today = result
        text, info = self.history.sticks.many_message(result)
        self.app.show_message(text, seconds=10, info=info)

    def _crashed(self, exc: BaseException) -> None:
        self.busy, self.running = False, ""
        raise exc
