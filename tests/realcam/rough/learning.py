"""Overhead learning photos on real tables (issue 21): one ordinary card face up, as ``deck
learn`` takes it with the kiosk's camera, on the mat, bare felt, glossy wood or white marble,
in a bar's light (gain 1-8, noise), some with the lamp's reflection beside the card (never on
it, unless asked).

``learning_set(surface, seed)`` gives 48 :class:`LearnPhoto` (one per card, in deck order);
each photo's :class:`LearnTruth` says where the card is, where the reflection is, and
``refuse``: the TRUE reason the photo should be refused, or None when it should be learnt (the
standard sets hold only photos that should be learnt). ``learning_photo(..., cut=True)`` puts
the card across the photo's edge, ``reflection_on=True`` puts the reflection on it, to check
that a refusal names its real cause.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from kiosk.game import DECK
from tests.realcam import camera, light as lightmod, props
from tests.realcam.deck import CARD_H_MM, CARD_W_MM
from tests.realcam.render import draw_pose
from tests.realcam.rough import sensor, surfaces
from tests.realcam.rough.dealing import CORNERS_MM
from tests.realcam.table import card_item
from vision import kit

SURFACES = surfaces.DEALING  # mat, felt, wood (glossy), marble
CUT = "the card is cut by the photo's edge"
REFLECTION_ON = "a reflection lies on the card"


@dataclass(frozen=True)
class LearnTruth:
    """``quad``: the card's corners (px, its own top-left first). ``reflection``: the lamp's
    reflection on the table as (x px, y px, radius px at which it falls to a tenth of its
    peak), or None. ``refuse``: the true reason to refuse the photo (:data:`CUT`,
    :data:`REFLECTION_ON`) or None: it should be learnt."""

    code: str
    surface: str
    quad: np.ndarray
    reflection: tuple[float, float, float] | None
    refuse: str | None
    gain: float


@dataclass(frozen=True)
class LearnPhoto:
    image: np.ndarray  # BGR uint8 after JPEG
    jpeg: bytes
    truth: LearnTruth


def learning_photo(code: str, surface: str, seed: int, *, mode: str = "1080p", deck_style: str = "fournier",
                   reflection: bool | None = None, reflection_on: bool = False, cut: bool = False,
                   gain: float | None = None) -> LearnPhoto:
    """One learning photo of ``code`` on ``surface`` (one of :data:`SURFACES`). ``reflection``:
    the lamp's reflection beside the card (None: in about a third of the photos);
    ``reflection_on``: on the card instead; ``cut``: the card lies across the photo's edge.
    ``gain``: the analogue gain (None: 1-8, dim bars more often)."""
    if surface not in SURFACES:
        raise ValueError(f"unknown surface {surface!r}: use one of {SURFACES}")
    camera.check_mode(mode)
    rng = np.random.default_rng([seed, 31])
    size = camera.MODES[mode][1]
    pose = draw_pose(rng, height_cm=float(rng.uniform(50, 65)), tilt_deg=float(rng.uniform(0, 6)))
    hm = pose.table_to_image(size)
    pxmm = pose.px_per_mm(size)
    ppm = float(np.clip(round(2 * pxmm), 4, 8))
    g = gain if gain is not None else float(rng.uniform(1, 8) if rng.random() < 0.6 else rng.uniform(1, 3))
    chain = sensor.draw_chain(rng, g)
    lighting = lightmod.draw_lighting(rng, "bar", glare=0.0, target_mm=pose.target_mm, shadows=0)
    light = sensor.Light(lighting, pose, size)
    table = surfaces.table_surface(surface, rng)
    # the card near the middle of the photo (the kiosk asks for that), any way round
    inv = np.linalg.inv(hm)
    w, h = size
    at_px = np.float32([w / 2 + rng.uniform(-0.15, 0.15) * w, h / 2 + rng.uniform(-0.12, 0.12) * h])
    if cut:  # across an edge: a third to two thirds of the card out of the photo
        side = int(rng.integers(4))
        at_px = np.float32([(0.0, at_px[1]), (w, at_px[1]), (at_px[0], 0.0), (at_px[0], h)][side])
    for _ in range(100):  # on the mat, the card lies wholly on it, clear of its corner markers
        centre = cv2.perspectiveTransform(at_px.reshape(1, 1, 2), inv)[0, 0]
        if cut:
            centre = centre + rng.uniform(-15, 15, 2)
        place = props.move(*centre) @ props.rot(rng.uniform(0, 360)) @ props.move(-CARD_W_MM / 2, -CARD_H_MM / 2)
        if surface != "mat" or cut or _on_mat(place):
            break
        at_px = np.float32([w / 2 + rng.uniform(-0.15, 0.15) * w, h / 2 + rng.uniform(-0.12, 0.12) * h])
    card = card_item(code, place, rng, style=deck_style, ppm=ppm, marks=None)
    cv = surfaces.canvas(table, size, hm, 4.0)
    cv.paste(card.texture, card.alpha, card.place, card.ppm, card.label, card.gloss)
    glare = None
    want = reflection if reflection is not None else rng.random() < 0.35
    if want or reflection_on:
        sigma = float(rng.uniform(15, 40))
        peak = float(rng.uniform(0.8, 2.0))
        a = rng.uniform(0, 2 * math.pi)
        if reflection_on:
            r = rng.uniform(0, 25)
        else:  # beside it: at a tenth of its peak or less where the card's edge is closest
            r = _beside(place, a, sigma, rng)
        c = centre + r * np.array([math.cos(a), math.sin(a)])
        glare = sensor.Glare(float(c[0]), float(c[1]), sigma, peak)
    irr, gl = light.maps(glare)
    image, jpeg = sensor.expose(cv.albedo, cv.gloss, None, irr, gl, chain, rng, gain=g)
    quad = cv2.perspectiveTransform(CORNERS_MM, hm @ place)[0]
    refl = None
    if glare is not None:
        c_px = cv2.perspectiveTransform(np.float32([[[glare.x_mm, glare.y_mm]]]), hm)[0, 0]
        refl = (float(c_px[0]), float(c_px[1]), float(glare.sigma_mm * math.sqrt(2 * math.log(10)) * pxmm))
    out = (quad[:, 0] < 0) | (quad[:, 0] > w - 1) | (quad[:, 1] < 0) | (quad[:, 1] > h - 1)
    refuse = CUT if out.any() else REFLECTION_ON if reflection_on else None
    return LearnPhoto(image, jpeg, LearnTruth(code, surface, quad, refl, refuse, g))


def _on_mat(place: np.ndarray, margin_mm: float = 10.0) -> bool:
    """The card at ``place`` lies wholly on the A3 mat (centred on the table's origin), at
    least ``margin_mm`` from its edges and its corner markers."""
    w, h = kit.MAT_SIZES_MM["A3"]
    card = cv2.transform(CORNERS_MM, place[:2])[0] + np.float32([w / 2, h / 2])  # mat mm
    if (card < margin_mm).any() or (card[:, 0] > w - margin_mm).any() or (card[:, 1] > h - margin_mm).any():
        return False
    for square in kit.mat_marker_corners_mm("A3").values():
        grown = (square - square.mean(0)) * (1 + 2 * margin_mm / kit.MAT_CODE_MM) + square.mean(0)
        area, _ = cv2.intersectConvexConvex(np.float32(card), np.float32(grown))
        if area > 0:
            return False
    return True


def _beside(place: np.ndarray, angle: float, sigma: float, rng: np.random.Generator) -> float:
    """How far from the card's centre (mm, along ``angle``) the reflection lies so that it has
    fallen to a tenth of its peak or less at the card's nearest point, and at most 4 sigma."""
    inv = np.linalg.inv(place)
    clear = sigma * math.sqrt(2 * math.log(10)) + 2.0
    c = place @ np.array([CARD_W_MM / 2, CARD_H_MM / 2, 1.0])
    for r in np.arange(30.0, 300.0, 2.0):
        p = inv @ np.array([c[0] + r * math.cos(angle), c[1] + r * math.sin(angle), 1.0])
        dx = max(0.0, -p[0], p[0] - CARD_W_MM)
        dy = max(0.0, -p[1], p[1] - CARD_H_MM)
        if math.hypot(dx, dy) >= clear:
            return float(r + rng.uniform(0, sigma))
    return 300.0


def learning_set(surface: str, seed: int = 0, *, mode: str = "1080p", deck_style: str = "fournier") -> list[LearnPhoto]:
    """48 learning photos on ``surface``, one per card in deck order, each drawn from its own
    seed; about a third with the lamp's reflection beside the card. All should be learnt."""
    return [learning_photo(card.code, surface, seed * 100 + i, mode=mode, deck_style=deck_style)
            for i, card in enumerate(DECK)]


__all__ = ["CUT", "REFLECTION_ON", "SURFACES", "LearnPhoto", "LearnTruth", "learning_photo", "learning_set"]
