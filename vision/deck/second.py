"""Two cards dealt at once: a second card's outline, new and apart from the top card.

Only where the table changed outside the top card (:mod:`vision.deck.outline`) is looked at:
a shadow, a reflection or a strip of the card below uncovered has no new outline of a
card's size. Edges inside the new top card are all new, its print too, so a rectangle
shifted along it, parallel, gets "new" sides there (a ghost of the top card); a card
really under it shows new sides where it is in view, outside the top card. On a pile dealt
askew the old edges there (the cards below, their sides and prints) hold card-sized rectangles
too: a second outline whose part in view is all as it was (old sides, every edge kept) is
those, wherever it lies; a card that came covers the edges where it lies.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.deck.exposure import Change, edge_level, gain_matched
from vision.deck.glare import GLARE_LEVEL
from vision.deck.locate import CARD_ASPECT, around, quad_mask
from vision.deck.outline import SIZES, Outline, find_outlines, grey, iou, new_edge_share

MIN_NEW_SECOND = 0.12  # of a second card's perimeter on NEW edges (a card below: ~0)
MIN_SUPPORT_SECOND = 0.55  # of its perimeter on edges (the card on top hides some of it)
MIN_NEW_VISIBLE = 0.4  # of its sides in view (outside the card on top) on NEW edges: a card under it, not a ghost
GHOST_DEG, GHOST_IOU = 4.0, 0.15  # a second outline this parallel to the top card and over it: maybe its ghost
DEALT_OVER = 0.2  # of an outline with no new sides changed inside: a card dealt over (0.28-0.4 seen); less, one below
SAME_PLACE = 0.75  # overlap with a card's outline (the last one, one on the pile): it lies where that card lay
UNSEEN_CARD = 0.5  # card perimeters of new edges where no card's outline was found: a card came all the same
HALO = np.ones((7, 7), np.uint8)  # around a patch the reflection clips: the print squashed there too
UNCLIPPED = 0.2  # of a card's area the reflection does not clip, at least, for its print to say anything
PRINT_KEPT = 0.9  # of the edges in view of a card found again still there (a shadow dims them; a card come covers them)


def _outside(changed: np.ndarray, quad: np.ndarray, k: int) -> np.ndarray:
    """Where the table changed outside the card at ``quad``: the change's pieces joined (closed by a
    ``k`` px disc: over white cards a card changes only where it is printed), the card's outline
    filled out, then specks and slivers opened away. Worked out only over the box round the change
    and twice the disc's reach: nothing grows further, and there the very same pixels come out."""
    out = np.zeros_like(changed)
    box = around(changed, 2 * (k // 2) + 2)
    if box is None:
        return out
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    out[box] = cv2.morphologyEx(changed[box], cv2.MORPH_CLOSE, disc)
    cv2.fillPoly(out, [np.round(quad).astype(np.int32)], 0)
    out[box] = cv2.morphologyEx(out[box], cv2.MORPH_OPEN, disc)
    return out


def second_card(current: np.ndarray, reference: np.ndarray, changed: np.ndarray, top: Outline,
                long_px: float, *, level: float, aspect: float, sizes: tuple[float, ...] = SIZES,
                pile: tuple[np.ndarray, ...] = ()) -> Outline | None:
    """Another card's outline, new and apart from ``top`` (two cards dealt at once), or None.
    Only where the table changed outside the top card is looked at: a shadow, a reflection
    or a strip of the card below uncovered has no new outline of a card's size. ``pile``: the
    outlines of the cards read on the pile (a card below found again is no second card)."""
    short = long_px / aspect
    outside = _outside(changed, top.quad, max(3, int(0.12 * short)) | 1)
    if cv2.countNonZero(outside) < 0.08 * long_px * short:
        return None
    # (not turned to fit its sides: beside a new card, its print and the old edges below
    # hold a turned rectangle well enough to pass for a second card)
    found = find_outlines(current, reference, outside, top.long, level=level, aspect=aspect, sizes=(1.0,),
                          exclude=[top.quad], turns=())
    if not found:
        return None
    other = found[0]
    if other.support < MIN_SUPPORT_SECOND or other.new < MIN_NEW_SECOND or iou(other.quad, top.quad) > 0.5:
        return None
    # (edges inside the new top card are all new, its print too: a rectangle shifted along
    # it, parallel, gets its "new" sides there; a card under it shows new sides in view)
    if _turned(other.quad, top.quad) < GHOST_DEG and iou(other.quad, top.quad) > GHOST_IOU \
            and visible_new(current, reference, other.quad, top.quad, level) < MIN_NEW_VISIBLE:
        return None
    if _found_again(current, reference, changed, other.quad, top.quad, pile, level) \
            or all_as_before(current, reference, other.quad, top.quad, level):
        return None
    return other


def dealt_over(seen: np.ndarray, change: Change, top: Outline, long_px: float) -> bool:
    """Whether an outline with no new sides is a card dealt squared on one further down
    (its sides lie on that card's old edges): all of it changed, and a card's worth of new
    edges came. A card below found again under moving light or a shadow changes little inside."""
    inside = quad_mask(change.mask.shape, top.quad)
    covered = cv2.countNonZero(cv2.bitwise_and(change.mask, inside)) / max(cv2.countNonZero(inside), 1)
    return covered >= DEALT_OVER and new_edge_share(seen, change.reference, change.mask, long_px,
                                                    level=change.edge, aspect=CARD_ASPECT) >= UNSEEN_CARD


def _found_again(current: np.ndarray, reference: np.ndarray, changed: np.ndarray, quad: np.ndarray,
                 over: np.ndarray, pile: tuple[np.ndarray, ...], level: float) -> bool:
    """Whether the second outline is a card on the pile found again: it lies where one was
    read, and what of it is in view (outside the top card, ``over``) is as it was: its sides
    there are old edges (new ones less than a second card's share, :data:`MIN_NEW_SECOND`) and
    its print there barely changed (less than a card dealt over changes, :data:`DEALT_OVER`).
    Its "new" sides are then under the new top card, whose print is all new. A card that came
    unread, even where one lay before, changes what is in view of it."""
    if not any(iou(quad, q) > SAME_PLACE for q in pile):
        return False
    seen = _in_view(changed.shape, quad, over)
    shown = cv2.countNonZero(seen)
    if not shown:
        return False
    if cv2.countNonZero(cv2.bitwise_and(seen, changed)) < DEALT_OVER * shown \
            and visible_new(current, reference, quad, over, level) < MIN_NEW_SECOND:
        return True
    # (the new card's shadow changes what is in view of the card below, not its print: every
    # edge it showed there still shows; a card come unread over it covers them)
    return print_kept(current, reference, seen, level) >= PRINT_KEPT


def all_as_before(current: np.ndarray, reference: np.ndarray, quad: np.ndarray, over: np.ndarray,
                   level: float) -> bool:
    """Whether what is in view of the second outline (outside the top card, ``over``) is all as
    it was, wherever it lies: its sides there old edges (new for less than a card under the top
    one shows, :data:`MIN_NEW_VISIBLE`) and every edge the table showed inside it still showing
    (:data:`PRINT_KEPT`). Such an outline is drawn from the pile's old edges (cards lying askew
    under the new one, their sides and prints), its "new" sides under the new top card, whose
    print is all new; a card that came covers the edges where it lies, and its sides are new
    edges where no side lay. Less than a fifth of it in view: no evidence (the other checks decide)."""
    seen = _in_view(current.shape, quad, over)
    if cv2.countNonZero(seen) < 0.2 * cv2.countNonZero(quad_mask(current.shape, quad)):
        return False
    return visible_new(current, reference, quad, over, level) < MIN_NEW_VISIBLE \
        and print_kept(current, reference, seen, level) >= PRINT_KEPT


def _in_view(shape: tuple[int, ...], quad: np.ndarray, over: np.ndarray) -> np.ndarray:
    """The mask of ``quad`` outside the top card ``over``: what of a second outline is in view."""
    seen = quad_mask(shape, quad)
    cv2.fillPoly(seen, [np.round(over).astype(np.int32)], 0)
    return seen


def print_kept(current: np.ndarray, reference: np.ndarray, seen: np.ndarray, level: float) -> float:
    """Of the edges ``reference`` shows inside ``seen`` (a mask, away from its rim), the share
    ``current`` still shows (at half the step at least: a shadow dims them, never erases them);
    0.0 when there are none (no evidence that it is the card below: the other checks decide).
    A card lying there since covers them with its own print."""
    k = max(3, int(0.01 * max(seen.shape)) | 1)
    inner = cv2.erode(seen, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    ys, xs = np.nonzero(inner)
    if not len(ys):
        return 0.0
    y0, y1, x0, x1 = max(ys.min() - 2, 0), ys.max() + 3, max(xs.min() - 2, 0), xs.max() + 3
    mask = inner[y0:y1, x0:x1] > 0
    steps = [cv2.magnitude(*_gradients(im[y0:y1, x0:x1])) for im in (current, reference)]
    was = mask & (steps[1] >= level)
    if not was.any():
        return 0.0
    return float(np.count_nonzero(was & (steps[0] >= level / 2)) / np.count_nonzero(was))


def print_shown(kept: np.ndarray, named: np.ndarray, quad: np.ndarray) -> bool:
    """Whether the card at ``quad`` in ``named`` (a detail copy) shows its print in ``kept`` (another
    picture of the view, at the same exposure) where it lies: every edge its print shows in ``named``
    (inside its outline, away from its rim; an edge above the two pictures' noise) shows in ``kept``
    (:func:`print_kept` at :data:`PRINT_KEPT`). Under the lamp's reflection
    its place may change nothing from a picture where another card lay there (white on white, clipped):
    the print still tells the two apart wherever the reflection does not clip. Where ``kept`` clips
    (:data:`vision.deck.glare.GLARE_LEVEL`, with its halo) over all but :data:`UNCLIPPED` of the card, its
    print says nothing, whichever card lies there: taken as shown (76008: the lamp's reflection swayed
    over the pile in the still frames, clipping the card named there all over; the rim of the clipped
    patch, the little left of its print, was taken for another card's: "two cards", four times in one
    deal); so too with no edges to compare."""
    h, w = kept.shape[:2]
    x0, y0 = np.maximum(np.floor(quad.min(axis=0)) - 8, 0).astype(int)
    x1, y1 = np.minimum(np.ceil(quad.max(axis=0)) + 8, (w, h)).astype(int)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return True
    kept, named = kept[y0:y1, x0:x1], named[y0:y1, x0:x1]
    inside = quad_mask(kept.shape, quad - (x0, y0))
    clipped = cv2.dilate((np.min(kept, axis=2) >= GLARE_LEVEL).view(np.uint8), HALO)
    if cv2.countNonZero(cv2.bitwise_and(inside, cv2.bitwise_not(clipped * 255))) < UNCLIPPED * cv2.countNonZero(inside):
        return True
    shown = print_kept(kept, gain_matched(named, kept), inside, edge_level(named, kept))
    return shown == 0.0 or shown >= PRINT_KEPT


def _gradients(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The grey steps across x and y (Sobel, in grey levels a pixel)."""
    g = grey(image)
    return cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3) / 8, cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3) / 8


def _turned(a: np.ndarray, b: np.ndarray) -> float:
    """Degrees between two rectangles' sides (mod 90)."""
    da, db = (np.degrees(np.arctan2(*(q[1] - q[0])[::-1])) % 90 for q in (a, b))
    d = abs(da - db)
    return float(min(d, 90 - d))


def visible_new(current: np.ndarray, reference: np.ndarray, quad: np.ndarray, over: np.ndarray,
                level: float) -> float:
    """Of ``quad``'s sides outside ``over`` (the card on top, which hides what is under it):
    the share lying on a NEW step across the side (none there in ``reference``); 0 when
    less than a fifth of its sides is in view."""
    q = np.asarray(quad, np.float64)
    h, w = current.shape[:2]
    x0, y0 = np.maximum(np.floor(q.min(axis=0)) - 4, 0).astype(int)
    x1, y1 = np.minimum(np.ceil(q.max(axis=0)) + 5, (w, h)).astype(int)
    grads = [_gradients(im[y0:y1, x0:x1]) for im in (current, reference)]
    cover = np.asarray(over, np.float32)
    ks = np.arange(-2.0, 2.01, 1.0)
    shown = new = 0
    total = 0
    for i in range(4):
        a, b = q[i], q[(i + 1) % 4]
        n_ = max(int(np.linalg.norm(b - a) / 2), 4)
        base = a[None] + np.linspace(0.05, 0.95, n_)[:, None] * (b - a)[None]
        total += n_
        keep = np.array([cv2.pointPolygonTest(cover, (float(p[0]), float(p[1])), True) < -3 for p in base])
        if not keep.any():
            continue
        along = (b - a) / max(np.linalg.norm(b - a), 1e-6)
        normal = np.float64([-along[1], along[0]])
        pts = base[keep][:, None, :] + ks[None, :, None] * normal[None, None, :] - (x0, y0)
        mx, my = pts[..., 0].astype(np.float32), pts[..., 1].astype(np.float32)
        steps = [np.abs(cv2.remap(gx, mx, my, cv2.INTER_LINEAR) * normal[0] + cv2.remap(gy, mx, my, cv2.INTER_LINEAR)
                        * normal[1]).max(axis=1) for gx, gy in grads]
        shown += int(keep.sum())
        new += int(np.count_nonzero((steps[0] >= level) & (steps[1] < level)))
    if shown < 0.2 * total:
        return 0.0
    return new / shown
