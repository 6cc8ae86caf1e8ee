"""The evidence photo of a hand read by the camera: which hand the table is looking at
(the one being confirmed, or the past hand being edited), whether its photo can be shown,
and the caption under it. Plain Python: no Kivy."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from kiosk.game import HandRecord
from kiosk.table import Step
from kiosk.ui.i18n import _, points_text, tally

JPEG_START = b"\xff\xd8"


@dataclass(frozen=True)
class HandEvidence:
    """One hand's photo and what was counted from it."""

    number: int                              # the hand's number (1-based)
    path: str                                # where the photo was saved
    team: str | None = None                  # the pair whose pile the camera read
    cards: int = 0
    card_points: int | None = None
    tricks: int | None = None
    points: int | None = None

    @property
    def problem(self) -> str | None:
        """Why the photo cannot be shown (None: it can)."""
        return photo_problem(self.path)

    @property
    def viewable(self) -> bool:
        return self.problem is None

    def caption(self, team_names: dict[str, str]) -> str:
        who = team_names.get(self.team, self.team or "") if self.team else ""
        head = _("Hand {n}: the camera read {team}'s pile").format(n=self.number, team=who) if who \
            else _("Hand {n}: read by the camera").format(n=self.number)
        if self.card_points is not None and self.tricks is not None:
            counted = tally(cards=self.cards, card_points=self.card_points, tricks=self.tricks, total=self.points)
        elif self.points is not None:
            counted = points_text(self.points)
        else:
            counted = ""
        return f"{head}\n{counted}" if counted else head


def photo_problem(path: str | Path | None) -> str | None:
    """A clear message when the file is gone or is not a photo; None when it looks readable.
    (Only the first bytes are read: the full decode happens off the UI thread.)"""
    if not path:
        return _("This hand has no photo")
    p = Path(path)
    try:
        if not p.is_file():
            return _("The photo of this hand is no longer on the kiosk")
        with p.open("rb") as f:
            head = f.read(8)
    except OSError:
        return _("The photo of this hand cannot be read")
    if len(head) < 4 or not (head.startswith(JPEG_START) or head.startswith(b"\x89PNG")):
        return _("The photo of this hand is damaged and cannot be shown")
    return None


def from_hand(hand: HandRecord) -> HandEvidence | None:
    """A hand with a photo → its evidence; else None."""
    if not hand.evidence:
        return None
    piles = hand.piles or {}
    team = next(iter(piles), None)
    cps, tricks, points = hand.card_points or {}, hand.tricks or {}, hand.points or {}
    return HandEvidence(
        number=int(hand.number or 0), path=str(hand.evidence), team=team,
        cards=len(piles.get(team, ())) if team else 0,
        card_points=cps.get(team) if team else None, tricks=tricks.get(team) if team else None,
        points=points.get(team) if team else None)


def current_evidence(session) -> HandEvidence | None:
    """The evidence of the hand the table is looking at in ``session`` (a ``TableSession``):
    the proposed hand on the confirmation, the past hand on the edit step; else None."""
    state = session.state
    draft = state.draft
    if draft is None:
        return None
    if draft.step is Step.CONFIRM and state.pending is not None and state.pending.result.evidence \
            and state.pending.hand is not None:
        return from_hand(state.pending.hand)
    if draft.step is Step.EDIT_HAND and draft.hand is not None and session.match is not None:
        hands = session.match.hands
        if 0 <= draft.hand < len(hands):
            return from_hand(hands[draft.hand])
    return None
