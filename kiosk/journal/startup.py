"""Opening the kiosk's journal so that the kiosk always starts, and says what is wrong."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

from kiosk.journal.errors import JournalError, JournalVersionError, NotAJournal
from kiosk.journal.faults import JournalFault, classify
from kiosk.journal.store import Journal


def fallback_path(path: Path) -> Path:
    """Where the kiosk journals when ``path`` is not a journal of ours (left untouched)."""
    return path.with_name(f"{path.stem}-kiosk{path.suffix or '.sqlite'}")


def open_for_kiosk(path: str | Path, *, fallback: Path | None = None,
                   clock: Callable[[], float] = time.time) -> Journal:
    """The kiosk's journal at ``path``, whatever state the file and its place are in.

    - sound: the journal (holding the single-instance lock);
    - damaged: moved aside, a new journal started (``moved_aside`` says so);
    - another program's database or a newer kiosk's journal: left untouched; the journal
      is ``fallback`` (by default ``<stem>-kiosk.sqlite`` beside it);
    - a full disk, a read-only place, a lock, another kiosk, a missing folder: a
      :meth:`Journal.standby` that shows the file and retries at every save.

    ``startup_fault`` on the result is what the kiosk shows (None when all is well)."""
    path = Path(path)
    try:
        return Journal(path, clock=clock, exclusive=True)
    except (NotAJournal, JournalVersionError) as exc:
        other = fallback or fallback_path(path)
        fault = JournalFault(classify(exc, path), path, str(exc), fallback=other)
        try:
            journal = Journal(other, clock=clock, exclusive=True)
        except JournalError as exc2:
            journal = Journal.standby(other, exc2, clock=clock)
        journal.startup_fault = fault
        return journal
    except JournalError as exc:
        return Journal.standby(path, exc, clock=clock)
