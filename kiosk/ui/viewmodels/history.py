"""Match history: the journal's past matches, one score sheet each, and what an export of
a match writes (its payload and its file names); the writing to a USB stick is the owned
:class:`kiosk.ui.viewmodels.stickexport.StickExport` (``history.sticks``).

An export never overwrites: one stick goes from table to table in a tournament, so the
names carry the table's name (``botifarra-2026-11-22_1830-taula-7-match1``) and, should a
name still be taken, the pair of files gets ``-2``, ``-3``, ...

"Export today's matches": :meth:`HistoryViewModel.today_payloads` on the UI thread (the
matches created on today's local date, oldest first), then ``sticks.export_many`` on a
worker.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime
from typing import Any, Callable

from kiosk.usb import UsbSticks
from kiosk.ui.i18n import _, shown_names
from kiosk.table.variants import seat_rows
from kiosk.table.pairstate import sheet_of
from kiosk.ui.viewmodels.exportpayload import match_payload, seat_label, seat_labels, seat_totals
from kiosk.ui.viewmodels.stickexport import StickExport

SLUG_LENGTH = 40    # the table's part of a file name, at most


def slug(text: str) -> str:
    """``text`` as a safe part of a file name on any stick (FAT too): ASCII lower case,
    digits and single hyphens ("Taula 7 / Bar l'Àngel" -> "taula-7-bar-l-angel"); "" if
    nothing is left."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")[:SLUG_LENGTH].rstrip("-")


def _local_date(iso: str | None) -> str:
    """``2026-11-22 04:13`` in local time from the journal's ISO UTC timestamp."""
    if not iso:
        return ""
    try:
        return datetime.fromisoformat(iso.replace("Z", "+00:00")).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return iso[:16]


def _local_day(iso: str | None, now: datetime):
    """The calendar day of a journal timestamp in ``now``'s time zone (local when naive)."""
    if not iso:
        return None
    try:
        when = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except ValueError:
        return None
    return when.astimezone(now.tzinfo).date() if now.tzinfo else when.astimezone().date()


