"""Marked (sticker) cards on hard tables (issue 21, item 7): the frames that cost the sticker
reader most. A pile of cards carrying the kit's printed stickers (fan, spread, rows or stack)
lies on a checked (gingham) cloth, rough wood, white marble or a table strewn with printed
menus, on the capture mat or straight on the table, under a bar's lamp (reflection, gain 1-8).

``marked_frame(seed, surface, resolution="1080p")`` gives a :class:`MarkedFrame`: the frame,
the face-up cards and those with at least one sticker wholly in view and uncovered (a reader
should find these). ``marked_frames(resolution, n)`` cycles through :data:`surfaces.HARD`.
Rendered at the delivered size by the fast chain (:mod:`.sensor`), about 0.3 s a 1080p frame.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import cv2
import numpy as np

from kiosk.game import DECK
from tests.realcam import camera, light as lightmod, props
from tests.realcam.deck import STYLES
from tests.realcam.render import _quad_cover, draw_pose
from tests.realcam.rough import sensor, surfaces
from tests.realcam.table import MAT_ID, card_item, mat_item

RESOLUTIONS = ("720p", "1080p")
# the lamp's reflection's peak, drawn (1 = a white card in full light, times the gloss): up to
# 2.4 a veiling reflection that burns a glossy sticker's black to grey (it was 0.2-1.4)
VEIL_PEAK = (0.2, 2.4)


@dataclass(frozen=True)
class MarkedFrame:
    image: np.ndarray  # BGR uint8 after JPEG
    jpeg: bytes
    surface: str
    resolution: str
    on_mat: bool
    face_up: tuple[str, ...]  # every face-up card
    visible: frozenset[str]  # cards with a sticker wholly in view and uncovered
    gain: float
    stickers: tuple[tuple[str, np.ndarray], ...] = ()  # (code, corners px) of each sticker in view

    def stickers_of(self, code: str) -> list[np.ndarray]:
        return [q for c, q in self.stickers if c == code]

    def wrong(self, reported) -> set[str]:
        """Reported codes that are not a face-up card on the table."""
        return {str(c) for c in reported} - set(self.face_up)


def marked_frame(seed: int, surface: str, *, resolution: str = "1080p", cards: int | None = None,
                 on_mat: bool | None = None, layout: str | None = None,
                 veil: float | None = None) -> MarkedFrame:
    """A pile of marked cards on ``surface`` (a kind of :data:`surfaces.KINDS`). ``cards``:
    how many (4-40 when None); ``on_mat``: the pile on the capture mat (None: half the time);
    ``layout``: one of ``props.LAYOUTS`` (None: drawn). ``veil``: the lamp's reflection always
    lies on the pile, at this peak (None: 7 frames in 10 show one somewhere near the pile, of
    a peak drawn from VEIL_PEAK). The same arguments, the same pixels."""
    if resolution not in RESOLUTIONS:
        raise ValueError(f"unknown resolution {resolution!r}: use one of {RESOLUTIONS}")
    rng = np.random.default_rng([seed, 41])
    size = camera.MODES[resolution][1]
    pose = draw_pose(rng, height_cm=float(rng.uniform(50, 65)), tilt_deg=float(rng.uniform(0, 10)))
    hm = pose.table_to_image(size)
    pxmm = pose.px_per_mm(size)
    ppm = float(np.clip(round(2.5 * pxmm), 5, 9))
    gain = float(rng.uniform(1, 8))
    chain = sensor.draw_chain(rng, gain)
    lighting = lightmod.draw_lighting(rng, "bar", glare=0.0, target_mm=pose.target_mm, shadows=0)
    light = sensor.Light(lighting, pose, size)
    table = surfaces.table_surface(surface, rng)
    mat = on_mat if on_mat is not None else bool(rng.random() < 0.5)
    style = STYLES[int(rng.integers(len(STYLES)))]
    kind = layout if layout is not None else props.LAYOUTS[int(rng.integers(len(props.LAYOUTS)))]
    n = cards if cards is not None else int(rng.integers(4, 41))
    codes = [DECK[i].code for i in rng.permutation(48)[:n]]
    cv = surfaces.canvas(table, size, hm, 4.0)
    if mat and table.kind != "mat":
        m = mat_item("A3")
        cv.paste(m.texture, m.alpha, props.move(*pose.target_mm) @ m.place, m.ppm, MAT_ID, m.gloss)
    pile = props.move(pose.target_mm[0] + rng.uniform(-30, 30), pose.target_mm[1] + rng.uniform(-25, 25)) \
        @ props.rot(rng.uniform(0, 360))
    items = [card_item(code, pile @ place, rng, style=style, ppm=ppm, marks="aruco")
             for code, place in zip(codes, props.layout(kind, n, rng))]
    for it in items:
        cv.paste(it.texture, it.alpha, it.place, it.ppm, it.label, it.gloss)
    glare = None
    if rng.random() < 0.7 or veil is not None:
        # (a sweep's reflection lies on the pile's middle, where stickers are)
        c = np.array(pile[:2, 2]) + rng.uniform(-40, 40, 2) if veil is not None \
            else np.array(pose.target_mm) + rng.uniform(-150, 150, 2)
        sigma, peak = float(rng.uniform(20, 60)), float(rng.uniform(*VEIL_PEAK))
        glare = sensor.Glare(float(c[0]), float(c[1]), sigma, peak if veil is None else veil)
    irr, gl = light.maps(glare)
    image, jpeg = sensor.expose(cv.albedo, cv.gloss, None, irr, gl, chain, rng, gain=gain)
    visible = set()
    stickers = []
    for it in items:
        for q in it.markers_mm:
            px = cv2.perspectiveTransform(q.reshape(1, -1, 2), hm @ it.place)[0]
            if _quad_cover(cv.label, px, it.label) >= 0.995:
                visible.add(it.code)
                stickers.append((it.code, px.astype(np.float32)))
    return MarkedFrame(image, jpeg, surface, resolution, mat, tuple(codes), frozenset(visible), gain,
                       tuple(stickers))


def marked_frames(resolution: str, n: int, *, seed0: int = 24_000,
                  kinds: tuple[str, ...] = surfaces.HARD) -> Iterator[MarkedFrame]:
    """``n`` frames at ``resolution``, the surfaces ``kinds`` in turn (fixed seeds)."""
    for i in range(n):
        yield marked_frame(seed0 + i + (0 if resolution == "720p" else 500), kinds[i % len(kinds)],
                           resolution=resolution)


__all__ = ["MarkedFrame", "RESOLUTIONS", "marked_frame", "marked_frames"]
