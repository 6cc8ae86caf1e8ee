"""The draft on disk: written whole next to the journal, so a power cut reopens the step.

A draft only counts while the match has exactly the events it was written against.
"""

from __future__ import annotations

import json
from pathlib import Path

from kiosk.files import write_whole
from kiosk.table.state import Draft


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