class HistoryViewModel:
    """Past matches (newest first), the selected match's sheet, export to a USB stick."""

    def __init__(self, journal, *, usb: UsbSticks | None = None,
                 now: Callable[[], datetime] = datetime.now,
                 table_name: Callable[[], str] = lambda: "") -> None:
        self.journal = journal
        self.sticks = StickExport(usb)  # the writing of an export to a USB stick
        self.now = now
        self.table_name = table_name  # the setting table.name, read at each export ("" = none)
        self.infos: list = []
        self.selected: int | None = None
        self.match = None
        self.error: str | None = None

    # ------------------------------------------------------------------ the list
    def reload(self) -> None:
        """Read the match list again (newest first) and keep the selection if it is still there."""
        self.infos = list(reversed(self.journal.matches()))
        ids = [i.id for i in self.infos]
        if self.selected not in ids:
            self.selected = None
            self.match = None
        if self.selected is None and self.infos:
            self.select(self.infos[0].id)

    def select(self, match_id: int) -> None:
        from kiosk.journal import JournalError
        self.selected = match_id
        try:
            self.match = self.journal.load(match_id)
            self.error = None
        except JournalError as exc:  # a match whose events no longer fold: say so, keep going
            self.match = None
            self.error = str(exc)

    def info(self, match_id: int | None = None):
        match_id = self.selected if match_id is None else match_id
        return next((i for i in self.infos if i.id == match_id), None)

    def names_of(self, info) -> dict[str, str]:
        names = dict(info.team_names or {}) if info is not None else {}
        return shown_names({"A": names.get("A") or "A", "B": names.get("B") or "B"})

    def line(self, info) -> str:
        """One list entry on two lines: the date and how it stands; the pairs and their totals."""
        names = self.names_of(info)
        t = info.totals or {}
        if info.error:
            state = _("cannot be read")
        elif info.is_over and info.winner in ("A", "B"):
            state = _("{name} won").format(name=names[info.winner])
        elif info.is_over and isinstance(info.winner, int) and info.players:
            state = _("{player} won").format(player=seat_label(info.players, info.winner))  # one person
        elif info.is_over:
            state = _("over")
        else:
            state = _("in play")
        if isinstance(t, list):  # a game without pairs: one total per seat
            return f"{_local_date(info.created_at)} · {state}\n" + seat_totals(info.players, t)
        return (f"{_local_date(info.created_at)} · {state}\n"
                f"{names['A']} {t.get('A', 0)} – {t.get('B', 0)} {names['B']}")

    # ------------------------------------------------------------------ the sheet (scoreboard's format)
    @property
    def team_names(self) -> dict[str, str]:
        return self.names_of(self.info())

    @property
    def sheet(self) -> list:
        pairs = self.match is not None and self.match.variant == "pairs"
        return sheet_of(self.match) if pairs else []  # a game without pairs: seat_sheet

    @property
    def seat_sheet(self) -> list:
        """A game without pairs: its hands (:class:`~kiosk.table.seatstate.SeatRow`)."""
        return [] if self.match is None or self.match.variant == "pairs" else list(seat_rows(self.match))

    @property
    def players(self) -> list[str]:
        """A game without pairs: one label per seat ([] for a pair match)."""
        return seat_labels(self.match)

    @property
    def totals(self) -> dict[str, int]:
        if self.match is None or self.match.variant != "pairs":
            return {"A": 0, "B": 0}
        return {k: int(self.match.totals.get(k, 0)) for k in ("A", "B")}

    @property
    def summary(self) -> str:
        info = self.info()
        if info is None:
            return _("No matches yet")
        if self.error:
            return _("This match cannot be read: {error}").format(error=self.error)
        if self.match is not None and self.match.variant != "pairs":
            text = seat_totals(self.match.players, list(self.match.totals))
            winner = self.match.winner
            if winner is not None:
                text += " · " + _("{player} won").format(player=seat_label(self.match.players, winner))
            return text
        names, t = self.team_names, self.totals
        text = f"{names['A']} {t['A']} – {t['B']} {names['B']}"
        if self.match.winner in ("A", "B"):
            text += " · " + _("{name} won").format(name=names[self.match.winner])
        return text

    def table(self) -> str:
        return str(self.table_name() or "").strip()

    def file_stem(self, match_id: int) -> str:
        """``botifarra-<date>_<HHMM>[-<table slug>]-match<id>``: tables that start their
        match 1 in the same minute still get different names."""
        info = self.info(match_id)
        date = (_local_date(info.created_at) if info else "").replace(" ", "_").replace(":", "")
        parts = ["botifarra", date, slug(self.table()), f"match{match_id}"]
        return "-".join(p for p in parts if p)

    def export_payload(self, match_id: int | None = None) -> dict[str, Any]:
        """What an export writes, read from the journal (fast; do it on the UI thread); a
        game without pairs too (see :mod:`kiosk.ui.viewmodels.exportpayload`)."""
        match_id = self.selected if match_id is None else match_id
        match = self.journal.load(match_id)
        info = self.info(match_id)
        return {"match_id": match_id, **match_payload(match, self.names_of(info)),
                "date": _local_date(info.created_at if info else None),
                "table": self.table(), "stem": self.file_stem(match_id)}

    # ------------------------------------------------------------------ today's matches, in one go
    def today_ids(self) -> list[int]:
        """The matches created on today's local date (the injected ``now``), oldest first."""
        now = self.now()
        today = now.date()
        return [i.id for i in sorted(self.journal.matches(), key=lambda i: i.id)
                if _local_day(i.created_at, now) == today]

    def today_payloads(self) -> tuple[list[dict[str, Any]], int]:
        """The export payloads of today's matches (read from the journal: do it on the UI
        thread), and how many of today's matches the journal could not give."""
        from kiosk.journal import JournalError
        self.reload()  # the file names are made from the list: read it afresh
        payloads, unreadable = [], 0
        for match_id in self.today_ids():
            try:
                payloads.append(self.export_payload(match_id))
            except JournalError:
                unreadable += 1
        return payloads, unreadable
