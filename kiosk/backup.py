"""Journal backups: one copy, and the rotation of a folder of copies.

The library behind ``botifarra-kiosk backup`` (kiosk/commands/backup.py), which the nightly
``botifarra-kiosk-backup.timer`` runs. The copy is ``Journal.backup(dest)`` (SQLite's online
backup API: a consistent snapshot even while the kiosk writes; checked with
``PRAGMA integrity_check``, fsynced and renamed into place, so a power cut never leaves a
half backup that looks whole). In a folder, copies are named ``journal-YYYYmmdd-HHMMSS.sqlite``
(UTC); :func:`prune` keeps the newest ``keep`` of them and/or those younger than
``keep_days``, and always the newest one.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from pathlib import Path

NAME = re.compile(r"^journal-(\d{8}-\d{6})\.sqlite$")
STAMP = "%Y%m%d-%H%M%S"


class BackupError(RuntimeError):
    """A backup that could not be made or did not check out (e.g. a damaged journal)."""


def backup(db: Path, dest: Path, *, into_dir: bool | None = None,
           now: datetime | None = None) -> Path:
    """Copy the journal ``db`` to ``dest`` and return the copy's path.

    ``dest`` is the copy itself, or with ``into_dir`` (default: whether ``dest`` is an
    existing directory) a folder that receives ``journal-YYYYmmdd-HHMMSS.sqlite`` (UTC).
    The journal is opened without recovery: a damaged one raises :class:`BackupError` and
    stays where it is.
    """
    from kiosk.journal import Journal, JournalError

    db, dest = Path(db), Path(dest)
    if not db.is_file():
        raise FileNotFoundError(f"no journal at {db}")
    if into_dir is None:
        into_dir = dest.is_dir()
    if into_dir:
        dest = dest / f"journal-{(now or _utcnow()).strftime(STAMP)}.sqlite"
    try:
        with Journal(db, recover=False) as journal:
            return journal.backup(dest)
    except JournalError as exc:
        raise BackupError(str(exc)) from exc


def _utcnow() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


def prune(dest_dir: Path, *, keep: int | None = None, keep_days: int | None = None,
          now: datetime | None = None) -> list[Path]:
    """Remove the backups in ``dest_dir`` beyond the newest ``keep`` and those older than
    ``keep_days`` (by the time in their name); the newest is always kept. Other files are
    left alone. Returns the removed paths."""
    dated = []
    for path in Path(dest_dir).glob("journal-*.sqlite"):
        match = NAME.match(path.name)
        if match:
            dated.append((datetime.strptime(match.group(1), STAMP), path))
    dated.sort(reverse=True)                 # newest first
    limit = (now or _utcnow()) - timedelta(days=keep_days) if keep_days is not None else None
    removed = []
    for rank, (when, path) in enumerate(dated):
        if rank == 0:
            continue
        if (keep is not None and rank >= keep) or (limit is not None and when < limit):
            path.unlink(missing_ok=True)
            removed.append(path)
    return sorted(removed)
