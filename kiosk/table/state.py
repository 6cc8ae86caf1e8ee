"""What the table is showing, as frozen typed values: the session hands these to every face.

``TableState`` is built once per change of the session (an event committed, a draft
edited) and never mutated, so a screen may keep it and compare it with the next one.
Game words as in the glossary (trump, pile, contro...); no Kivy, no I/O.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import Any

from kiosk.game import Bid, BidKind, Doubling, HandRecord, HandResult, Phase
from kiosk.table.memory import NewMatchForm
from kiosk.table.seatstate import SeatGame


class Step(enum.StrEnum):
    """The screen the table is to be on (the App shows the one of the same name)."""

    SCOREBOARD = "scoreboard"
    NEW_MATCH = "new_match"
    BIDDING = "bidding"
    SCORE_CAMERA = "score_camera"
    SCORE_CARDS = "score_cards"
    SCORE_POINTS = "score_points"
    CONFIRM = "confirm"
    PENALTY = "penalty"
    MISDEAL = "misdeal"
    EDIT_HAND = "edit_hand"
    MATCH_WON = "match_won"
    TRICKS = "tricks"  # trick mode: the hand in play, card by card
    # a game without pairs (kiosk.table.variants)
    VARIANT_BOARD = "variant_board"
    VARIANT_POINTS = "variant_points"
    VARIANT_CARDS = "variant_cards"
    VARIANT_CONFIRM = "variant_confirm"
    VARIANT_WON = "variant_won"
    VARIANT_EDIT = "variant_edit"
    VARIANT_CAMERA = "variant_camera"


SCORE_STEPS = (Step.SCORE_CAMERA, Step.SCORE_CARDS, Step.SCORE_POINTS)
ACTION_STEPS = (Step.CONFIRM, Step.PENALTY, Step.MISDEAL)
# the steps a draft can be on; "scoreboard": a finished match's sheet looked at after the match won
STEPS = SCORE_STEPS + ACTION_STEPS + (Step.EDIT_HAND, Step.SCOREBOARD)


def key_of(value: Any) -> Any:
    """Enum members as their JSON keys (``Doubling.key``, ``Trump.value``)."""
    if isinstance(value, Doubling):
        return value.key
    if isinstance(value, enum.Enum):
        return value.value
    return value


@dataclass(frozen=True)
class Draft:
    """A step that is not (yet) an event: a hand being scored, a result to confirm, a past
    hand being edited. Kept on disk next to the journal so a power cut reopens it, and kept
    on screen when a save fails so nothing typed is lost.

    ``result`` is the hand's result waiting for confirmation (kept on disk as its journal
    event); ``back`` the step to return to from the confirmation.
    """
    step: Step
    team: str = "A"
    pile_owner_chosen: bool = False
    cards: tuple[str, ...] = ()
    other: tuple[str, ...] = ()
    digits: str = ""
    source: str | None = None
    evidence: str | None = None
    hand: int | None = None
    result: HandResult | None = None
    back: Step | None = None
    confirmed: tuple[str, ...] = ()
    edit: dict | None = None  # a past hand as being edited (``hand_data``'s form), not saved yet
    seat_points: tuple[str, ...] = ()  # a game without pairs: the digits typed for each seat
    seat: int = 0  # ... and the seat the keypad types for (or whose pile is being tapped)
    piles: tuple[tuple[str, ...], ...] = ()  # a game without pairs: the cards tapped, by seat

    def but(self, **changes: Any) -> "Draft":
        for name in ("cards", "other", "confirmed", "seat_points"):
            if name in changes and changes[name] is not None:
                changes[name] = tuple(changes[name])
        if changes.get("piles") is not None:
            changes["piles"] = tuple(tuple(p) for p in changes["piles"])
        return replace(self, **changes)

    def to_json(self) -> dict:
        return {"step": self.step, "team": self.team, "pile_owner_chosen": self.pile_owner_chosen,
                "cards": list(self.cards), "other": list(self.other), "digits": self.digits,
                "source": self.source, "evidence": self.evidence, "hand": self.hand,
                "event": self.result.event if self.result else None, "back": self.back,
                "confirmed": list(self.confirmed), "edit": self.edit,
                "seat_points": list(self.seat_points), "seat": self.seat,
                "piles": [list(p) for p in self.piles]}

    @classmethod
    def from_json(cls, data: dict) -> "Draft | None":
        """A stored draft, or None if it is not one of ours (an older or damaged file)."""
        try:
            step = Step(data["step"])
            if step not in STEPS:
                return None
            hand = data.get("hand")
            event = data.get("event")
            return cls(step=step, team=data.get("team") if data.get("team") in ("A", "B") else "A",
                       pile_owner_chosen=bool(data.get("pile_owner_chosen", False)),
                       cards=tuple(str(c) for c in data.get("cards") or ()),
                       other=tuple(str(c) for c in data.get("other") or ()),
                       digits="".join(ch for ch in str(data.get("digits") or "") if ch in "0123456789"),
                       source=data.get("source"), evidence=data.get("evidence"),
                       hand=int(hand) if hand is not None else None,
                       result=HandResult.from_event(event) if isinstance(event, dict) else None,
                       back=Step(data["back"]) if data.get("back") in STEPS else None,
                       confirmed=tuple(t for t in data.get("confirmed") or () if t in ("A", "B")),
                       edit=dict(data["edit"]) if isinstance(data.get("edit"), dict) else None,
                       seat_points=tuple("".join(ch for ch in str(d) if ch in "0123456789")
                                         for d in data.get("seat_points") or ()),
                       seat=int(data.get("seat") or 0),
                       piles=tuple(tuple(str(c) for c in p) for p in data.get("piles") or ()))
        except (KeyError, TypeError, ValueError, AttributeError):
            return None


@dataclass(frozen=True)
class Contract:
    """The hand in progress: trump (key or None), delegated, doubling key, multiplier."""
    trump: str | None = None
    delegated: bool = False
    doubling: str = "none"
    multiplier: int = 1
    trump_team: str | None = None


@dataclass(frozen=True)
class Bids:
    """What may be bid now (the core's ``Match.bids()``, asked once per change): the trump
    and doubling keys to offer, and the bids themselves."""
    trumps: tuple[str, ...] = ()
    can_delegate: bool = False
    levels: tuple[str, ...] = ()
    can_play: bool = False
    events: tuple[Bid, ...] = ()

    def find(self, kind: BidKind, **named: str | int) -> Bid | None:
        """The first bid of ``kind`` allowed now that names these keys (``trump="oros"``,
        ``level="contro"``), or None."""
        for bid in self.events:
            keys = {"trump": bid.trump.value if bid.trump else None,
                    "level": bid.level.key if bid.level else None, "seat": bid.seat}
            if bid.kind is kind and all(keys.get(k) == v for k, v in named.items()):
                return bid
        return None


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


@dataclass(frozen=True)
class PendingHand:
    """The result waiting on the confirmation, computed once when it was proposed."""
    result: HandResult
    breakdown: tuple[TeamBreakdown, ...]
    totals_after: dict
    hand: HandRecord | None  # the hand as it would be saved (None if the result adds none)
    match_over_after: bool = False


@dataclass(frozen=True)
class HandRow:
    """One hand as on the paper score sheet (scoreboard, match won, History, the PDF):
    ``kind`` is "played", "penalty" or "misdeal"; ``points`` what each pair's pile made,
    ``scored`` what it scored, ``totals`` the running totals after this hand."""
    number: int
    dealer: int
    kind: str
    trump: str | None
    trump_team: str | None
    delegated: bool
    doubling: str
    multiplier: int
    points: dict[str, int]
    scored: dict[str, int]
    totals: dict[str, int]
    source: str | None
    offender: str | None


@dataclass(frozen=True)
class Undone:
    """What the last undo took back, to show ("Desfet: mà 3, +36 Nosaltres") and to redo."""
    kind: str            # "hand" (a scored or penalty hand), "misdeal", "bid", "other"
    hand_number: int | None
    scored: dict = field(default_factory=dict)  # {"A": 36, "B": 0} for a hand


@dataclass(frozen=True)
class SaveResult:
    """What became of an action: ``saved`` only when the journal's commit returned.
    ``error`` is the journal's own exception when the disk refused the write."""
    saved: bool
    error: BaseException | None = None

    @property
    def failed(self) -> bool:
        return self.error is not None


@dataclass(frozen=True)
class TableState:
    """Everything a face shows about the table, frozen. ``step`` is the screen to be on."""
    step: Step
    has_match: bool = False
    match_id: int | None = None
    phase: Phase | None = None
    is_over: bool = False
    winner: str | None = None
    team_names: dict = field(default_factory=lambda: {"A": "", "B": ""})
    players: tuple = (None, None, None, None)
    totals: dict = field(default_factory=lambda: {"A": 0, "B": 0})
    target: int | None = None
    max_hands: int | None = None
    hand_number: int = 1
    roles: dict = field(default_factory=dict)
    contract: Contract = Contract()
    bids: Bids = Bids()
    can_undo: bool = False
    can_redo: bool = False
    draft: Draft | None = None
    pending: PendingHand | None = None
    needs_both: bool = False
    last_undone: Undone | None = None
    last_save: SaveResult = SaveResult(True)
    events: int = 0
    new_match: NewMatchForm | None = None  # the new match's form being filled in
    tricks: Any = None  # trick mode: the hand in play (kiosk.table.tricks.TrickView) or None
    game: SeatGame | None = None  # a game without pairs: one total per seat (kiosk.table.variants)

    @property
    def pile_owner_chosen(self) -> bool:
        """The table said whose pile is being scored (until then no pair is lit)."""
        return self.draft is not None and self.draft.pile_owner_chosen

    @property
    def progress(self) -> dict:
        if not self.target:
            return {"A": 0.0, "B": 0.0}
        return {k: min(1.0, max(0.0, v / self.target)) for k, v in self.totals.items()}
