"""One classification of what can go wrong with the journal's file, and what to say.

- **damaged** (proven corruption only: "file is not a database", "database disk image is
  malformed", a failing ``quick_check``): the file is moved aside and a new one started;
- **full / read_only / locked / in_use / missing_dir / cannot_open**: the place is at
  fault, not the file: the file is kept untouched, nothing is saved meanwhile, and every
  write tries again (it works once the fault is cleared);
- **not_ours** (another program's SQLite database) and **newer** (a newer kiosk's
  journal): left untouched; the kiosk journals in a fallback file elsewhere.

Why so strict about "damaged": a full disk or a read-only mount makes SQLite fail with
codes that look like an unreadable file; moving a healthy journal aside then hides the
match in progress from the table.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from kiosk.journal.errors import (
    CorruptJournal, JournalBusy, JournalDirMissing, JournalError, JournalFull, JournalInUse,
    JournalReadOnly, JournalVersionError, NotAJournal, SaveFailed,
)


class FaultKind(str, Enum):
    DAMAGED = "damaged"
    FULL = "full"
    READ_ONLY = "read_only"
    LOCKED = "locked"
    IN_USE = "in_use"
    MISSING_DIR = "missing_dir"
    CANNOT_OPEN = "cannot_open"
    NOT_OURS = "not_ours"
    NEWER = "newer"

    @property
    def keeps_file(self) -> bool:
        return self is not FaultKind.DAMAGED


# The errors raised for each kind (all but DAMAGED, NOT_OURS and NEWER are SaveFailed).
ERRORS: dict[FaultKind, type[JournalError]] = {
    FaultKind.DAMAGED: CorruptJournal,
    FaultKind.FULL: JournalFull,
    FaultKind.READ_ONLY: JournalReadOnly,
    FaultKind.LOCKED: JournalBusy,
    FaultKind.IN_USE: JournalInUse,
    FaultKind.MISSING_DIR: JournalDirMissing,
    FaultKind.CANNOT_OPEN: SaveFailed,
    FaultKind.NOT_OURS: NotAJournal,
    FaultKind.NEWER: JournalVersionError,
}

# SQLite primary result codes
_BUSY, _LOCKED, _READONLY, _IOERR, _CORRUPT, _FULL, _CANTOPEN, _NOTADB = 5, 6, 8, 10, 11, 13, 14, 26
_IOERR_SHORT_READ = _IOERR | (2 << 8)  # a truncated file: a page that is not all there
DAMAGE_TEXT = ("file is not a database", "database disk image is malformed", "quick_check:",
               "not an SQLite database")


def _read_only_place(path: Path) -> bool:
    """The file or its directory cannot be written (a read-only mount, an immutable file,
    permissions). ``os.access`` tells the truth for root too on ro mounts and ``chattr +i``."""
    parent = path.parent
    if parent.exists() and not os.access(parent, os.W_OK):
        return True
    try:
        if parent.exists() and os.statvfs(parent).f_flag & os.ST_RDONLY:
            return True
    except OSError:
        pass
    return path.exists() and not os.access(path, os.W_OK)


def _disk_full(path: Path) -> bool:
    probe = path.parent
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    try:
        st = os.statvfs(probe)
    except OSError:
        return False
    # a few pages: SQLite needs room for the -wal and -shm (32 KiB) and a page or two
    return st.f_bavail * st.f_frsize < 64 * 1024


def classify(exc: BaseException, path: Path) -> FaultKind:
    """What ``exc`` (met while opening or writing the journal at ``path``) means."""
    if isinstance(exc, JournalError):
        try:
            return FaultKind(exc.kind)
        except ValueError:
            return FaultKind.CANNOT_OPEN
    if isinstance(exc, UnicodeDecodeError):
        return FaultKind.DAMAGED  # SQLite quoted undecodable bytes from a damaged schema
    if isinstance(exc, IsADirectoryError):
        return FaultKind.DAMAGED  # a directory where the journal file should be
    if isinstance(exc, sqlite3.Error):
        code = getattr(exc, "sqlite_errorcode", None)
        text = str(exc)
        if code is None:  # our own probe's findings carry no code
            if any(t in text for t in DAMAGE_TEXT):
                return FaultKind.DAMAGED
            return _place_fault(path)
        primary = code & 0xFF
        if primary in (_CORRUPT, _NOTADB) or code == _IOERR_SHORT_READ:
            return FaultKind.DAMAGED
        if primary == _FULL:
            return FaultKind.FULL
        if primary == _READONLY:
            return FaultKind.READ_ONLY
        if primary in (_BUSY, _LOCKED):
            return FaultKind.LOCKED
        return _place_fault(path)
    if isinstance(exc, OSError):
        if exc.errno == errno.ENOSPC or exc.errno == errno.EDQUOT:
            return FaultKind.FULL
        if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            return FaultKind.READ_ONLY
        if exc.errno == errno.ENOENT and not path.parent.exists():
            return FaultKind.MISSING_DIR
    return _place_fault(path)


def _place_fault(path: Path) -> FaultKind:
    """An I/O or "unable to open" error: find out what is wrong with the place."""
    if not path.parent.exists():
        return FaultKind.MISSING_DIR
    if _read_only_place(path):
        return FaultKind.READ_ONLY
    if _disk_full(path):
        return FaultKind.FULL
    return FaultKind.CANNOT_OPEN


def error_for(kind: FaultKind, path: Path, detail: str, *, writing: bool = False) -> JournalError:
    """The typed error for ``kind``, with a one-line message in English for logs and the CLI."""
    what = {
        FaultKind.DAMAGED: f"the journal {path} is damaged ({detail})",
        FaultKind.FULL: f"the disk holding the journal {path} is full; free some space",
        FaultKind.READ_ONLY: f"the journal {path} or its directory is read-only",
        FaultKind.LOCKED: f"the journal {path} is locked by another process",
        FaultKind.IN_USE: f"another kiosk is using the journal {path}; stop it first",
        FaultKind.MISSING_DIR: f"the journal's directory {path.parent} does not exist "
                               "(is its storage mounted?)",
        FaultKind.CANNOT_OPEN: f"the journal {path} cannot be opened ({detail})",
        FaultKind.NOT_OURS: f"{path} is an SQLite database of another program; left untouched",
        FaultKind.NEWER: f"{path} was written by a newer kiosk; left untouched",
    }[kind]
    if writing and kind.keeps_file:
        what = "NOT saved: " + what
    if kind is not FaultKind.DAMAGED and kind.keeps_file and kind is not FaultKind.NEWER \
            and kind is not FaultKind.NOT_OURS:
        what += " (the file is kept untouched)"
    return ERRORS[kind](what, path=path, reason=detail)


@dataclass(frozen=True)
class JournalFault:
    """A fault met while starting the kiosk's journal, for the screen and the log.

    ``fallback`` is where the kiosk journals instead (``not_ours`` / ``newer``); for the
    other kinds the kiosk shows the journal read-only and every save retries the file."""

    kind: FaultKind
    path: Path
    detail: str
    fallback: Path | None = None

    def message(self, lang: str = "ca") -> str:
        """What the people at the table are told, and what to do."""
        texts = _MESSAGES[self.kind]
        text = texts.get(lang) or texts["ca"]
        return text.format(name=self.path.name, dir=self.path.parent,
                           fallback=self.fallback.name if self.fallback else "")


_MESSAGES: dict[FaultKind, dict[str, str]] = {
    FaultKind.FULL: {
        "ca": "El disc és ple: les jugades NO es guarden. El registre està intacte. "
              "Aviseu el responsable del bar perquè alliberi espai.",
        "es": "El disco está lleno: las jugadas NO se guardan. El registro está intacto. "
              "Avisad al responsable del bar para que libere espacio.",
        "en": "The disk is full: nothing is being saved. The journal is intact. "
              "Please tell the bar staff to free some space."},
    FaultKind.READ_ONLY: {
        "ca": "El registre de partides és només de lectura: les jugades NO es guarden. "
              "Aviseu el responsable del bar.",
        "es": "El registro de partidas es de solo lectura: las jugadas NO se guardan. "
              "Avisad al responsable del bar.",
        "en": "The match journal is read-only: nothing is being saved. Please tell the bar staff."},
    FaultKind.LOCKED: {
        "ca": "El registre de partides està bloquejat per un altre programa: les jugades NO "
              "es guarden. Torneu-ho a provar d'aquí a una estona.",
        "es": "El registro de partidas está bloqueado por otro programa: las jugadas NO se "
              "guardan. Volved a probar en un rato.",
        "en": "The match journal is locked by another program: nothing is being saved. "
              "Try again in a while."},
    FaultKind.IN_USE: {
        "ca": "Ja hi ha un altre marcador obert amb aquest registre: les jugades NO es "
              "guarden aquí. Tanqueu l'altre marcador.",
        "es": "Ya hay otro marcador abierto con este registro: las jugadas NO se guardan "
              "aquí. Cerrad el otro marcador.",
        "en": "Another kiosk is already using this journal: nothing is saved here. "
              "Close the other kiosk."},
    FaultKind.MISSING_DIR: {
        "ca": "No es troba la carpeta del registre ({dir}): les jugades NO es guarden. "
              "Aviseu el responsable del bar.",
        "es": "No se encuentra la carpeta del registro ({dir}): las jugadas NO se guardan. "
              "Avisad al responsable del bar.",
        "en": "The journal's folder ({dir}) is missing: nothing is being saved. "
              "Please tell the bar staff."},
    FaultKind.CANNOT_OPEN: {
        "ca": "No es pot obrir el registre de partides: les jugades NO es guarden. "
              "Aviseu el responsable del bar.",
        "es": "No se puede abrir el registro de partidas: las jugadas NO se guardan. "
              "Avisad al responsable del bar.",
        "en": "The match journal cannot be opened: nothing is being saved. "
              "Please tell the bar staff."},
    FaultKind.NOT_OURS: {
        "ca": "El fitxer {name} és d'un altre programa: no s'ha tocat. Les partides es "
              "guarden a {fallback}. Aviseu el responsable del bar.",
        "es": "El fichero {name} es de otro programa: no se ha tocado. Las partidas se "
              "guardan en {fallback}. Avisad al responsable del bar.",
        "en": "{name} belongs to another program: it was left untouched. Matches are saved "
              "in {fallback}. Please tell the bar staff."},
    FaultKind.NEWER: {
        "ca": "El registre {name} és d'una versió més nova del marcador: no s'ha tocat. Les "
              "partides es guarden a {fallback}. Aviseu el responsable del bar.",
        "es": "El registro {name} es de una versión más nueva del marcador: no se ha tocado. "
              "Las partidas se guardan en {fallback}. Avisad al responsable del bar.",
        "en": "{name} was written by a newer kiosk: it was left untouched. Matches are saved "
              "in {fallback}. Please tell the bar staff."},
    FaultKind.DAMAGED: {
        "ca": "El registre de partides està malmès i no s'ha pogut apartar. Aviseu el "
              "responsable del bar.",
        "es": "El registro de partidas está dañado y no se ha podido apartar. Avisad al "
              "responsable del bar.",
        "en": "The match journal is damaged and could not be set aside. Please tell the bar staff."},
}
