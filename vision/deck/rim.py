"""The card's own edge on a table as pale as its paper (white marble).

There the colour does not tell the paper from the table, and what the colour and the outline
find (:mod:`vision.deck.learnspot`) may be something printed on the card: its tinted middle
panel, its pips, the printed frame a few millimetres inside its edge. Yet each side of the
card is a straight step of light (the paper's edge and its thin shadow), and the printed
frame inside it a strong straight dark line. Both show as steps along profiles across each
side, averaged over stretches of it: a marble vein is not straight, so it does not step in
every stretch at once. On each side the outermost strong step is the printed frame (or the
card's edge itself), and the card's edge lies just outside it, at the same margin on every
side (a card is printed square on its paper): in the middle of the thin dark line its edge and
shadow make, whose two flanks step faintly. The outline found is
kept only when it has a card's shape.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.deck.locate import CARD_ASPECT, turned_quad
from vision.deck.views import inward_normal, order_quad

WORK_WIDTH = 1920  # px: the steps are a pixel or two wide at 1080p
LINES, STRETCHES = 40, 4  # profiles across a side; stretches of it that must all step
STRONG = 15.0  # a step this many times the profiles' noise: the printed frame, or a clear edge
STRONG_SHARE = 0.3  # of the side's strongest step, too (a clear paper's edge outside the frame is less)
FAINT = 3.0  # the paper's edge on a pale table, on one side
TURNS = (-2.0, -1.0, 0.0, 1.0, 2.0)  # degrees tried round what was found
MARGIN = 0.1  # of the frame's short side: the furthest the card's edge lies outside it
AGREE = 0.02  # of the frame's short side: margins that agree
REACH_IN, REACH_OUT = 0.15, 0.9  # of the found outline's short and long side: where to look
PLACED_IN = 0.5  # of the found outline's short side: the furthest in a side placed by the shape goes
LINE = 0.035  # of the frame's short side: the widest the paper's dark edge line is (flank to flank)
LINE_HALF = 0.011  # of it: half the line's usual width (flank to flank: 0.019-0.027, 3 px at 1080p)
SHAPE = 0.06  # the outline's aspect off a card's, at most
PALE_L, NEUTRAL = 150.0, 12.0  # a table whose CIELAB (8 bit) is this light and grey is paper-like


def paper_like(table_lab: np.ndarray) -> bool:
    """The table is as pale and grey as a card's paper (white marble): its colour does not
    show where the paper ends."""
    return float(table_lab[0]) >= PALE_L and float(np.hypot(table_lab[1] - 128, table_lab[2] - 128)) <= NEUTRAL


def _steps(grey: np.ndarray, a: np.ndarray, b: np.ndarray, out: np.ndarray,
           ks: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Along the side a-b, outwards (``out``) at offsets ``ks``: the step that every stretch
    shares (the weakest stretch's, in the sign they agree on) over the noise, at ``ks[1:-1]``,
    and whether it darkens outwards there."""
    ts = np.linspace(0.1, 0.9, LINES)
    base = a[None] + ts[:, None] * (b - a)[None]
    pts = (base[:, None, :] + ks[None, :, None] * out[None, None, :]).astype(np.float32)
    prof = cv2.remap(grey, pts[..., 0], pts[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    stretch = prof.reshape(STRETCHES, LINES // STRETCHES, -1).mean(axis=1)
    g = (stretch[:, 2:] - stretch[:, :-2]) / 2
    noise = float(np.median(np.abs(g))) / 0.6745 + 1e-3
    return np.maximum(g.min(axis=0), (-g).min(axis=0)) / noise, ks[1:-1], (-g).min(axis=0) > g.min(axis=0)


def _peaks(score: np.ndarray, ks: np.ndarray, level: float) -> list[float]:
    inner = score[1:-1]
    top = (inner >= score[:-2]) & (inner >= score[2:]) & (inner >= level)
    return [float(k) for k in ks[1:-1][top]]


def _sides(grey: np.ndarray, q: np.ndarray, ks: np.ndarray) -> list[tuple[np.ndarray, ...]]:
    """Each side's (outward direction, step score, offsets, darkening outwards)."""
    centre = q.mean(axis=0)
    out = []
    for i in range(4):
        a, b = q[i], q[(i + 1) % 4]
        n = -inward_normal(a, b, centre)  # outward
        out.append((n, *_steps(grey, a, b, n, ks)))
    return out


def card_rim(image: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
    """The card's edge (4x2 float32, full-resolution px) round ``quad``, something on the card
    or the card itself found roughly, or None when its sides do not step clearly enough."""
    h, w = image.shape[:2]
    s = min(1.0, WORK_WIDTH / w)
    small = image if s == 1.0 else cv2.resize(image, (int(round(w * s)), int(round(h * s))), interpolation=cv2.INTER_AREA)
    grey = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (5, 5), 0).astype(np.float32)
    q0 = order_quad(np.float32(quad) * s).astype(np.float64)
    lengths = np.linalg.norm(np.roll(q0, -1, axis=0) - q0, axis=1)  # side i: q[i] -> q[i+1]
    ks = np.arange(-REACH_IN * lengths.min(), REACH_OUT * lengths.max(), 1.0)
    # (what was found roughly may be turned a little off the card: a cluster of pips)
    q, sides = max(((t, _sides(grey, t, ks)) for t in (turned_quad(q0, d) for d in TURNS)),
                   key=lambda qs: sum(float(score.max()) for _, score, _, _ in qs[1]))
    frames = []
    for _, score, at, _ in sides:
        strong = _peaks(score, at, max(STRONG, STRONG_SHARE * float(score.max())))
        frames.append(strong[-1] if strong else None)
    if sum(f is None for f in frames) > 1:
        return None
    inferred = frames.index(None) if None in frames else None
    ratio = 1.0
    if inferred is not None:  # (one side that does not step clearly: the card's shape, the
        i, o = inferred, (inferred + 2) % 4  # side as far out as its opposite one if either shape is possible)
        along = lengths[i] + frames[(i + 1) % 4] + frames[(i + 3) % 4]
        options = [(r, along * r - lengths[(i + 1) % 4] - frames[o]) for r in (CARD_ASPECT, 1 / CARD_ASPECT)]
        # (inwards at most to half the outline: what was found may have taken in marble there)
        options = [rk for rk in options if rk[1] >= -PLACED_IN * lengths.min()] or options
        ratio, frames[i] = min(options, key=lambda rk: abs(rk[1] - frames[o]))
    # across the frame from side i to side i+2: side i+1's length, and both sides' steps out
    short = min(lengths[(i + 1) % 4] + frames[i] + frames[(i + 2) % 4] for i in range(4))
    margin = _margin(lengths, frames, sides, short, inferred)
    if margin is None:
        return None
    m, own = margin
    if inferred is not None:  # (the PAPER has a card's shape, not the frame printed m inside it:
        frames[inferred] += 2 * m * (ratio - 1)  # (along + 2m) * ratio = across + 2m)
    offsets = []
    for i, (_, score, at, _) in enumerate(sides):  # (each side's own faint step there, if any)
        near = [k for k in _peaks(score, at, FAINT) if own and abs(k - frames[i] - m) <= AGREE * short]
        offsets.append(min(near, key=lambda k: abs(k - frames[i] - m)) if near else frames[i] + m)
    lines = [(q[i] + offsets[i] * sides[i][0], q[(i + 1) % 4] - q[i]) for i in range(4)]
    corners = []
    for i in range(4):
        (p, d), (r, e) = lines[i - 1], lines[i]
        t = np.linalg.solve(np.column_stack([d, -e]), r - p)
        corners.append(p + t[0] * d)
    rim = np.float32(corners)
    edge = np.linalg.norm(np.roll(rim, -1, axis=0) - rim, axis=1)
    aspect = (edge[0] + edge[2]) / (edge[1] + edge[3])
    aspect = max(aspect, 1 / aspect)
    if abs(aspect - CARD_ASPECT) > SHAPE * CARD_ASPECT:
        return None
    return rim / s


def _margin(lengths: np.ndarray, frames: list[float], sides: list, short: float,
            inferred: int | None) -> tuple[float, bool] | None:
    """The margin from the frame out to the paper's edge, the same on every side (a card is
    printed square on its paper), and whether each side may take its own step near it. First
    the middle of the paper's thin dark edge line (:func:`_edge_line`; not a side's own step,
    which is one of its flanks). Else: where two sides at least step faintly (the paper meets a
    pale marble) near the margin that gives the card's shape, or else that margin. The
    ``inferred`` side (placed by the shape, not seen) has no step of its own to share.
    Without the shape to go by, the margin the sides step at most strongly together: the
    paper's edge, not its thin shadow's a pixel or three further out."""
    across = sorted(lengths[(i + 1) % 4] + frames[i] + frames[(i + 2) % 4] for i in range(2))
    shaped = (across[1] - CARD_ASPECT * across[0]) / (2 * (CARD_ASPECT - 1))
    beyond = [[(k - frames[i], float(score[np.searchsorted(at, k)])) for k in _peaks(score, at, FAINT)
               if 1.0 < k - frames[i] <= MARGIN * short] if i != inferred else []
              for i, (_, score, at, _) in enumerate(sides)]
    darker = [bool(dark[np.searchsorted(at, k + frames[i])]) for i, (_, _, at, dark) in enumerate(sides)
              for k, _ in beyond[i]]

    edge = _edge_line(sorted(zip([(k, i) for i, side in enumerate(beyond) for k, _ in side], darker)), short)
    if edge is not None:
        return edge, False

    def support(m: float) -> tuple[int, float]:  # (sides stepping there, their summed strength)
        near = [max((s for k, s in side if abs(k - m) <= 1.5), default=0.0) for side in beyond]
        return sum(s > 0 for s in near), sum(near)

    shared = [m for side in beyond for m, _ in side if support(m)[0] >= 2]
    if inferred is None and 0 <= shaped <= MARGIN * short:
        near = [m for m in shared if abs(m - shaped) <= AGREE * short]
        m = min(near, key=lambda k: abs(k - shaped)) if near else shaped
    elif shared:  # (the sides' own steps round the strongest shared margin, by their strength)
        m0 = max(shared, key=lambda k: (support(k)[1], -k))
        at_m0 = [max((ks for ks in side if abs(ks[0] - m0) <= 1.5), key=lambda ks: ks[1]) for side in beyond
                 if any(abs(k - m0) <= 1.5 for k, _ in side)]
        m = sum(k * s for k, s in at_m0) / sum(s for _, s in at_m0)
    elif inferred is not None:
        m = 0.0
    else:
        return None
    return m, True


def _edge_line(steps: list[tuple[tuple[float, int], bool]], short: float) -> float | None:
    """The paper's edge in the middle of its thin dark line (the edge and its shadow), or None.
    ``steps``: every side's faint steps beyond its frame, as ((margin, side), darkening
    outwards), sorted. When both flanks step, they are the steps either side of the widest gap
    between them, a thin line apart: the edge lies halfway between their medians. When the
    sides (two at least) step at one flank only, the edge lies half a line's width from it:
    outwards from the inner flank (where it darkens outwards, paper to line), inwards from the
    outer one. (On white marble the edge itself does not step. Truth-seeded, on 96 photos of
    the moderna deck there: 0.26 px off on average, 1.1 px at the most; the strongest shared
    step alone, 1.35 and 4.1 px; the card's shape alone, 1.1 and 4.1 px.)"""
    if not steps:
        return None
    ks = np.float64([k for (k, _), _ in steps])
    j = int(np.argmax(np.diff(ks))) if len(ks) > 1 else 0
    inner, outer = float(np.median(ks[:j + 1])), float(np.median(ks[j + 1:] if len(ks) > 1 else ks))
    if len(ks) > 1 and ks[j + 1] - ks[j] > 1.0 and outer - inner <= LINE * short:
        return (inner + outer) / 2
    if ks[-1] - ks[0] <= LINE * short / 2:
        darkening = sum(d for _, d in steps) * 2 > len(steps)
        return float(np.median(ks)) + LINE_HALF * short * (1.0 if darkening else -1.0)
    return None
