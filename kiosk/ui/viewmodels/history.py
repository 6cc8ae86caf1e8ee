"""Match history: the journal's past matches, one score sheet each, and the export of a
match to a USB stick (the ``export`` JSON plus a printable A4 sheet as PDF).

Plain Python (no Kivy). Sticks come from :class:`kiosk.usb.UsbSticks` (a constructor
argument): only a removable block device counts; it is mounted for the export, then synced
and unmounted, and the result says it is safe to pull. ``export(payload, stick=folder)``
writes into a folder that is already there.

An export is all or nothing: both files are written to hidden temporary names on the
stick, flushed and fsynced, and only then renamed into place; on any error the temporary
files (and a first file already renamed) are removed, and :class:`ExportFailed` carries a
sentence for the screen.

An export never overwrites: one stick goes from table to table in a tournament, so the
names carry the table's name (``botifarra-2026-11-22_1830-taula-7-match1``) and, should a
name still be taken, the pair of files gets ``-2``, ``-3``, ...

"Export today's matches" (:meth:`HistoryViewModel.today_payloads` on the UI thread, then
:meth:`HistoryViewModel.export_many` on a worker) writes the matches created on today's
local date, oldest first, each through :meth:`HistoryViewModel.export` (same names, same
never-overwrite, whole or nothing per match). It stops at the first match that fails (a
pulled or full stick would fail the rest too): the matches already written stay, the failed
one leaves nothing behind, the rest are not attempted, and :meth:`HistoryViewModel.many_message`
says how many were written and that the others were not.
"""

from __future__ import annotations

import errno
import os
import re
import unicodedata
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Sequence

from kiosk.files import fsync_dir
from kiosk.usb import NoStickFound, StickError, UsbSticks
from kiosk.ui.i18n import _, ngettext
from kiosk.table.variants import seat_rows
from kiosk.table.views import sheet_of
from kiosk.ui.viewmodels.exportpayload import match_payload, seat_label, seat_labels, seat_totals

SLUG_LENGTH = 40    # the table's part of a file name, at most
MAX_SUFFIX = 999    # <stem>-2 ... <stem>-999: past that the stick is called full of this match


