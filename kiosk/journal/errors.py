"""One exception root for the journal.

Every error also inherits the built-in it resembles, so a caller that only knows
``RuntimeError`` or ``OSError`` still catches it. Errors from the game core (an illegal bid,
an impossible score) are *not* wrapped: ``Journal.append`` lets the core's
``BotifarraError`` through unchanged, and nothing is written.
"""

from __future__ import annotations


class JournalError(Exception):
    """Root of every error raised by :mod:`kiosk.journal`."""


class CorruptJournal(JournalError, RuntimeError):
    """The journal file is damaged or unreadable (raised only with ``recover=False``;
    by default the file is moved aside and a new journal is started)."""

    def __init__(self, message: str, *, path=None, reason: str = "") -> None:
        super().__init__(message)
        self.path = path
        self.reason = reason


class JournalVersionError(JournalError, RuntimeError):
    """The file was written by a newer kiosk (its schema version is unknown here); it is
    left untouched."""


class NotAJournal(JournalError, ValueError):
    """The path holds a valid SQLite database of some other program; it is left untouched."""


class JournalBusy(JournalError, RuntimeError):
    """Another process holds the journal's write lock for longer than the busy timeout."""


class SaveFailed(JournalError, OSError):
    """The event could not be written durably (disk full, I/O error); it is NOT saved."""


class UnknownMatch(JournalError, LookupError):
    """No match with that id in the journal."""


class InvalidEvent(JournalError, ValueError):
    """An event that is not a JSON-able dict with a ``"type"``, or an import that is not
    match JSON."""


class UnreadableMatch(JournalError, RuntimeError):
    """A stored match whose events no longer fold into a match (the file is intact; this
    one match cannot be resumed)."""
