"""The step the table is on that is not (yet) an event: a hand being scored.

Saved atomically next to the journal so that after a power cut the kiosk reopens on the same
screen of the same hand (with the cards already tapped). A draft only counts while the
match has exactly the events it was written against; anything else is ignored.
"""

from __future__ import annotations

import json
from pathlib import Path

from kiosk.files import write_whole


class DraftStore:
    def __init__(self, path: Path | None) -> None:
        self.path = Path(path) if path else None
        self._memory: dict | None = None

    def save(self, draft: dict | None) -> None:
        self._memory = draft
        if self.path is None:
            return
        if draft is None:
            try:
                self.path.unlink()
            except FileNotFoundError:
                pass
            return
        write_whole(self.path, json.dumps(draft))

    def load(self) -> dict | None:
        if self.path is None:
            return self._memory
        try:
            return json.loads(self.path.read_text("utf-8"))
        except (OSError, ValueError):
            return None