def slug(text: str) -> str:
    """``text`` as a safe part of a file name on any stick (FAT too): ASCII lower case,
    digits and single hyphens ("Taula 7 / Bar l'Àngel" -> "taula-7-bar-l-angel"); "" if
    nothing is left."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")[:SLUG_LENGTH].rstrip("-")


class ExportFailed(OSError):
    """The export could not be written; ``str(exc)`` is a sentence for the screen."""

    def __str__(self) -> str:
        return self.strerror or super().__str__()


class NoStick(ExportFailed):
    """No USB stick is plugged in (or none is writable)."""


@dataclass(frozen=True)
class ExportResult:
    json_path: Path
    pdf_path: Path
    safe_to_pull: bool = False  # the stick was synced and unmounted after the writing


@dataclass(frozen=True)
class ManyExported:
    """What "export today's matches" did: ``written`` (in order), out of ``total``; on a
    failure ``problem`` is the :class:`ExportFailed` that stopped it (the rest not tried)."""
    written: tuple[ExportResult, ...]
    total: int
    problem: ExportFailed | None = None
    unreadable: int = 0  # today's matches the journal could not give (never attempted)
    safe_to_pull: bool = False  # the stick was synced and unmounted afterwards


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


def _explain(exc: OSError) -> str:
    code = exc.errno
    if code in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return _("The USB stick is full. Nothing was saved on it.")
    if code in (errno.EROFS, errno.EACCES, errno.EPERM):
        return _("The USB stick is read-only (write-protected). Nothing was saved on it.")
    return _("The USB stick could not be written (was it pulled out?). Nothing was saved on it; "
             "plug it in and try again.")


class HistoryViewModel:
    """Past matches (newest first), the selected match's sheet, export to a USB stick."""

    def __init__(self, journal, *, usb: UsbSticks | None = None,
                 now: Callable[[], datetime] = datetime.now,
                 table_name: Callable[[], str] = lambda: "") -> None:
        self.journal = journal
        self._usb = usb  # made when first needed: looking for sticks costs nothing before
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
        return {"A": names.get("A") or "A", "B": names.get("B") or "B"}

    def line(self, info) -> str:
        """One list entry on two lines: the date and how it stands; the pairs and their totals."""
        names = self.names_of(info)
        t = info.totals or {}
        if info.error:
            state = _("cannot be read")
        elif info.is_over and info.winner in ("A", "B"):
            state = _("{name} won").format(name=names[info.winner])
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
                text += " · " + _("{name} won").format(name=seat_label(self.match.players, winner))
            return text
        names, t = self.team_names, self.totals
        text = f"{names['A']} {t['A']} – {t['B']} {names['B']}"
        if self.match.winner in ("A", "B"):
            text += " · " + _("{name} won").format(name=names[self.match.winner])
        return text

    # ------------------------------------------------------------------ USB
    @property
    def usb(self) -> UsbSticks:
        if self._usb is None:
            self._usb = UsbSticks()
        return self._usb

    def _on_stick(self, write: Callable[[Path], Any]) -> Any:
        """``write(folder)`` on the first stick, mounted for it, then synced and unmounted."""
        try:
            with self.usb.opened() as folder:
                return write(folder)
        except NoStickFound as exc:
            raise NoStick(_("No USB stick found. Plug one in and try again.")) from exc
        except StickError as exc:
            raise ExportFailed(exc.errno or errno.EIO, _explain(exc)) from exc

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

    def export(self, payload: dict[str, Any], stick: Path | None = None) -> ExportResult:
        """Write ``<stem>.json`` and ``<stem>.pdf`` to the stick (may run on a worker thread),
        or ``<stem>-2.*``, ``-3``, ... when a file of that name is already there: never over
        another table's sheet. The result names the files actually written.

        Raises :class:`NoStick` or :class:`ExportFailed` (nothing half-written is left)."""
        from kiosk.journal.exchange import dumps
        from kiosk.ui.sheetpdf import sheet_pdf

        if stick is None:
            return replace(self._on_stick(lambda folder: self.export(payload, folder)), safe_to_pull=True)
        stick = Path(stick)
        stem = payload["stem"]
        contents = ((".json", dumps(payload["json"]).encode("utf-8")), (".pdf", sheet_pdf(payload)))
        temps: list[Path] = []
        done: list[Path] = []
        try:
            for ext, data in contents:
                tmp = stick / f".{stem}{ext}.tmp-{os.getpid()}"
                temps.append(tmp)
                with open(tmp, "wb") as fh:
                    fh.write(data)
                    fh.flush()
                    os.fsync(fh.fileno())
            # Check, then rename. A no-replace rename is not to be had here: os.link fails
            # on FAT/exFAT sticks (no hard links), Python has no renameat2(RENAME_NOREPLACE),
            # and O_EXCL placeholders would leave empty "sheets" after a power cut. It is safe
            # enough because this kiosk is the only writer on the stick while it is plugged
            # in here (the stick goes from table to table; the screen runs one export at a
            # time), and the check comes after the slow writes, just before the renames; FAT
            # looks names up without regard to case, so the check sees any spelling of them.
            finals = self._free_names(stick, stem, [ext for ext, _data in contents])
            for final, tmp in zip(finals, temps):
                os.replace(tmp, final)
                done.append(final)
            fsync_dir(stick, strict=False)  # a FAT stick may refuse to sync a folder
        except OSError as exc:
            for path in temps + done:
                try:
                    path.unlink(missing_ok=True)
                except OSError:
                    pass
            raise ExportFailed(exc.errno, _explain(exc)) from exc
        return ExportResult(*finals)

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

    def export_many(self, payloads: Sequence[dict[str, Any]], stick: Path | None = None, *,
                    unreadable: int = 0,
                    on_progress: Callable[[int, int], None] | None = None) -> ManyExported:
        """Export each payload in turn with :meth:`export` (may run on a worker thread);
        ``on_progress(n, total)`` is called before the n-th (1-based). Stops at the first
        failure: what was written stays, the failed match leaves nothing. Never raises
        :class:`ExportFailed`: the result carries it."""
        written: list[ExportResult] = []
        total = len(payloads)
        if total == 0:
            return ManyExported((), 0, None, unreadable)
        if stick is None:
            try:
                done = self._on_stick(lambda folder: self.export_many(
                    payloads, folder, unreadable=unreadable, on_progress=on_progress))
            except ExportFailed as exc:
                return ManyExported((), total, exc, unreadable)
            return replace(done, safe_to_pull=True)
        try:
            for n, payload in enumerate(payloads, 1):
                if on_progress is not None:
                    on_progress(n, total)
                written.append(self.export(payload, stick))
        except ExportFailed as exc:
            return ManyExported(tuple(written), total, exc, unreadable)
        return ManyExported(tuple(written), total, None, unreadable)

    @staticmethod
    def progress_message(n: int, total: int) -> str:
        return _("Writing {n} of {total}…").format(n=n, total=total)

    @staticmethod
    def many_message(result: ManyExported) -> tuple[str, bool]:
        """The one sentence for the end of "export today's matches", and whether it is only
        information (``True``) or a problem."""
        if result.total == 0 and not result.unreadable:
            return _("No matches today: nothing was written to the USB stick."), True
        if result.total == 0:
            return _("Today's matches cannot be read: nothing was written to the USB stick."), False
        done = len(result.written)
        if result.problem is not None:
            if done == 0:
                return str(result.problem), False  # "... Nothing was saved on it ..."
            code = result.problem.errno
            if code in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
                why = _("The USB stick is full.")
            elif code in (errno.EROFS, errno.EACCES, errno.EPERM):
                why = _("The USB stick is read-only (write-protected).")
            else:
                why = _("Was the USB stick pulled out? Plug it in and try again.")
            return _("Only {done} of {total} matches were saved on the USB stick; {left} were not. "
                     "{why}").format(done=done, total=result.total,
                                               left=result.total - done, why=why), False
        text = ngettext("{n} match saved on the USB stick", "{n} matches saved on the USB stick", done).format(n=done)
        if result.safe_to_pull:
            text += ". " + _("You can take the USB stick out now.")
        if result.unreadable:
            return text.rstrip(".") + ". " + ngettext("{n} of today's matches cannot be read; it was not saved.",
                                                      "{n} of today's matches cannot be read; they were not saved.",
                                                      result.unreadable).format(n=result.unreadable), False
        return text, True

    @staticmethod
    def _free_names(stick: Path, stem: str, exts: list[str]) -> list[Path]:
        """``<stem><ext>`` for every ext, or the first ``<stem>-N<ext>`` (N = 2, 3, ...)
        where none of them exists yet: the files of one export share their suffix."""
        for n in range(1, MAX_SUFFIX + 1):
            name = stem if n == 1 else f"{stem}-{n}"
            paths = [stick / f"{name}{ext}" for ext in exts]
            if not any(os.path.lexists(p) for p in paths):
                return paths
        raise OSError(errno.EEXIST, f"{stem}: {MAX_SUFFIX} exports of it are already on the stick")


