"""The match view-model: the journal, the current match and the step the table is on.

Every user action becomes an event that is appended to the journal (committed durably)
BEFORE the state the screens show changes. The screen to show is derived from the match
phase plus a draft (a hand being scored), so a restarted kiosk reopens where it was.
Plain Python: no Kivy here.
"""

from __future__ import annotations

import calendar
import enum
import random
import time
from dataclasses import dataclass
from typing import Any, Callable

from kiosk.game import BotifarraError, Suit
from kiosk.settings import Settings
from kiosk.ui.i18n import _
from kiosk.ui.viewmodels.drafts import DraftStore

# Screen names (the navigation contract; history/settings/diagnostics are hooks for later).
SCREENS: tuple[str, ...] = (
    "scoreboard", "new_match", "bidding", "score_camera", "score_cards", "score_points",
    "confirm", "penalty", "misdeal", "edit_hand", "match_won", "history", "settings", "diagnostics",
)
SCORE_STEPS = ("score_camera", "score_cards", "score_points")
BIDDING_PHASES = ("choose_trump", "delegated", "doubling")
TRUMPS = ("oros", "copes", "espases", "bastos", "botifarra")
LEVELS = ("contro", "recontro", "sant_vicenc")
PRESETS = ("reglament", "butinet", "girona", "torrefarrera", "regional_234")
TARGETS = (51, 73, 100, 101, 151, 200, 201)
DRAW_SUITS = (Suit.OROS, Suit.COPES, Suit.ESPASES, Suit.BASTOS)


def _get(obj: Any, name: str, default: Any = None) -> Any:
    if isinstance(obj, dict):
        return obj.get(name, default)
    return getattr(obj, name, default)


def _key(value: Any) -> Any:
    """Enum members as their JSON keys (Doubling.key, Trump.value); other values unchanged."""
    if value is None:
        return None
    key = getattr(value, "key", None)
    if isinstance(key, str):
        return key
    if isinstance(value, enum.Enum):
        return value.value
    return value


@dataclass(frozen=True)
class TeamBreakdown:
    """One pair's line on the confirmation: card points + tricks, over 36, x multiplier = scored."""
    team: str
    points: int | None
    card_points: int | None
    tricks: int | None
    over: int
    multiplier: int
    scored: int


