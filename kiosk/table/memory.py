"""What the table was showing, kept on disk beside the journal: which match (finished or
not) and a new match's form half filled in. A restart (``kill -9``, power cut, clean stop)
reopens exactly that, never a match the table had left.

One small JSON file written whole (``<db>.table.json``), like the draft beside it.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path

from kiosk.files import write_whole

log = logging.getLogger("kiosk.table")


@dataclass(frozen=True)
class NewMatchForm:
    """A new match's form as typed so far (not a match yet: nothing is journalled)."""
    team_a: str = ""
    team_b: str = ""
    players: tuple[str, str, str, str] = ("", "", "", "")
    preset: str = ""
    target: int = 0
    first_dealer: int = 0
    game: str = "pairs"  # or four_individual, three, two (after "how many play?")

    def to_json(self) -> dict:
        return {"team_a": self.team_a, "team_b": self.team_b, "players": list(self.players),
                "preset": self.preset, "target": self.target, "first_dealer": self.first_dealer,
                "game": self.game}

    @classmethod
    def from_json(cls, data) -> "NewMatchForm | None":
        try:
            players = tuple(str(p) for p in data.get("players") or ())
            if len(players) != 4:
                players = ("", "", "", "")
            return cls(team_a=str(data.get("team_a") or ""), team_b=str(data.get("team_b") or ""),
                       players=players, preset=str(data.get("preset") or ""),
                       target=int(data.get("target") or 0),
                       first_dealer=int(data.get("first_dealer") or 0) % 4,
                       game=str(data.get("game") or "pairs"))
        except (AttributeError, TypeError, ValueError):
            return None


@dataclass(frozen=True)
class Shown:
    """``known`` False: nothing was ever written (an older kiosk): the journal's unfinished
    match is the one; else ``match_id`` (None: no match on the table)."""
    known: bool = False
    match_id: int | None = None
    new_match: NewMatchForm | None = None


class TableMemory:
    """``load() -> Shown``; ``show(match_id)``; ``fill_new_match(form | None)``.
    ``path=None`` keeps it in memory only (a CLI, a club publisher)."""

    def __init__(self, path: Path | None) -> None:
        self.path = Path(path) if path else None
        self._shown = Shown()

    def load(self) -> Shown:
        if self.path is not None:
            try:
                data = json.loads(self.path.read_text("utf-8"))
            except FileNotFoundError:
                return Shown()
            except (OSError, ValueError):
                log.warning("kiosk: %s unreadable: the journal's unfinished match is reopened", self.path)
                return Shown()
            if not isinstance(data, dict):
                return Shown()
            match_id = data.get("match_id")
            form = data.get("new_match")
            self._shown = Shown(True, int(match_id) if isinstance(match_id, int) else None,
                                NewMatchForm.from_json(form) if isinstance(form, dict) else None)
        return self._shown

    def show(self, match_id: int | None) -> None:
        self._write(Shown(True, match_id, self._shown.new_match))

    def fill_new_match(self, form: NewMatchForm | None) -> None:
        self._write(Shown(True, self._shown.match_id, form))

    def _write(self, shown: Shown) -> None:
        if shown == self._shown and self.path is not None and self.path.exists():
            return
        self._shown = shown
        if self.path is None:
            return
        data = {"match_id": shown.match_id,
                "new_match": shown.new_match.to_json() if shown.new_match else None}
        try:
            write_whole(self.path, json.dumps(data))
        except OSError:  # a full disk: the journal's own save says so; this is a comfort
            log.exception("kiosk: could not keep what the table shows on disk")
