"""The step in progress: the draft (a hand being scored, a result to confirm, a past hand
being edited) and the result it holds, checked once by the core; kept on disk, written
whole next to the journal, so a power cut reopens the step.

A draft only counts while the match has exactly the events it was written against.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from kiosk.files import write_whole
from kiosk.game import BotifarraError, Match
from kiosk.table.state import Draft, PendingHand
from kiosk.table.variants import table_for

log = logging.getLogger("kiosk.table")


class DraftStore:
    """``save(match_id, events, draft)`` / ``load(match_id, events) -> Draft | None``.
    ``path=None`` keeps the draft in memory only (a CLI or a club publisher)."""

    def __init__(self, path: Path | None) -> None:
        self.path = Path(path) if path else None
        self._memory: dict | None = None

    def save(self, match_id: int | None, events: int, draft: Draft | None) -> None:
        data = None if draft is None else {"match_id": str(match_id), "events": events,
                                           **draft.to_json()}
        self._memory = data
        if self.path is None:
            return
        if data is None:
            try:
                self.path.unlink()
            except FileNotFoundError:
                pass
            return
        write_whole(self.path, json.dumps(data))

    def load(self, match_id: int | None, events: int) -> Draft | None:
        data = self._memory
        if self.path is not None:
            try:
                data = json.loads(self.path.read_text("utf-8"))
            except (OSError, ValueError):
                return None
        if not isinstance(data, dict) or match_id is None:
            return None
        if data.get("match_id") != str(match_id) or data.get("events") != events:
            return None
        return Draft.from_json(data)


class DraftKeeper:
    """The session's step in progress: ``draft`` (None: none) and ``pending``, the result
    it holds as the core applied it, once, when it was set; each change is kept by its
    :class:`DraftStore` (a full disk is logged: the journal's own save says so).

    Example::

        keeper = DraftKeeper(DraftStore(None))
        keeper.set(Draft(step=Step.SCORE_CARDS), match, match_id=1)
        keeper.reopen(match, match_id=1)   # after a restart: the same draft
    """

    def __init__(self, store: DraftStore) -> None:
        self.store = store
        self.draft: Draft | None = None
        self.pending: PendingHand | None = None

    def set(self, draft: Draft | None, match: Match | None, match_id: int | None, *,
            store: bool = True, pending: PendingHand | None = None) -> None:
        """``draft`` is the step now; a result it holds is applied by the core here unless
        ``pending`` says how it was already (a result the core now refuses is dropped: back
        to the step it was typed on)."""
        self.draft, self.pending = draft, pending
        if pending is None and draft is not None and draft.result is not None and match is not None:
            try:
                self.pending = table_for(match).pending_of(match, draft.result)  # once
            except BotifarraError:
                self.draft = draft.but(step=draft.back, result=None) if draft.back else None
        if store:
            self.keep(match, match_id)

    def change(self, match: Match | None, match_id: int | None, **changes) -> None:
        """What has been entered so far: the draft with ``changes``, its pending result as it was."""
        self.draft = self.draft.but(**changes)
        self.keep(match, match_id)

    def keep(self, match: Match | None, match_id: int | None) -> None:
        try:
            self.store.save(match_id, len(match.events) if match else 0, self.draft)
        except OSError:  # a full disk: the journal's own save says so; the draft is a comfort
            log.exception("kiosk: could not keep the draft on disk")

    def reopen(self, match: Match | None, match_id: int | None) -> None:
        """The draft kept for this match as it is now (none if the match moved on)."""
        events = len(match.events) if match is not None else 0
        self.set(self.store.load(match_id, events), match, match_id, store=False)
