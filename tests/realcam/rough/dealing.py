"""Dealing sequences on a rough table (issue 21): a player deals a pile face up, one card at a
time, under the phenomena of :class:`~tests.realcam.rough.nuisances.Nuisances`, sampled like
a 10 fps camera.

``deal_sequence(seed, nuisances, resolution="720p", cards=24)`` gives a :class:`DealSequence`:
``truth`` (the codes in deal order) and ``frame_truth`` (per frame: the card on top and its
corners in pixels, the card in the air, a hand in view) are known at once; frames render on
demand, in order or not (about 0.1 s a 720p frame, 0.2 s at 1080p)::

    seq = deal_sequence(7, realistic_nuisances(np.random.default_rng(7)))
    tracker = DealTracker(model)
    for frame in seq:
        events = tracker.feed(frame.image)   # frame.truth: what lies on top now

A frame's timeline: ``nuisances.empty_frames`` frames of the empty table (none when
``at_once``); then for each card 0-2 frames in the air (coming from the dealer's side,
motion-blurred, the hand holding its near edge, the card's and the hand's shadows below), then
3-7 frames lying alone (the dealer's hand maybe lingering at the frame's edge). The lamp's
reflection moves and flickers, and the exposure and gain jitter, in every frame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterator

import cv2
import numpy as np

from kiosk.game import DECK
from tests.realcam import camera, light as lightmod, props
from tests.realcam.deal import SKIN, SLEEVE, _in_view
from tests.realcam.deck import CARD_H_MM, CARD_W_MM, STYLES, card_alpha
from tests.realcam.render import draw_pose
from tests.realcam.rough import sensor, surfaces
from tests.realcam.rough.nuisances import Nuisances
from tests.realcam.table import HAND_ID, Canvas, Item, _smear, card_item

FPS = 10.0
RESOLUTIONS = ("720p", "1080p")
LINGER_MM = 120.0  # how far the lingering hand reaches into the view at linger 1
MAX_BLUR_MM = 50.0
CORNERS_MM = np.float32([[[0, 0], [CARD_W_MM, 0], [CARD_W_MM, CARD_H_MM], [0, CARD_H_MM]]])


@dataclass(frozen=True)
class FrameTruth:
    """What frame ``n`` shows. ``top``: the card on top of the pile (the last one laid; None
    before the first), ``top_index`` its place in deal order (-1), ``quad`` its corners in
    delivered pixels, its own top-left first (it may be partly under a hand or a card in the
    air). ``flying``: a card in the air. ``hand``: a hand in view (dealing or lingering).
    ``still``: no card in the air (a lingering hand may twitch). ``glare``: the lamp's
    reflection at its brightest on the top card (linear, x its gloss; 1 = the card's white):
    from about 0.6 its print is washed out at the normal exposure (a darker frame may help)."""

    n: int
    top: str | None
    top_index: int
    quad: np.ndarray | None
    flying: str | None
    hand: bool
    still: bool
    glare: float = 0.0


@dataclass(frozen=True)
class Frame:
    image: np.ndarray  # BGR uint8, after JPEG
    truth: FrameTruth


@dataclass(frozen=True)
class _Step:
    """One frame's plan: cards lying, the card in the air and how far along, the hands."""

    lying: int
    flying: int = -1
    u: float = 0.0  # 0 leaving the dealer's hand ... 1 landed
    du: float = 0.0  # the share of the way covered between two frames
    linger: bool = False


@dataclass
class DealSequence:
    """A dealing sequence: ground truth at once, frames rendered on demand (deterministic)."""

    seed: int
    nuisances: Nuisances
    resolution: str
    deck_style: str
    truth: list[str]
    frame_truth: list[FrameTruth]
    _plan: "_Plan" = field(repr=False)

    def __len__(self) -> int:
        return len(self.frame_truth)

    def __iter__(self) -> Iterator[Frame]:
        for n in range(len(self)):
            yield self.frame(n)

    @property
    def size(self) -> tuple[int, int]:
        return camera.MODES[self.resolution][1]

    def frame(self, n: int, *, exposure_scale: float = 1.0) -> Frame:
        """Frame ``n``; ``exposure_scale`` < 1: the same moment at a shorter exposure (the
        kiosk's darker frame), a new draw of the sensor's noise."""
        return Frame(self._plan.render(n, exposure_scale), self.frame_truth[n])

    def lying_frames(self, index: int) -> range:
        """The frames in which card ``index`` is the one on top."""
        ns = [t.n for t in self.frame_truth if t.top_index == index]
        return range(ns[0], ns[-1] + 1) if ns else range(0)


class _Plan:
    """Everything drawn from the seed once; renders any frame."""

    def __init__(self, seed: int, nu: Nuisances, resolution: str, deck_style: str, codes: list[str],
                 rng: np.random.Generator) -> None:
        self.seed, self.nu = seed, nu
        self.size = camera.MODES[resolution][1]
        self.pose = draw_pose(rng, height_cm=nu.height_cm, tilt_deg=nu.tilt_deg)
        self.hm = self.pose.table_to_image(self.size)
        self.pxmm = self.pose.px_per_mm(self.size)
        self.ppm = float(np.clip(round(2 * self.pxmm), 4, 8))
        self.lighting = lightmod.draw_lighting(rng, "bar", glare=0.0, target_mm=self.pose.target_mm, shadows=0)
        self.light = sensor.Light(self.lighting, self.pose, self.size)
        self.chain = sensor.draw_chain(rng, nu.gain)
        self.surface = surfaces.table_surface(nu.background, rng)
        self.pile = np.array(self.pose.target_mm) + rng.uniform(-30, 30, 2)
        seat = rng.uniform(0, 2 * math.pi)  # the dealer's side
        self.seat = np.array([math.cos(seat), math.sin(seat)])
        self.cards: list[Item] = []
        self.lift_mm: list[np.ndarray] = []  # each card's shadow offset on the one below
        lamp = np.array(self.lighting.lamp_xy_mm)
        for code in codes:
            r = nu.offset_cm * 10 * math.sqrt(rng.random())
            a = rng.uniform(0, 2 * math.pi)
            at = self.pile + r * np.array([math.cos(a), math.sin(a)])
            turn = math.degrees(seat) - 90 + rng.uniform(-1, 1) * nu.rotation_deg
            turn += 180 * (nu.either_way and rng.random() < 0.5)
            place = props.move(*at) @ props.rot(turn) @ props.move(-CARD_W_MM / 2, -CARD_H_MM / 2)
            self.cards.append(card_item(code, place, rng, style=deck_style, ppm=self.ppm, marks=None))
            away = at - lamp
            self.lift_mm.append(away / (np.linalg.norm(away) + 1e-6) * rng.uniform(2.0, 6.0))  # curled edges, a low lamp
        # the timeline
        self.steps: list[_Step] = [] if nu.at_once else [_Step(0)] * nu.empty_frames
        self.throw: list[tuple[float, float, float]] = []  # per card: from (mm), turn in the air, lift (mm)
        for i in range(len(codes)):
            nf = int(rng.integers(nu.flight_frames[0], nu.flight_frames[1] + 1))
            self.throw.append((rng.uniform(150, 350), rng.uniform(-30, 30), rng.uniform(30, 80)))
            self.steps += [_Step(i, i, (j + 1) / (nf + 1), 1 / (nf + 1)) for j in range(nf)]
            lingers = nu.linger > 0 and rng.random() < 0.7
            self.steps += [_Step(i + 1, linger=lingers)] * int(rng.integers(nu.lying_frames[0], nu.lying_frames[1] + 1))
        # the reflection's resting place and its sway
        a = rng.uniform(0, 2 * math.pi)
        self.glare0 = self.pile + rng.uniform(0, nu.reflection_near_mm) * np.array([math.cos(a), math.sin(a)])
        self.sway = (rng.uniform(0.2, 0.8, 2), rng.uniform(0, 2 * math.pi, 2))
        self.edge_mm = self._edge_distance()
        self._pile_cache: dict[int, tuple[Canvas, np.ndarray]] = {}
        self._noise: sensor.NoiseField | None = None

    def _edge_distance(self) -> float:
        """From the pile towards the dealer, how far the frame's edge is (mm)."""
        w, h = self.size
        for t in range(0, 2000, 5):
            p = cv2.perspectiveTransform(np.float32([[self.pile + self.seat * t]]), self.hm)[0, 0]
            if not (0 <= p[0] < w and 0 <= p[1] < h):
                return float(t)
        return 2000.0

    def quad(self, i: int) -> np.ndarray:
        return cv2.perspectiveTransform(CORNERS_MM, self.hm @ self.cards[i].place)[0]

    def truth(self, n: int, step: _Step) -> FrameTruth:
        top = step.lying - 1
        hand = False
        if step.flying >= 0:
            hand = _in_view(self._dealing_hand(step)[0], self.hm, self.size)
        if step.linger:
            hand = hand or _in_view(self._lingering_hand(np.random.default_rng([self.seed, 23, n])), self.hm,
                                    self.size)
        glare = self.glare_on(top, self._glare(n, np.random.default_rng([self.seed, 22, n]))) if top >= 0 else 0.0
        return FrameTruth(n, self.cards[top].code if top >= 0 else None, top, self.quad(top) if top >= 0 else None,
                          self.cards[step.flying].code if step.flying >= 0 else None, hand, step.flying < 0, glare)

    def _glare(self, n: int, rng: np.random.Generator) -> sensor.Glare | None:
        """The lamp's reflection in frame ``n`` (``rng``: the frame's light, its first draws)."""
        nu = self.nu
        if nu.reflection <= 0:
            return None
        f, ph = self.sway
        sway = np.sin(2 * math.pi * f * n / FPS + ph) * 0.7 + rng.normal(0, 0.3, 2)
        c = self.glare0 + nu.reflection_move_mm * sway
        peak = nu.reflection * max(0.0, 1 + nu.reflection_flicker * rng.normal())
        return sensor.Glare(float(c[0]), float(c[1]), nu.reflection_sigma_mm, peak)

    def glare_on(self, i: int, glare: sensor.Glare | None) -> float:
        """The reflection at its brightest on card ``i`` (linear, x the card's gloss; 1 = its
        white): above about 0.6 its print is washed out at the normal exposure."""
        if glare is None:
            return 0.0
        it = self.cards[i]
        p = np.linalg.inv(it.place) @ np.array([glare.x_mm, glare.y_mm, 1.0])
        d = math.hypot(max(0.0, -p[0], p[0] - CARD_W_MM), max(0.0, -p[1], p[1] - CARD_H_MM))
        return float(glare.peak * it.gloss * math.exp(-d * d / (2 * glare.sigma_mm ** 2)))

    # ----- drawing

    def _alpha_px(self, place: np.ndarray, pad_mm: float = 0.0) -> tuple[int, int, np.ndarray] | None:
        """A card's coverage (float32 0-1) in delivered pixels at ``place``, over its bounding box."""
        a = card_alpha(self.ppm)
        th, tw = a.shape
        h = self.hm @ place @ np.diag([1 / self.ppm, 1 / self.ppm, 1.0])
        pts = cv2.perspectiveTransform(np.float32([[[0, 0], [tw, 0], [tw, th], [0, th]]]), h)[0]
        pad = int(3 * pad_mm * self.pxmm) + 4
        x0, y0 = np.maximum(np.floor(pts.min(0)).astype(int) - pad, 0)
        x1, y1 = np.minimum(np.ceil(pts.max(0)).astype(int) + pad, self.size)
        if x1 <= x0 or y1 <= y0:
            return None
        t = props.move(-x0, -y0) @ h
        return x0, y0, cv2.warpPerspective(a, t, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR).astype(np.float32) / 255

    def _shadow(self, shade: np.ndarray, place: np.ndarray, offset_mm: np.ndarray, soft_mm: float,
                strength: float) -> None:
        if strength <= 0:
            return
        got = self._alpha_px(props.move(*offset_mm) @ place, soft_mm)
        if got is None:
            return
        x0, y0, a = got
        a = cv2.GaussianBlur(a, (0, 0), max(soft_mm * self.pxmm, 0.5))
        roi = shade[y0:y0 + a.shape[0], x0:x0 + a.shape[1]]
        roi *= 1 - strength * a

    def _lay(self, cv: Canvas, shade: np.ndarray, it: Item) -> None:
        cv.paste(it.texture, it.alpha, it.place, it.ppm, it.label, it.gloss)
        got = self._alpha_px(it.place)
        if got is not None:  # the card itself is lit: its shadow falls beside it
            x0, y0, a = got
            roi = shade[y0:y0 + a.shape[0], x0:x0 + a.shape[1]]
            roi[:] = roi * (1 - a) + a

    def pile_state(self, k: int) -> tuple[Canvas, np.ndarray]:
        """The table with the first ``k`` cards laid (kept: a pile only grows)."""
        if k in self._pile_cache:
            return self._pile_cache[k]
        below = [j for j in self._pile_cache if j < k]
        if below:
            j = max(below)
            cv, shade = self._pile_cache[j][0].copy(), self._pile_cache[j][1].copy()
        else:
            j = 0
            cv = surfaces.canvas(self.surface, self.size, self.hm, 4.0)
            shade = np.ones(cv.label.shape, np.float32)
        for i in range(j, k):
            it = self.cards[i]
            self._shadow(shade, it.place, self.lift_mm[i], self.nu.shadow_softness_mm, self.nu.shadow)
            self._lay(cv, shade, it)
        self._pile_cache = {j: v for j, v in self._pile_cache.items() if j in (0, k - 1)}  # the last ones
        self._pile_cache[k] = (cv, shade)
        return cv, shade

    def _flight(self, step: _Step) -> tuple[np.ndarray, np.ndarray, float]:
        """The card in the air: its place, its motion over the exposure (mm), its height."""
        dist, turn, lift = self.throw[step.flying]
        place = self.cards[step.flying].place

        def at(u: float) -> np.ndarray:
            off = self.seat * dist * (1 - u) ** 1.3
            c = place @ np.array([CARD_W_MM / 2, CARD_H_MM / 2, 1.0])
            return props.move(*off) @ props.move(c[0], c[1]) @ props.rot(turn * (1 - u)) @ props.move(-c[0], -c[1]) \
                @ place

        # the offset's rate of change (mm/s) over the shutter time, towards the pile
        speed = dist * 1.3 * (1 - step.u) ** 0.3 * step.du * FPS
        motion = self.seat * min(speed * self.chain.shutter_s, MAX_BLUR_MM)
        return at(step.u), -motion, lift * (1 - step.u) + 5

    def _dealing_hand(self, step: _Step) -> tuple[np.ndarray, np.ndarray]:
        place, _, _ = self._flight(step)
        c = place @ np.array([CARD_W_MM / 2, CARD_H_MM / 2, 1.0])
        tip = c[:2] + self.seat * 30  # the fingers over the card's near edge
        return lightmod.hand_polygon(tuple(tip), math.degrees(math.atan2(self.seat[1], self.seat[0])) - 90), place

    def _lingering_hand(self, rng: np.random.Generator) -> np.ndarray:
        reach = self.nu.linger * LINGER_MM
        tip = self.pile + self.seat * (self.edge_mm - reach) + rng.normal(0, 1.0 * self.nu.linger, 2)
        ang = math.degrees(math.atan2(self.seat[1], self.seat[0])) - 90 + rng.normal(0, 1.0)
        return lightmod.hand_polygon(tuple(tip), ang)

    def render(self, n: int, exposure_scale: float = 1.0) -> np.ndarray:
        step = self.steps[n]
        nu = self.nu
        rng = np.random.default_rng([self.seed, 22, n])  # this frame's light (the same at a darker exposure)
        noise = np.random.default_rng([self.seed, 24, n, int(round(exposure_scale * 1000))])
        cv, shade = self.pile_state(step.lying)
        hands: list[np.ndarray] = []
        if step.flying >= 0 or step.linger:
            cv, shade = cv.copy(), shade.copy()
            moving: list[int] = []
            motion_mm = np.zeros(2)
            if step.flying >= 0:
                poly, place = self._dealing_hand(step)
                _, motion_mm, height = self._flight(step)
                lamp = np.array(self.lighting.lamp_xy_mm)
                c = place @ np.array([CARD_W_MM / 2, CARD_H_MM / 2, 1.0])
                off = (c[:2] - lamp) * height / self.lighting.lamp_h_mm
                self._shadow(shade, place, off, nu.shadow_softness_mm + height * 0.15, max(nu.shadow, 0.15))
                it = self.cards[step.flying]
                self._lay(cv, shade, Item(it.texture, it.alpha, it.ppm, place, it.label, it.gloss))
                hands.append(poly)
                moving = [it.label, HAND_ID]
            if step.linger:
                hands.append(self._lingering_hand(np.random.default_rng([self.seed, 23, n])))
            for k, poly in enumerate(hands):
                h = hand_item(poly, min(self.ppm, 3.0))
                cv.paste(h.texture, h.alpha, h.place, h.ppm, HAND_ID - k, h.gloss)
            if moving and np.linalg.norm(motion_mm) * self.pxmm > 1:
                _smear(cv, moving, tuple(motion_mm * self.pxmm))
        lamp = np.array(self.lighting.lamp_xy_mm)
        shadows = tuple(p + ((p.mean(0) - lamp) * 0.08).astype(np.float32) for p in hands)
        glare = self._glare(n, rng)
        irr, gl = self.light.maps(glare, shadows)
        brightness = (1 + nu.jitter * rng.normal()) * exposure_scale
        gain = nu.gain * max(0.5, 1 + nu.jitter * rng.normal())
        if self._noise is None:
            self._noise = sensor.NoiseField((self.size[1], self.size[0], 3), np.random.default_rng([self.seed, 25]))
        image, _ = sensor.expose(cv.albedo, cv.gloss, shade, irr, gl, self.chain, noise, brightness=brightness,
                                 gain=gain, banding=nu.jitter / 2, noise=self._noise)
        return image


def hand_item(poly_mm: np.ndarray, ppm: float, label: int = HAND_ID) -> Item:
    """A hand and its sleeve (``lightmod.hand_polygon``) drawn at ``ppm``."""
    x0, y0 = poly_mm.min(0) - 2
    x1, y1 = poly_mm.max(0) + 2
    w, h = int((x1 - x0) * ppm) + 1, int((y1 - y0) * ppm) + 1
    alpha = np.zeros((h, w), np.uint8)
    cv2.fillPoly(alpha, [np.round((poly_mm - (x0, y0)) * ppm * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
    tex = np.empty((h, w, 3), np.uint8)
    tex[:] = SLEEVE
    tip = (poly_mm[12] - (x0, y0)) * ppm  # skin up to the wrist, 150 mm from the fingertips
    cv2.circle(tex, (int(tip[0]), int(tip[1])), int(150 * ppm), SKIN, -1)
    return Item(tex, alpha, ppm, props.move(x0, y0), label, 0.3, moving=True)


def deal_sequence(seed: int, nuisances: Nuisances, *, resolution: str = "720p", cards: int | list[str] = 24,
                  deck_style: str | None = None) -> DealSequence:
    """A pile of ``cards`` (12-48 drawn from the seed, or the codes in order) dealt face up
    under ``nuisances`` at ``resolution`` ("720p" or "1080p"). ``deck_style``: "fournier" or
    "moderna" (None: drawn). The same arguments give the same frames.

    >>> from tests.realcam.rough.nuisances import neat
    >>> seq = deal_sequence(1, neat(), cards=2)
    >>> len(seq.truth), seq.frame_truth[0].top, seq.frame_truth[-1].top == seq.truth[-1]
    (2, None, True)
    """
    if resolution not in RESOLUTIONS:
        raise ValueError(f"unknown resolution {resolution!r}: use one of {RESOLUTIONS}")
    rng = np.random.default_rng([seed, 21])
    style = deck_style if deck_style is not None else STYLES[int(rng.integers(len(STYLES)))]
    if style not in STYLES:
        raise ValueError(f"unknown deck style {style!r}: use one of {STYLES}")
    codes = [DECK[i].code for i in rng.permutation(48)[:cards]] if isinstance(cards, int) else list(cards)
    plan = _Plan(seed, nuisances, resolution, style, codes, rng)
    truth = [plan.truth(n, s) for n, s in enumerate(plan.steps)]
    return DealSequence(seed, nuisances, resolution, style, codes, truth, plan)


__all__ = ["DealSequence", "Frame", "FrameTruth", "RESOLUTIONS", "deal_sequence"]
