"""Writing a match's export to a USB stick: the ``export`` JSON and a printable A4 sheet
as PDF, one match or today's matches in one go.

Plain Python (no Kivy). Sticks come from :class:`kiosk.usb.UsbSticks` (a constructor
argument): only a removable block device counts; it is mounted for the export, then synced
and unmounted, and the result says it is safe to pull. ``export(payload, stick=folder)``
writes into a folder that is already there. What is written (the payload, its file
names) is the History's (:mod:`kiosk.ui.viewmodels.history`).

An export is all or nothing: both files are written to hidden temporary names on the
stick, flushed and fsynced, and only then renamed into place; on any error the temporary
files (and a first file already renamed) are removed, and :class:`ExportFailed` carries a
sentence for the screen. It never overwrites: should a name be taken already (one stick
goes from table to table in a tournament), the pair of files gets ``-2``, ``-3``, ...

:meth:`StickExport.export_many` writes several matches, each through
:meth:`StickExport.export` (same names, same never-overwrite, whole or nothing per match).
It stops at the first match that fails (a pulled or full stick would fail the rest too):
the matches already written stay, the failed one leaves nothing behind, the rest are not
attempted, and :meth:`StickExport.many_message` says how many were written and that the
others were not.
"""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Sequence

from kiosk.files import fsync_dir
from kiosk.usb import NoStickFound, StickError, UsbSticks
from kiosk.ui.i18n import _, ngettext

MAX_SUFFIX = 999    # <stem>-2 ... <stem>-999: past that the stick is called full of this match


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


def _explain(exc: OSError) -> str:
    code = exc.errno
    if code in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return _("The USB stick is full. Nothing was saved on it.")
    if code in (errno.EROFS, errno.EACCES, errno.EPERM):
        return _("The USB stick is read-only (write-protected). Nothing was saved on it.")
    return _("The USB stick could not be written (was it pulled out?). Nothing was saved on it; "
             "plug it in and try again.")


class StickExport:
    """The exports of matches to the first USB stick of ``usb`` (made when first needed:
    looking for sticks costs nothing before)."""

    def __init__(self, usb: UsbSticks | None = None) -> None:
        self._usb = usb

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


