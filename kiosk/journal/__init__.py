"""The match journal: append-only events per match in one SQLite file.

See :class:`Journal` and docs/journal.md (where the file lives, guarantees, backups).
"""

from kiosk.journal.errors import (  # noqa: F401
    CorruptJournal, InvalidEvent, JournalBusy, JournalDirMissing, JournalError, JournalFull,
    JournalInUse, JournalReadOnly, JournalVersionError, NotAJournal, SaveFailed, UnknownMatch,
    UnreadableMatch,
)
from kiosk.journal.schema import SCHEMA_VERSION, MovedAside  # noqa: F401
from kiosk.journal.store import CurrentMatch, Journal, MatchInfo  # noqa: F401
from kiosk.journal.faults import FaultKind, JournalFault  # noqa: F401
