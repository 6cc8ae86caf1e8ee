"""A whole hand played under an overhead camera (issue 23): where every card and hand is,
when (the plan, cheap, known at once); tests/overhead/frames.py renders it.

Four players around the table, seats 0-3 in playing order going round it (seat 0 nearest
the bottom of the table, then right, top, left). Each card comes in the player's hand from
his own side, is laid sloppily near his seat's place (a few centimetres off, turned, now
and then pushed against the neighbour's card) and the hand goes back; the next player's
hand may already be on its way. When the fourth card lies, the players look for a moment,
then the winner's hand reaches in and sweeps the trick off towards his side.

The plays come from tests/game/handgen.py (legal hands, or with one forbidden card: an
injected renunci), so the hand check's answer for them is known.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

import numpy as np

from kiosk.game.handcheck import check_hand, read_played_hand
from tests.game.handgen import deal_and_play

PLAN_VERSION = 1  # part of the rendered frames' cache key: bump when a plan changes
PLACE_MM = 130.0  # from the table's middle to each seat's place
SEAT_DEG = (90.0, 0.0, 270.0, 180.0)  # direction of each seat's side (table mm: x right, y down)
REACH_MM = 430.0  # where a hand comes from (out of the frame at 70-100 cm)
CARD_W_MM, CARD_H_MM = 61.0, 95.0


@dataclass(frozen=True)
class Played:
    """One card of the hand: laid at ``lands_s`` (the hand still over it), lying still with
    no hand over its seat from ``still_s``, swept off at ``gone_s``."""

    trick: int
    seat: int
    code: str
    place: np.ndarray  # card mm -> table mm (3x3)
    lands_s: float
    still_s: float
    gone_s: float
    touching: bool = False  # pushed against the neighbour's card


@dataclass(frozen=True)
class Reach:
    """A hand's move: from ``from_mm`` off its side to ``tip_mm`` and back."""

    seat: int
    tip_mm: np.ndarray
    t0: float
    t_in: float  # the fingertips at tip_mm
    t_out: float  # gone again
    carries: tuple[int, ...] = ()  # indexes of plays it carries in (a lay) ...
    sweeps: tuple[int, ...] = ()  # ... or sweeps out (the winner taking the trick)


@dataclass
class HandPlan:
    seed: int
    doc: dict  # the played hand as ``hand check`` reads it
    injected: tuple[int, int, str] | None  # (trick, seat, card) of the forbidden card
    plays: list[Played]
    reaches: list[Reach]
    duration_s: float
    extras: dict = field(default_factory=dict)

    @property
    def check(self) -> dict:
        """``hand check``'s answer for the true plays."""
        return check_hand(read_played_hand(self.doc)).to_json()


def seat_dir(seat: int) -> np.ndarray:
    a = math.radians(SEAT_DEG[seat])
    return np.array([math.cos(a), math.sin(a)])


def seat_place_mm(seat: int) -> np.ndarray:
    return seat_dir(seat) * PLACE_MM


def _move(x: float, y: float) -> np.ndarray:
    return np.array([[1, 0, x], [0, 1, y], [0, 0, 1]], np.float64)


def _rot(deg: float) -> np.ndarray:
    a = math.radians(deg)
    return np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]], np.float64)


def card_place(centre: np.ndarray, turn_deg: float) -> np.ndarray:
    return _move(*centre) @ _rot(turn_deg) @ _move(-CARD_W_MM / 2, -CARD_H_MM / 2)


def plan_hand(seed: int, *, renunci: bool = False, tricks: int = 12, touch_share: float = 0.15) -> HandPlan:
    """The first ``tricks`` tricks of a hand (12: the whole hand), with one forbidden card
    when ``renunci`` (``injected`` says where, None when it falls after ``tricks``)."""
    drawn = deal_and_play(random.Random(seed), renunci=renunci)
    doc = dict(drawn.doc, tricks=drawn.doc["tricks"][:tricks])
    rng = np.random.default_rng([seed, 23])
    plays: list[Played] = []
    reaches: list[Reach] = []
    winners = check_hand(read_played_hand(doc)).winners
    lead = doc["first_lead"]
    t = 0.3
    for n, trick in enumerate(doc["tricks"], start=1):
        first = len(plays)
        for i, code in enumerate(trick):
            seat = (lead + i) % 4
            centre = seat_place_mm(seat) + rng.uniform(-22, 22, 2)
            touching = bool(rng.random() < touch_share)
            if touching:  # slid against the previous player's card
                before = plays[-1] if i else None
                to = (before.place[:2, 2] if before is not None else seat_place_mm((seat + 3) % 4)) - centre
                centre = centre + to / np.linalg.norm(to) * rng.uniform(38, 50)
            turn = SEAT_DEG[seat] - 90 + rng.normal(0, 12) + (90 if rng.random() < 0.2 else 0)
            t_in = t + rng.uniform(0.3, 0.45)
            t_out = t_in + rng.uniform(0.25, 0.35)
            reaches.append(Reach(seat, centre + seat_dir(seat) * 20, t, t_in, t_out, carries=(len(plays),)))
            plays.append(Played(n, seat, code, card_place(centre, turn), t_in, t_out, 0.0, touching))
            t = t_in + rng.uniform(0.1, 0.5)  # the next hand sets off as this one lets go
        t = plays[-1].still_s + rng.uniform(0.5, 1.1)  # the table looks at the trick
        winner = winners[n - 1] if n - 1 < len(winners) else lead
        t_in = t + rng.uniform(0.3, 0.4)
        t_out = t_in + rng.uniform(0.4, 0.55)
        reaches.append(Reach(winner, seat_dir(winner) * -40.0, t, t_in, t_out,
                             sweeps=tuple(range(first, len(plays)))))
        for k in range(first, len(plays)):
            plays[k] = Played(**{**plays[k].__dict__, "gone_s": t_in})
        lead = winner
        t = t_out + rng.uniform(0.1, 0.4)
    injected = drawn.renunci if drawn.renunci is not None and drawn.renunci[0] <= tricks else None
    return HandPlan(seed, doc, injected, plays, reaches, t + 0.5)


def reach_at(reach: Reach, t: float) -> np.ndarray | None:
    """Where the reach's fingertips are at ``t`` (table mm), None outside it."""
    if not reach.t0 <= t < reach.t_out:
        return None
    out = reach.tip_mm + seat_dir(reach.seat) * REACH_MM
    if reach.sweeps:
        out = seat_dir(reach.seat) * REACH_MM
    if t < reach.t_in:
        u = (t - reach.t0) / (reach.t_in - reach.t0)
        e = 1 - (1 - u) ** 2
        return out + (reach.tip_mm - out) * e
    v = (t - reach.t_in) / (reach.t_out - reach.t_in)
    return reach.tip_mm + (out - reach.tip_mm) * v * v


def lying_at(plan: HandPlan, t: float) -> dict[int, str]:
    """The ground truth at ``t``: seat -> the card lying still there (no hand over it)."""
    out = {}
    for p in plan.plays:
        if p.still_s <= t < p.gone_s:
            out[p.seat] = p.code
    return out
