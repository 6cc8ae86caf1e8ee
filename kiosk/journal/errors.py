"""One exception root for the journal.

Every error also inherits the built-in it resembles, so a caller that only knows
``RuntimeError`` or ``OSError`` still catches it. Errors from the game core (an illegal bid,
an impossible score) are *not* wrapped: ``Journal.append`` lets the core's
``BotifarraError`` through unchanged, and nothing is written.

Faults of the place the journal lives (a full disk, a read-only file, another kiosk) are
:class:`SaveFailed` subclasses: whatever was being written is NOT saved, the file is left
untouched, and the same call works again once the fault is cleared. Each carries its
:class:`~kiosk.journal.faults.FaultKind` as ``kind`` (see :mod:`kiosk.journal.faults`).
"""

from __future__ import annotations


class JournalError(Exception):
    """Root of every error raised by :mod:`kiosk.journal`."""

    kind = "error"  # the FaultKind value this error stands for

    def __init__(self, message: str = "", *, path=None, reason: str = "") -> None:
        super().__init__(message)
        self.path = path
        self.reason = reason


class CorruptJournal(JournalError, RuntimeError):
    """The journal file is proven damaged (raised with ``recover=False``, or when it could
    not be moved aside; by default it is moved aside and a new journal is started)."""

    kind = "damaged"


class JournalVersionError(JournalError, RuntimeError):
    """The file was written by a newer kiosk (its schema version is unknown here); it is
    left untouched."""

    kind = "newer"


class NotAJournal(JournalError, ValueError):
    """The path holds a valid SQLite database of some other program; it is left untouched."""

    kind = "not_ours"


class SaveFailed(JournalError, OSError):
    """The event could not be written durably; it is NOT saved (retrying may work)."""

    kind = "cannot_open"


class JournalFull(SaveFailed):
    """The disk holding the journal is full; nothing is saved until space is freed."""

    kind = "full"


class JournalReadOnly(SaveFailed):
    """The journal file or its directory cannot be written (read-only file or mount)."""

    kind = "read_only"


class JournalBusy(SaveFailed):
    """Another process held the journal's write lock for longer than the busy timeout."""

    kind = "locked"


class JournalInUse(SaveFailed):
    """Another kiosk holds this journal (its ``.lock`` file); only one kiosk may write it."""

    kind = "in_use"


class JournalDirMissing(SaveFailed, FileNotFoundError):
    """The journal's directory does not exist and cannot be created (a storage not mounted)."""

    kind = "missing_dir"


class UnknownMatch(JournalError, LookupError):
    """No match with that id in the journal."""


class InvalidEvent(JournalError, ValueError):
    """An event that is not a JSON-able dict with a ``"type"``, or an import that is not
    match JSON."""


class UnreadableMatch(JournalError, RuntimeError):
    """A stored match whose events no longer fold into a match (the file is intact; this
    one match cannot be resumed)."""
