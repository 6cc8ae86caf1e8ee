"""The table: one Kivy-free writer (``TableSession``) and the typed state it hands out.

Screens, the CLI and a club publisher all act through a session; see docs/ARCHITECTURE.md.
"""

from kiosk.table.clock import TournamentClock  # noqa: F401
from kiosk.table.drafts import DraftStore  # noqa: F401
from kiosk.table.memory import NewMatchForm, TableMemory  # noqa: F401
from kiosk.table.session import TableSession  # noqa: F401
from kiosk.table.state import (  # noqa: F401
    Bids, Contract, Draft, HandRow, PendingHand, SaveResult, Step, TableState, TeamBreakdown, Undone,
)
from kiosk.table.pairstate import sheet_of  # noqa: F401