class MatchViewModel:
    def __init__(self, journal, *, settings: Settings | None = None, drafts: DraftStore | None = None,
                 rng: random.Random | None = None, clock: Callable[[], float] = time.time) -> None:
        self.journal = journal
        self.clock = clock  # seconds since the epoch (the tournament time limit)
        self._started: tuple[Any, float | None] = (None, None)  # (match id, start time)
        self.settings = settings or Settings()
        self.drafts = drafts or DraftStore(None)
        self.rng = rng or random.Random()
        self.match_id: Any = None
        self.match = None
        self.draft: dict | None = None
        self._listeners: list[Callable[[], None]] = []
        self.resume()

    # ------------------------------------------------------------------ plumbing
    def bind(self, listener: Callable[[], None]) -> None:
        self._listeners.append(listener)

    def _changed(self) -> None:
        for listener in list(self._listeners):
            listener()

    def resume(self) -> None:
        """Reopen the journal's unfinished match (or the last one) and its draft, if any."""
        found = self.journal.current_match()
        self.match_id, self.match = None, None
        if found is not None:
            if isinstance(found, tuple):
                self.match_id, self.match = found
            elif hasattr(found, "apply"):
                self.match_id, self.match = getattr(found, "id", None), found
            else:
                self.match_id, self.match = found, self.journal.load(found)
        draft = self.drafts.load()
        self.draft = draft if self._draft_fits(draft) else None
        self._changed()

    def _draft_fits(self, draft: dict | None) -> bool:
        return bool(draft and self.match is not None and draft.get("match_id") == str(self.match_id)
                    and draft.get("events") == len(self.match.events))

    def _draft_data(self) -> dict:
        return {k: v for k, v in (self.draft or {}).items() if k not in ("match_id", "events", "step")}

    def _set_draft(self, step: str | None, **data: Any) -> None:
        data = {k: v for k, v in data.items() if k not in ("match_id", "events", "step")}
        if step is None:
            self.draft = None
        else:
            self.draft = {"match_id": str(self.match_id), "events": len(self.match.events),
                          "step": step, **data}
        self.drafts.save(self.draft)
        self._changed()

    def _append(self, event: dict) -> None:
        """Journal first (durable), then the state the screens read."""
        self.match = self.journal.append(self.match_id, event)
        self.draft = None
        self.drafts.save(None)
        self._changed()

    # ------------------------------------------------------------------ what screens show
    @property
    def has_match(self) -> bool:
        return self.match is not None

    @property
    def screen(self) -> str:
        if self.match is None:
            return "scoreboard"
        if self.draft:
            return self.draft["step"]
        if self.match.is_over:
            return "match_won"
        if self.match.phase in ("delegated", "doubling"):
            return "bidding"
        return "scoreboard"

    @property
    def phase(self) -> str | None:
        return self.match.phase if self.match is not None else None

    @property
    def team_names(self) -> dict[str, str]:
        names = dict(_get(self.match, "team_names", None) or {}) if self.match is not None else {}
        return {"A": names.get("A") or self.settings["match.team_a"],
                "B": names.get("B") or self.settings["match.team_b"]}

    @property
    def totals(self) -> dict[str, int]:
        if self.match is None:
            return {"A": 0, "B": 0}
        t = self.match.totals
        return {"A": int(t.get("A", 0)), "B": int(t.get("B", 0))}

    @property
    def target(self) -> int | None:
        return _get(self.match.rules, "target") if self.match is not None else None

    @property
    def progress(self) -> dict[str, float]:
        target = self.target or 0
        if not target:
            return {"A": 0.0, "B": 0.0}
        return {k: min(1.0, max(0.0, v / target)) for k, v in self.totals.items()}

    @property
    def winner(self) -> str | None:
        return self.match.winner if self.match is not None else None

    @property
    def hand_number(self) -> int:
        return len(self.match.hands) + 1 if self.match is not None else 1

    def player_name(self, seat: int) -> str:
        players = list(_get(self.match, "players", None) or []) if self.match is not None else []
        name = players[seat] if seat < len(players) else None
        return name or _("Seat {n}").format(n=seat + 1)

    @property
    def roles(self) -> dict[str, int]:
        """Seat of the dealer, shuffler, cutter and first lead of the hand in progress."""
        if self.match is None:
            return {}
        r = self.match.roles
        return {k: int(_get(r, k)) for k in ("dealer", "shuffler", "cutter", "first_lead")}

    @property
    def contract(self) -> dict:
        """The hand in progress: trump key, delegated, doubling key, multiplier, trump team."""
        c = self.match.contract if self.match is not None else None
        if c is None:
            return {"trump": None, "delegated": False, "doubling": "none", "multiplier": 1,
                    "trump_team": None}
        return {"trump": _key(_get(c, "trump")), "delegated": bool(_get(c, "delegated", False)),
                "doubling": _key(_get(c, "doubling")) or "none",
                "multiplier": int(_get(c, "multiplier", 1) or 1),
                "trump_team": _key(_get(c, "trump_team"))}

    @property
    def multiplier(self) -> int:
        return self.contract["multiplier"]

    def legal_bids(self) -> list[dict]:
        return list(self.match.legal_bids()) if self.match is not None and not self.match.is_over else []

    @property
    def legal_trumps(self) -> list[str]:
        return [b["trump"] for b in self.legal_bids() if b["type"] == "trump"]

    @property
    def can_delegate(self) -> bool:
        return any(b["type"] == "delegate" for b in self.legal_bids())

    @property
    def legal_levels(self) -> list[str]:
        levels = []
        for b in self.legal_bids():
            if b["type"] == "double" and b["level"] not in levels:
                levels.append(b["level"])
        return levels

    @property
    def can_play(self) -> bool:
        return any(b["type"] == "play" for b in self.legal_bids())

    @property
    def can_undo(self) -> bool:
        return bool(self.match is not None and self.match.can_undo)

    @property
    def sheet(self) -> list[dict]:
        """One row per hand, like the paper score sheet."""
        return sheet_of(self.match) if self.match is not None else []

    # ------------------------------------------------------------------ tournament time limit
    @property
    def time_limit_min(self) -> int | None:
        """The match's time limit in minutes (butinet, torrefarrera), or None."""
        if self.match is None or self.match.is_over:
            return None
        return _get(self.match.rules, "time_limit_min") or None

    @property
    def started_at(self) -> float | None:
        """When the match was created (seconds since the epoch), from the journal's record of
        the match_created event: the clock survives a restart or a power cut."""
        if self.match_id is None:
            return None
        if self._started[0] != self.match_id:
            stamp = next((i.created_at for i in self.journal.matches() if i.id == self.match_id), None)
            at = None
            if stamp:
                try:
                    at = float(calendar.timegm(time.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ")))
                except ValueError:
                    at = None
            self._started = (self.match_id, at)
        return self._started[1]

    @property
    def time_left(self) -> float | None:
        """Seconds left on the tournament clock (0 when it has run out); None without a limit."""
        limit, start = self.time_limit_min, self.started_at
        if not limit or start is None:
            return None
        return max(0.0, start + limit * 60 - self.clock())

    @property
    def time_up(self) -> bool:
        """Time has been called: the hand in progress is the last one."""
        return bool(self.match is not None and not self.match.is_over and self.match.time_up)

    @property
    def can_call_time(self) -> bool:
        return bool(self.match is not None and "time_up" in self.match.available_events())

    def check_time(self) -> bool:
        """Called every second: when the clock has run out, journal ``time_up`` (once: if it
        was undone, the organiser calls time by hand). Returns True when it was appended."""
        left = self.time_left
        if left is None or left > 0 or not self.can_call_time:
            return False
        if any(e.get("type") == "time_up" for e in self.match.events):
            return False
        self.call_time()
        return True

    def call_time(self) -> None:
        """The organiser calls time (or the clock ran out): the hand in progress is the last.
        A hand being scored stays open (its draft moves on with the match)."""
        draft = self._draft_data() if self.draft else None
        step = self.draft["step"] if self.draft else None
        self.match = self.journal.append(self.match_id, {"type": "time_up"})
        if step is None:
            self.draft = None
            self.drafts.save(None)
            self._changed()
        else:
            self._set_draft(step, **draft)

    # ------------------------------------------------------------------ new match
    def draw_first_dealer(self) -> tuple[Suit, int]:
        """The on-screen suit draw: seat n holds DRAW_SUITS[n]; a card is turned; that seat deals."""
        from kiosk.game import first_dealer_by_draw
        suit = self.rng.choice(DRAW_SUITS)
        return suit, first_dealer_by_draw(suit, assignment={s: i for i, s in enumerate(DRAW_SUITS)})

    def new_match(self, *, team_names: dict[str, str] | None = None, players: list | None = None,
                  preset: str = "reglament", target: int | None = None, first_dealer: int = 0) -> None:
        from kiosk.game import Rules  # the core's rules table validates preset + target
        rules = {"preset": preset}
        if target is not None:
            rules["target"] = int(target)
        rules = Rules.from_dict(rules).to_dict()
        names = {"A": (team_names or {}).get("A") or self.settings["match.team_a"],
                 "B": (team_names or {}).get("B") or self.settings["match.team_b"]}
        players = [(p or None) for p in (players or [None] * 4)]
        event = {"type": "match_created", "rules": rules, "first_dealer": int(first_dealer),
                 "players": players, "team_names": names}
        self.match_id = self.journal.create_match(event)
        self.match = self.journal.load(self.match_id)
        self.draft = None
        self.drafts.save(None)
        self._changed()

    def next_match(self) -> None:
        """A new match with the same pairs and rules; the dealing continues by the rules."""
        m = self.match
        rules = m.rules.to_dict() if hasattr(m.rules, "to_dict") else dict(m.rules)
        event = {"type": "match_created", "rules": rules, "first_dealer": int(m.dealer) % 4,
                 "players": list(_get(m, "players", None) or [None] * 4), "team_names": self.team_names}
        self.match_id = self.journal.create_match(event)
        self.match = self.journal.load(self.match_id)
        self._set_draft(None)

    # ------------------------------------------------------------------ bidding
    def _bid(self, kind: str, **match: Any) -> None:
        for b in self.legal_bids():
            if b["type"] == kind and all(b.get(k) == v for k, v in match.items()):
                self._append(dict(b))
                return
        from kiosk.game import IllegalBidError
        raise IllegalBidError(_("That is not allowed now"))

    def choose_trump(self, trump: str) -> None:
        self._bid("trump", trump=trump)

    def delegate(self) -> None:
        self._bid("delegate")

    def double(self, level: str) -> None:
        self._bid("double", level=level)

    def start_play(self) -> None:
        self._bid("play")

    # ------------------------------------------------------------------ scoring
    def begin_score(self, method: str, **data: Any) -> None:
        """Open a score path (camera / cards / points); remembered across a restart."""
        if self.phase in BIDDING_PHASES and self.can_play:
            self.start_play()
        self._set_draft(f"score_{method}", **data)

    def update_draft(self, **data: Any) -> None:
        """Keep what has been entered so far (tapped cards, typed digits)."""
        if self.draft:
            self._set_draft(self.draft["step"], **{**self._draft_data(), **data})

    def propose(self, event: dict) -> None:
        """A hand result, penalty or misdeal to confirm: checked by the core now, saved on confirm."""
        self.match.apply(event)  # raises the core's error if impossible
        step = {"penalty": "penalty", "misdeal": "misdeal"}.get(event["type"], "confirm")
        back = self.draft["step"] if self.draft else None
        keep = {k: v for k, v in (self.draft or {}).items()
                if k not in ("match_id", "events", "step", "event", "back", "confirmed")}
        self._set_draft(step, event=event, back=back, confirmed=[], **keep)

    @property
    def pending(self) -> dict | None:
        return self.draft.get("event") if self.draft else None

    @property
    def pending_hand(self):
        event = self.pending
        if event is None:
            return None
        return self.match.apply(event).hands[-1]

    def breakdown(self) -> list[TeamBreakdown]:
        """The confirmation: for each pair card points + tricks, over 36, x multiplier = scored."""
        h = self.pending_hand
        if h is None:
            return []
        mult = int(_get(h, "multiplier", 1) or 1)
        points = _get(h, "points") or {}
        cps = _get(h, "card_points") or {}
        tricks = _get(h, "tricks") or {}
        scored = _get(h, "scored") or {}
        out = []
        for team in ("A", "B"):
            p = points.get(team) if isinstance(points, dict) else None
            cp = cps.get(team) if isinstance(cps, dict) else None
            tr = tricks.get(team) if isinstance(tricks, dict) else None
            out.append(TeamBreakdown(team, p, cp, tr, max(0, (p or 0) - 36), mult,
                                     int(scored.get(team, 0))))
        return out

    @property
    def needs_both(self) -> bool:
        return bool(self.settings["match.both_confirm"]) and (self.pending or {}).get("type") == "hand_scored"

    @property
    def confirmed_by(self) -> list[str]:
        return list(self.draft.get("confirmed", [])) if self.draft else []

    def confirm(self, team: str | None = None) -> bool:
        """Save the pending result. With the both-pairs setting each pair confirms once;
        returns True when it was saved."""
        if self.pending is None:
            return False
        if self.needs_both:
            confirmed = set(self.confirmed_by) | ({team} if team else set())
            if confirmed != {"A", "B"}:
                self._set_draft(self.draft["step"], **{**self._draft_data(), "confirmed": sorted(confirmed)})
                return False
        self._append(self.pending)
        return True

    def cancel(self) -> None:
        """Leave the current step: from a confirmation back to where it came from."""
        back = self.draft.get("back") if self.draft else None
        if self.draft and back and self.draft["step"] in ("confirm", "penalty", "misdeal"):
            keep = {k: v for k, v in self.draft.items()
                    if k not in ("match_id", "events", "step", "event", "back", "confirmed")}
            self._set_draft(back, **keep)
        else:
            self._set_draft(None)

    def penalty(self, offender: str) -> None:
        self.propose({"type": "penalty", "offender": offender})

    def misdeal(self) -> None:
        self.propose({"type": "misdeal"})

    def begin_action(self, step: str, **data: Any) -> None:
        """Open the penalty, misdeal or edit step (remembered across a restart)."""
        self._set_draft(step, **data)

    # ------------------------------------------------------------------ undo / edit
    def undo(self) -> None:
        if self.draft:
            self.cancel()
            return
        if not self.can_undo:
            from kiosk.game import MatchStateError
            raise MatchStateError(_("Nothing to undo"))
        self._append({"type": "undo"})

    def hand_data(self, index: int) -> dict:
        """A past hand in the match JSON form (what an edit replaces)."""
        row = self.sheet[index]
        if row["kind"] == "misdeal":
            return {"misdeal": True}
        data = {"trump": row["trump"], "delegated": row["delegated"], "doubling": row["doubling"]}
        if row["kind"] == "penalty":
            data["penalty"] = row["offender"] or next(
                (t for t in ("A", "B") if not row["scored"].get(t)), "A")
        else:
            team = row["trump_team"] or "A"
            data["points"] = {team: row["points"].get(team, 0)}
        return data

    def edit_hand(self, index: int, data: dict) -> None:
        """Replace past hand ``index`` with ``data`` (match JSON form). A hand that stays a
        played hand keeps the photo the camera took of it (its ``evidence``); the core marks
        the typed correction's ``source``."""
        played = not data.get("misdeal") and "penalty" not in data
        if played and "evidence" not in data and self.match is not None \
                and 0 <= int(index) < len(self.match.hands):
            evidence = _get(self.match.hands[int(index)], "evidence")
            if evidence:
                data = {**data, "evidence": evidence}
        self._append({"type": "edit", "hand": int(index), "data": data})

    def end_match(self) -> None:
        self._append({"type": "match_ended", "reason": "abandoned"})


__all__ = ["MatchViewModel", "SCREENS", "TeamBreakdown", "BotifarraError"]


def sheet_of(match) -> list[dict]:
    """One row per hand of ``match``, like the paper score sheet (scoreboard, match won,
    history all show these rows)."""
    return [{
        "number": int(_get(h, "number")), "dealer": _get(h, "dealer"),
        "kind": _get(h, "kind"), "trump": _key(_get(h, "trump")),
        "trump_team": _key(_get(h, "trump_team")),
        "delegated": bool(_get(h, "delegated", False)),
        "doubling": _key(_get(h, "doubling")) or "none",
        "multiplier": int(_get(h, "multiplier", 1) or 1),
        "points": dict(_get(h, "points") or {}), "scored": dict(_get(h, "scored") or {}),
        "totals": dict(_get(h, "totals") or {}), "source": _get(h, "source"),
        "offender": _get(h, "offender"),
    } for h in match.hands]
