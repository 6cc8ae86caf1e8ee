"""A player counting a pile by dealing it face up, one card at a time (issue 11), and the
photos a deck is learnt from. Ordinary cards: no stickers.

``deal(seed, ...)`` gives a :class:`Deal`: its ``truth`` (the order dealt, when each card
lies still with no hand in view) is known at once; ``frames()`` renders the video frames
in time order on demand (one 720p frame is a few tenths of a second of CPU), so a long
sequence never sits in memory.

One card's cycle (``period_s``, about a second): the hand comes in from the dealer's side
holding the card (both smeared by their motion), lays it on the pile and covers it, leaves,
then the pile lies still until the next hand comes.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Iterator

import cv2
import numpy as np

from kiosk.game import DECK, Card
from tests.realcam import camera, light as lightmod, props
from tests.realcam.deck import STYLES
from tests.realcam.render import (HAND_ID, Item, Shot, ShotMeta, card_item, draw_exposure, draw_pose, mat_item,
                                  render, shoot, texture_ppm)

HAND_PPM = 3.0
SKIN = (120, 160, 215)
SLEEVE = (90, 60, 50)


@dataclass(frozen=True)
class DealtCard:
    code: str
    lands_s: float  # laid on the pile (the hand still over it)
    still_s: float  # from here it lies still with no hand in view ...
    until_s: float  # ... until the next hand comes into view (end of sequence: the last frame)
    together_with: str | None = None  # dealt at once with another card (the reader should ask)


@dataclass(frozen=True)
class DealFrame:
    t_s: float
    image: np.ndarray  # BGR uint8 after JPEG
    jpeg: bytes
    hand_in_view: bool
    moving: bool  # a card or a hand is moving in this frame


@dataclass
class Deal:
    """A dealing sequence: ``truth`` now, ``frames()`` rendered on demand."""

    seed: int
    mode: str
    fps: float
    deck_style: str
    lighting: str
    truth: list[DealtCard]
    duration_s: float
    _plan: dict = dataclasses.field(repr=False, default_factory=dict)

    @property
    def order(self) -> list[str]:
        return [c.code for c in self.truth]

    def __len__(self) -> int:
        return int(math.floor(self.duration_s * self.fps)) + 1

    def frames(self) -> Iterator[DealFrame]:
        """Every frame in time order (deterministic)."""
        cache: dict = {}
        for n in range(len(self)):
            yield self._frame(n / self.fps, n, cache)

    def _frame(self, t: float, n: int, cache: dict) -> DealFrame:
        p = self._plan
        rng = np.random.default_rng([self.seed, 7, n])
        items: list[Item] = [p["mat"]]
        moving: list[Item] = []
        hand_poly = None
        motion = (0.0, 0.0)
        for k, step in enumerate(p["steps"]):
            t0, t_land, t_gone = step["t0"], step["t_land"], step["t_gone"]
            if t < t0:
                break
            if t >= t_land:
                items.extend(step["items"])  # lies on the pile
            else:  # in the hand, on its way: ease in, from off the frame to the pile
                u = (t - t0) / (t_land - t0)
                e = 1 - (1 - u) ** 2
                du = 1 / self.fps / (t_land - t0)
                off = step["from_mm"] * (1 - e)
                off_prev = step["from_mm"] * (1 - (1 - (1 - max(u - du, 0)) ** 2))
                for it in step["items"]:
                    moving.append(dataclasses.replace(it, place=props.move(*off) @ it.place, moving=True))
                hand_poly = lightmod.hand_polygon(tuple(step["grip_mm"] + off), step["arm_deg"], step["hand_scale"])
                motion_mm = off - off_prev
                motion = _px(p, step["grip_mm"], motion_mm * 0.5)  # the shutter is open half the frame time
            if t_land <= t < t_gone:  # the hand lets go and leaves the way it came
                v = (t - t_land) / (t_gone - t_land)
                off = step["from_mm"] * v * v
                hand_poly = lightmod.hand_polygon(tuple(step["grip_mm"] + off), step["arm_deg"], step["hand_scale"])
                motion = _px(p, step["grip_mm"], step["from_mm"] * (2 * v / (t_gone - t_land) / self.fps) * 0.5)
        static = len(items)
        items.extend(moving)
        lighting = p["lighting"]
        if hand_poly is not None:
            items.append(_hand_item(hand_poly))
            # the hand's own shadow, a little off towards the far side from the lamp
            shift = (np.array(hand_poly.mean(0)) - np.array(lighting.lamp_xy_mm)) * 0.08
            lighting = dataclasses.replace(lighting, shadows=lighting.shadows + (hand_poly + shift.astype(np.float32),))
        image, jpeg, _ = shoot(items, mode=self.mode, pose=p["pose"], lighting=lighting, exposure=p["exposure"],
                               rng=rng, table_seed=self.seed, motion=motion, static=static, cache=cache)
        return DealFrame(t, image, jpeg, hand_poly is not None, hand_poly is not None)


def _px(plan: dict, at_mm, d_mm) -> tuple[float, float]:
    """A small move on the table (mm) as seen in the render (px)."""
    a = np.float32([[at_mm, np.asarray(at_mm) + d_mm]])
    b = cv2.perspectiveTransform(a, plan["hm"])[0]
    return float(b[1, 0] - b[0, 0]), float(b[1, 1] - b[0, 1])


def _hand_item(poly_mm: np.ndarray) -> Item:
    x0, y0 = poly_mm.min(0) - 2
    x1, y1 = poly_mm.max(0) + 2
    w, h = int((x1 - x0) * HAND_PPM) + 1, int((y1 - y0) * HAND_PPM) + 1
    alpha = np.zeros((h, w), np.uint8)
    pts = np.round((poly_mm - (x0, y0)) * HAND_PPM * 16).astype(np.int32)
    cv2.fillPoly(alpha, [pts], 255, cv2.LINE_AA, 4)
    tex = np.empty((h, w, 3), np.uint8)
    tex[:] = SKIN
    # the sleeve: the part of the arm far from the fingers
    tip = poly_mm[12]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32) / HAND_PPM
    far = np.hypot(xx + x0 - tip[0], yy + y0 - tip[1]) > 150
    tex[far] = SLEEVE
    return Item(tex, alpha, HAND_PPM, props.move(x0, y0), HAND_ID, 0.3, moving=True)


def deal(seed: int, *, mode: str = "720p", deck_style: str = "fournier", cards: int | list[str] = 24,
         lighting: str = "bar", fps: float = 10.0, height_cm: float | None = None,
         period_s: float = 1.0, doubles: tuple[int, ...] = ()) -> Deal:
    """A player dealing ``cards`` (how many, drawn from the seed, or the codes in order) face up
    onto one pile on the mat, one about every ``period_s``. ``doubles``: indexes of deals where
    two cards land together (the second slightly offset). Ordinary cards, no stickers.

    >>> d = deal(1, cards=2, fps=4)
    >>> len(d.order), len(list(d.frames())) == len(d)
    (2, True)
    """
    camera.check_mode(mode)
    if deck_style not in STYLES:
        raise ValueError(f"unknown deck style {deck_style!r}: use one of {STYLES}")
    rng = np.random.default_rng([seed, 3])
    codes = [DECK[i].code for i in rng.permutation(48)[:cards]] if isinstance(cards, int) else \
        [Card.parse(c).code for c in cards]
    pose = draw_pose(rng, height_cm=height_cm if height_cm is not None else float(rng.uniform(50, 65)),
                     tilt_deg=None)
    light = lightmod.draw_lighting(rng, lighting, target_mm=pose.target_mm, shadows=0)
    ex = draw_exposure(mode, rng, lighting=lighting)
    ex = dataclasses.replace(ex, warmth=light.warmth, motion_px=0.0)  # only moving things smear
    ppm = texture_ppm(mode, pose)
    seat = rng.uniform(0, 360)  # the dealer's side of the table
    pile_xy = np.array([rng.uniform(-40, 40), rng.uniform(-30, 30)])
    steps, truth = [], []
    t = 0.3
    i = 0
    while i < len(codes):
        per = period_s * rng.uniform(0.8, 1.25)
        two = len(truth) in doubles and i + 1 < len(codes)
        group = codes[i:i + (2 if two else 1)]
        a = math.radians(seat + rng.uniform(-25, 25))
        from_mm = np.array([math.cos(a), math.sin(a)]) * rng.uniform(380, 480)
        its = []
        for j, code in enumerate(group):
            place = props.move(*(pile_xy + (j * rng.uniform(8, 15), j * rng.uniform(5, 10)))) \
                @ props.rot(seat - 90 + rng.uniform(-6, 6)) @ props.move(-30.5, -47.5)
            its.append(card_item(code, place, rng, style=deck_style, ppm=ppm, marks=None))
        t_land = t + per * rng.uniform(0.3, 0.4)
        t_gone = t_land + per * rng.uniform(0.15, 0.25)
        grip = pile_xy + np.array([math.cos(a), math.sin(a)]) * 45
        steps.append(dict(t0=t, t_land=t_land, t_gone=t_gone, items=its, from_mm=from_mm, grip_mm=grip,
                          arm_deg=math.degrees(a) - 90, hand_scale=float(rng.uniform(0.9, 1.15))))
        t_next = t + per
        for j, code in enumerate(group):
            truth.append(DealtCard(code, t_land, t_gone, t_next, group[1 - j] if two else None))
        t = t_next
        i += len(group)
    duration = t + 0.2
    truth[-len(group):] = [dataclasses.replace(c, until_s=duration) for c in truth[-len(group):]]
    plan = dict(mat=mat_item("A3"), steps=steps, pose=pose, lighting=light, exposure=ex,
                hm=pose.table_to_image(camera.MODES[mode][0]))
    return Deal(seed, mode, fps, deck_style, lighting, truth, duration, plan)


def enrol_photo(code: str, *, deck_style: str = "fournier", lighting: str = "even", seed: int = 0,
                mode: str = "1080p", height_cm: float | None = None) -> Shot:
    """The camera's whole frame with one ordinary card (no stickers) face up on the mat, as
    ``deck learn`` takes it. ``Shot.truth[0].card_corners`` says where the card is."""
    return render(seed, mode=mode, cards=[code], layout="stack", distractors=(), deck_style=deck_style,
                  marks=None, lighting=lighting, height_cm=height_cm)


__all__ = ["Deal", "DealFrame", "DealtCard", "ShotMeta", "deal", "enrol_photo"]
