"""The single-instance lock: one kiosk writes a journal at a time.

An ``flock`` on ``<journal>.lock`` held for as long as the kiosk runs. The kernel drops it
when the process dies (a crash or SIGKILL leaves no stale lock to clean up), and it is per
open file, so a second kiosk in the same process is refused too. The CLI does not take it:
``matches`` and ``export`` read, and ``import`` writes in its own short transaction that
SQLite already serialises with the kiosk's.
"""

from __future__ import annotations

import errno
import fcntl
import os
from pathlib import Path

from kiosk.journal.errors import JournalInUse


def lock_path(journal: Path) -> Path:
    return journal.with_name(journal.name + ".lock")


def acquire(journal: Path) -> int | None:
    """Take the lock; returns its file descriptor (to :func:`release`), or None when the
    lock file cannot be made at all (a read-only or full place: the journal then cannot be
    written either, and opening it says so). Raises :class:`JournalInUse` when held."""
    path = lock_path(journal)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        if exc.errno not in (errno.EROFS, errno.EACCES, errno.EPERM, errno.ENOSPC):
            return None  # no place for a lock: opening the journal says what is wrong
        try:  # an existing lock file on a read-only place still shows another kiosk
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        os.close(fd)
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
            raise JournalInUse(f"another kiosk is using the journal {journal} (it holds "
                               f"{path.name}); stop it first", path=journal) from None
        return None
    return fd


def release(fd: int | None) -> None:
    if fd is not None:
        os.close(fd)  # closing the descriptor drops the flock
