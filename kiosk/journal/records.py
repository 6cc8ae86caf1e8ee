"""What the journal stores besides events: events as text, and each match's summary row."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

from kiosk.game import Match, VariantMatch
from kiosk.journal.errors import InvalidEvent


@dataclass(frozen=True)
class MatchInfo:
    """One line of the match list."""

    id: int
    created_at: str          # ISO 8601 UTC of the match_created event
    updated_at: str          # ISO 8601 UTC of the latest event
    team_names: dict | None  # {"A": ..., "B": ...} (None without pairs)
    players: list | None     # a name (or None) per seat: 4, 3 or 2
    totals: dict | list      # {"A": n, "B": n}; without pairs one total per seat
    winner: str | int | None  # "A", "B", a seat without pairs, or None
    is_over: bool
    hands: int               # hands recorded (played, penalties, misdeals)
    phase: str | None        # where the match stands ("choose_trump", ..., "over")
    end_reason: str | None = None  # once over: "target", "hands", "time", "abandoned"
    error: str | None = None # set when the match's events no longer fold
    variant: str = "pairs"   # or four_individual, three, two (kiosk.game.VariantMatch)

    def to_dict(self) -> dict:
        return asdict(self)


def encode(event: Any) -> tuple[str, dict]:
    """The event as stored (JSON text) and as applied (parsed back from that text), so the
    in-memory state is exactly the fold of what is on disk."""
    if not isinstance(event, dict) or not isinstance(event.get("type"), str):
        raise InvalidEvent(f"an event is a dict with a 'type': {event!r:.80}")
    try:
        data = json.dumps(event, ensure_ascii=False, allow_nan=False, sort_keys=True)
    except (TypeError, ValueError) as exc:
        raise InvalidEvent(f"event {event['type']!r} is not JSON: {exc}") from exc
    return data, json.loads(data)


def summary(match: Match | VariantMatch) -> dict:
    """What the match list shows of a match (kept with it, so listing folds nothing)."""
    pairs = match.variant == "pairs"  # other games have per-seat players and no pair names
    team_names = match.team_names if pairs else None
    return {
        "team_names": dict(team_names) if team_names else None,
        "players": list(match.players) if match.players else None,
        "totals": dict(match.totals) if isinstance(match.totals, dict) else list(match.totals),
        "winner": match.winner,
        "is_over": bool(match.is_over),
        "hands": len(match.hands),
        "phase": match.phase.value,
        "end_reason": match.end_reason,
        **({} if pairs else {"variant": match.variant}),
    }


def info(match_id: int, created_at: str, updated_at: str | None, summary: str | None) -> MatchInfo:
    s = json.loads(summary) if summary else {"error": "no summary"}
    return MatchInfo(
        id=match_id, created_at=created_at, updated_at=updated_at or created_at,
        team_names=s.get("team_names"), players=s.get("players"),
        totals=s.get("totals") or {"A": 0, "B": 0}, winner=s.get("winner"),
        is_over=bool(s.get("is_over")), hands=int(s.get("hands") or 0),
        phase=s.get("phase"), end_reason=s.get("end_reason"), error=s.get("error"),
        variant=s.get("variant", "pairs"))
