"""The one card in a learning photo, found by its outline, or the true reason it is not.

A learning photo is the camera's whole frame with one card face up on the mat, bare felt,
wood or white marble. Two ways to see the card, each blind somewhere:

- by colour: what differs from the table's colour (the middle of the photo, which the card
  covers only a little of). Blind on white marble, where the paper is the table's colour,
  and it joins a lamp's reflection lying beside the card to the card;
- by outline: the closed edges of the photo (the card's edge and its printed border). Blind
  where the card's edge is washed out by a reflection on it.

Both give candidates; a candidate is a card when it is card-shaped, a sensible size and
clear of the photo's edge. Clipped pixels (every channel at the sensor's top) are the lamp's
reflection, never the card: they are taken out of the colour mask first, so a reflection
beside the card does not bend its outline. When there is no card, or the card is not
learnable, the refusal says why and where (:class:`~vision.deck.errors.EnrolmentError`
``reason`` and ``where``): the reflection on the card, the card across the photo's edge,
two cards, or no card at all.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.deck.errors import EnrolmentError
from vision.deck.edges import fit_edges
from vision.deck.locate import CARD_ASPECT, Blob, blobs_of, quad_mask
from vision.deck.cut import BUSY, busy, convex_at_edge, open_side, runs_off
from vision.deck.rim import card_rim, paper_like
from vision.deck.views import order_quad

MAT_DISTANCE = 16.0  # CIELAB distance from the table's colour that is "something on it"
HUE_DISTANCE = 6.0  # the same in hue alone (a, b): cream paper on white marble
GLARE = 250  # every channel at least this: the lamp's reflection
GLARE_ON_CARD = 0.004  # of the card's area clipped on the table just beside it: a reflection touches it
GLARE_PATCH = 0.01  # of the card's area clipped inside it (and not all of its paper): a reflection on it
MIN_AREA, MAX_AREA = 0.002, 0.15  # of the photo: a card's size
MIN_PRINT = 0.04  # of a candidate differing from the table's colour: printed, a card
SAME = 0.5  # overlap of two candidates that are the same card
PRINT_LEFT = 0.03  # of a clipped card's core still dark: its print kept, only the paper clips
# A reflection too faint to clip: the paper along the card's rim, its brightest stretch over its
# middle level (linear light). Realistic photos with no reflection on the card (beside it in a
# third): up to 1.11; enrolment photos of both deck styles: up to 1.15; a reflection on the card
# that clips nothing: 1.50-1.62
SHEEN_RATIO = 1.3
# an outline on a paper-like table and the rim found round it again: within this share of its
# short side (a card's own outline: 0-6 px of 150-190 at 1080p; one that took in marble: 40 px
# off or no rim at all)
CONFIRM = 0.06
GROWN = 1.3  # the card's edge found round an outline this much bigger: that was printed on the card

GLARE_MSG = "a reflection touches the card: move it away from the light"
CUT_MSG = "the card is cut by the photo's edge: move it to the middle"
TWO_MSG = "more than one card: leave one card alone"
NONE_MSG = "no card found: lay the card face up in the middle"
EDGE_MSG = "the card's edge does not show on this table (white on white): lay the card on the mat"


def _overlap(a: Blob, b: Blob) -> float:
    """The area two outlines share, over the smaller one's. Counted in pixels: OpenCV's
    ``intersectConvexConvex`` gives 0 for two near-identical outlines of one card (sides a
    fraction of a pixel apart), which then were "two cards"."""
    x0, y0 = np.floor(np.minimum(a.quad.min(axis=0), b.quad.min(axis=0))) - 1
    w, h = (np.ceil(np.maximum(a.quad.max(axis=0), b.quad.max(axis=0))) - (x0, y0) + 2).astype(int)
    masks = []
    for q in (a.quad, b.quad):
        m = np.zeros((h, w), np.uint8)
        cv2.fillPoly(m, [np.round((q - (x0, y0)) * 4).astype(np.int32)], 1, shift=2)
        masks.append(m)
    return float(np.count_nonzero(masks[0] & masks[1]) / max(min(a.rect_area, b.rect_area), 1.0))


def _colour_mask(lab: np.ndarray, glare: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    sh, sw = lab.shape[:2]
    middle = lab[sh // 5:sh - sh // 5, sw // 5:sw - sw // 5].reshape(-1, 3)
    table = np.median(middle, axis=0)
    dist = np.linalg.norm(lab - table, axis=2)
    return _cleaned((dist > MAT_DISTANCE) & ~glare), table


def _hue_mask(lab: np.ndarray, table: np.ndarray, glare: np.ndarray) -> np.ndarray:
    """What differs from the table in hue alone: a cream paper on white marble, whose grey
    veins differ from it in lightness only."""
    dist = np.linalg.norm(lab[..., 1:] - table[1:], axis=2)
    return _cleaned((dist > HUE_DISTANCE) & ~glare)


def _cleaned(mask: np.ndarray) -> np.ndarray:
    mask = mask.astype(np.uint8) * 255
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    return cv2.morphologyEx(cv2.morphologyEx(mask, cv2.MORPH_OPEN, k), cv2.MORPH_CLOSE, k, iterations=2)


def _edge_mask(grey: np.ndarray, *, strong: bool = False) -> np.ndarray:
    """The regions the photo's closed edges enclose, filled. ``strong``: only the photo's
    sharpest edges (the paper's against a dark table), not the grain or a plank's tone that
    close a weaker outline round the card and a reflection beside it."""
    med = float(np.median(grey))
    lo, hi = max(10.0, 0.165 * med), max(30.0, 0.33 * med)
    if strong:
        lo, hi = 2 * hi, 4 * hi
    edges = cv2.Canny(grey, lo, hi)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(edges)
    cv2.drawContours(filled, contours, -1, 255, -1)
    # (a plank's joint touching the card's corner is a double line: a wider opening cuts it off)
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9)) if strong else np.ones((5, 5), np.uint8)
    return cv2.morphologyEx(filled, cv2.MORPH_OPEN, k)


def _looks(image: np.ndarray, work_width: int) -> tuple[float, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                                       np.ndarray, np.ndarray, list[Blob]]:
    """The photo at ``work_width`` looked at: its scale, the small photo, its clipped pixels,
    CIELAB and grey, what differs from the table's colour, that colour, and every card-sized
    region found by colour and by outline."""
    h, w = image.shape[:2]
    scale = work_width / w
    small = cv2.resize(image, (work_width, int(round(h * scale))), interpolation=cv2.INTER_AREA)
    glare = cv2.dilate((small.min(axis=2) >= GLARE).astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    blurred = cv2.GaussianBlur(small, (5, 5), 0)
    lab = cv2.cvtColor(blurred, cv2.COLOR_BGR2LAB).astype(np.float32)
    colour, table = _colour_mask(lab, glare)
    grey = cv2.cvtColor(blurred, cv2.COLOR_BGR2GRAY)
    outline = _edge_mask(grey)
    # (thin lines: the grain and the planks' joints of wood, marble's veins, joined to the
    # card; a card is wide. Yet on marble the card's printed border may be all that differs)
    wide = cv2.morphologyEx(colour, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9)))
    found: list[Blob] = []
    for mask in (colour, wide, outline, _edge_mask(grey, strong=True), _hue_mask(lab, table, glare)):
        found += blobs_of(mask, min_area=MIN_AREA * mask.size, max_area=MAX_AREA * mask.size, convex=True)
    return scale, small, glare, lab, grey, colour, table, found


def spot_card(image: np.ndarray, *, work_width: int = 640) -> tuple[np.ndarray, np.ndarray]:
    """The one card's rough quadrilateral (full-resolution px) and the table's CIELAB colour.
    Raises :class:`EnrolmentError` with the true reason (and where) when there is none."""
    scale, small, glare, lab, grey, colour, table, found = _looks(image, work_width)
    sh, sw = small.shape[:2]
    cards = [b for b in found if b.card_shaped and not b.touches_edge and _printed(colour, b) >= MIN_PRINT]
    # (the printed part of a card cut by the photo's edge, inside the card's own region
    # that runs off the photo, is no card)
    # (not a plank's joint or a vein running off the photo that the card's colour joins:
    # a card cut by the edge is a rectangle, as long as a card at the most)
    cut = [b for b in found if b.touches_edge and b.area <= 0.08 * glare.size and b.rectangular >= 0.7
           and b.aspect <= 4.0]
    # (yet a whole card, the paper ending at every side, is a card: a reflection's halo joined
    # it to a region that runs off the photo)
    cards = [b for b in cards if all(_overlap(b, c) < SAME for c in cut)
             or not paper_like(table) and open_side(lab, glare, b.quad, table) is None]
    cards.sort(key=lambda b: -b.rect_area)
    distinct: list[Blob] = []
    for b in cards:  # (a card's printed border inside its edge is the same card)
        if all(_overlap(b, d) < SAME for d in distinct):
            distinct.append(_truest([c for c in cards if _overlap(b, c) >= SAME]))
    if not distinct and paper_like(table):
        # (on white marble a vein joined to the card's outline bends it out of a card's shape,
        # and the colour finds its tinted panel: the card's edge round what is printed on it)
        rim = _rim_round(image, [b for b in found if not b.touches_edge and _printed(colour, b) >= MIN_PRINT], scale)
        if rim is not None:
            return rim, table
    if not distinct:
        # (a card off the mat, on the table round it: what differs from the table's own
        # colour, seen along the photo's edges, the mat being what differs most)
        rim = np.median(np.concatenate([lab[:sh // 10].reshape(-1, 3), lab[-(sh // 10):].reshape(-1, 3),
                                        lab[:, :sw // 10].reshape(-1, 3), lab[:, -(sw // 10):].reshape(-1, 3)]), axis=0)
        around = _cleaned((np.linalg.norm(lab - rim, axis=2) > MAT_DISTANCE) & ~glare)
        off_mat = blobs_of(around, min_area=MIN_AREA * around.size, max_area=MAX_AREA * around.size, convex=True)
        # (a card off the mat that touches it: neither the mat's colour nor the table's)
        _no_card([b for b in found if _printed(colour, b) >= MIN_PRINT]
                 + [b for b in off_mat if _printed(around, b) >= MIN_PRINT], glare, grey, scale)
        # (a card off the mat that touches it, cut by the photo's edge: neither the mat's hue
        # nor the table's colour; a corner of a turned card is no rectangle, but convex)
        cut_off = convex_at_edge(_cleaned((_hue_mask(lab, table, glare) > 0) & (around > 0)))
        if cut_off is not None:
            raise EnrolmentError(CUT_MSG, reason="cut", where=cut_off / scale)
        raise EnrolmentError(NONE_MSG, reason="no_card")
    # (a card is printed: a card-sized patch of marble its veins close, with nothing printed
    # on it, is not a second card)
    distinct = [d for d in distinct if busy(grey, d) >= BUSY] or distinct
    if len(distinct) > 1 and 0.6 * distinct[0].rect_area < distinct[1].rect_area:
        raise EnrolmentError(TWO_MSG, reason="two_cards", where=distinct[1].quad / scale)
    card = distinct[0]
    side = None if paper_like(table) else open_side(lab, glare, card.quad, table)
    # (the mat's edge closed a part of a card that goes on past it, off the photo; a side
    # inside a reflection's halo may look open too: the fit below finds the card's edge there)
    grown = None if side is None else runs_off(card.quad, side, (sh, sw))
    if grown is not None:
        raise EnrolmentError(CUT_MSG, reason="cut", where=grown / scale)
    if _glare_at(glare, card, grey) or _sheen(small, card.quad):
        raise EnrolmentError(GLARE_MSG, reason="glare", where=card.quad / scale)
    return card.quad / scale, table


def _rim_round(image: np.ndarray, found: list[Blob], scale: float) -> np.ndarray | None:
    """The card's edge (full-resolution px) found round one of ``found`` (biggest first), wholly
    inside the photo and confirmed (the rim round it lies on it), or None. A reflection on it
    is refused."""
    h, w = image.shape[:2]
    for b in sorted(found, key=lambda b: -b.area):
        rim = card_rim(image, b.quad / scale)
        if rim is None or (rim < 2).any() or (rim[:, 0] > w - 3).any() or (rim[:, 1] > h - 3).any():
            continue
        area = cv2.contourArea(rim) / (w * h)
        if not MIN_AREA <= area <= MAX_AREA:
            continue
        try:
            rim = _confirmed(image, rim)
        except EnrolmentError:
            continue
        _check_light(image, rim, int(round(w * scale)))
        return rim
    return None


def _truest(same: list[Blob]) -> Blob:
    """Of the outlines found for one card (biggest first), the biggest that is as much a
    card's rectangle as the best of them: a closed outline that took in a vein of marble
    or the grain beside the card is bigger, but fills its rectangle less and is squarer."""
    fill = max(b.rectangular for b in same)
    shape = min(abs(b.aspect - CARD_ASPECT) for b in same)
    # (none both: the most card-shaped; a vein bent the fullest one)
    return next((b for b in same if b.rectangular >= fill - 0.03 and abs(b.aspect - CARD_ASPECT) <= shape + 0.05),
                min(same, key=lambda b: abs(b.aspect - CARD_ASPECT)))


def _printed(colour: np.ndarray, b: Blob) -> float:
    """The share of ``b`` that differs from the table's colour (a card's print at least:
    a closed outline in the table's own texture has none)."""
    inside = quad_mask(colour.shape, b.quad, 1)
    return np.count_nonzero(colour[inside > 0]) / max(np.count_nonzero(inside), 1)


def _glare_at(glare: np.ndarray, card: Blob, grey: np.ndarray) -> bool:
    """A reflection on the card or at its edge: clipped pixels just outside it (the card's
    paper alone may clip in bright light: not the table), or a patch inside it that is not
    all of its paper: one that took the print with it (a card's paper that clips in bright
    light keeps its print dark)."""
    inside = quad_mask(glare.shape, card.quad, 1)
    ring = (cv2.dilate(inside, np.ones((9, 9), np.uint8)) > 0) & (cv2.erode(inside, np.ones((5, 5), np.uint8)) == 0)
    shrunk_in = cv2.erode(inside, np.ones((5, 5), np.uint8)) > 0
    on = np.count_nonzero(glare & shrunk_in) / max(card.rect_area, 1.0)
    beside = np.count_nonzero(glare & ring & ~(cv2.dilate(inside, np.ones((3, 3), np.uint8)) > 0))
    if beside >= GLARE_ON_CARD * card.rect_area or GLARE_PATCH <= on <= 0.5:
        return True
    if on <= 0.5:
        return False
    core = cv2.morphologyEx((glare & shrunk_in).astype(np.uint8), cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8)) > 0
    return np.count_nonzero(core & (grey < 0.6 * 255)) < PRINT_LEFT * np.count_nonzero(core)


def _sheen(small: np.ndarray, quad: np.ndarray) -> bool:
    """A reflection on the card that clips nothing: the paper along the card's rim (blank in
    every deck; the middle of a card may be printed on a tinted panel) much brighter in one
    stretch than its middle level (linear light)."""
    q = order_quad(quad)
    c = q.mean(axis=0)
    q = c + (q - c) * 0.9  # (clear of the card's edge)
    w, h, band = 48, 72, 4
    t = cv2.getPerspectiveTransform(np.float32(q), np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
    luma = cv2.cvtColor(cv2.warpPerspective(small, t, (w, h), flags=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
    stretches = [luma[:band, x:x + 12] for x in range(0, w, 12)] + [luma[-band:, x:x + 12] for x in range(0, w, 12)]
    stretches += [luma[y:y + 12, :band] for y in range(0, h, 12)] + [luma[y:y + 12, -band:] for y in range(0, h, 12)]
    level = (np.array([np.percentile(p, 97) for p in stretches]) / 255.0) ** 2.2
    return float(level.max()) >= SHEEN_RATIO * float(np.median(level))


def _no_card(found: list[Blob], glare: np.ndarray, grey: np.ndarray, scale: float) -> None:
    """Why no card: a reflection joined to something card-sized inside the photo (that is
    what bent it out of a card's shape: on marble or glossy wood the reflection's halo is as
    unlike the table as the paper), a card-sized thing across the photo's edge, or nothing."""
    sizes = [b for b in found if 0.004 * glare.size <= b.area <= 0.08 * glare.size]
    for b in sizes:
        if not b.touches_edge and _glare_at(glare, b, grey):
            raise EnrolmentError(GLARE_MSG, reason="glare", where=b.quad / scale)
    # (a card cut by the edge is still a rectangle, not a strip of the table; of those, the
    # card is the one with print on it: a patch of felt in the lens's shade or of marble is not)
    # (a turned card's corner fills less of its rectangle, but it is printed)
    cut = [b for b in sizes if b.touches_edge and b.rectangular >= 0.5 and b.aspect <= 4.0]
    shares = [(busy(grey, b), b) for b in cut]
    printed = [(k, b) for k, b in shares if k >= BUSY]
    plain = [b for b in cut if b.rectangular >= 0.7]
    if printed or plain:
        card = max(printed, key=lambda kb: kb[0])[1] if printed else plain[0]
        raise EnrolmentError(CUT_MSG, reason="cut", where=card.quad / scale)


def find_card_on_mat(image: np.ndarray, *, work_width: int = 640) -> np.ndarray:
    """The quadrilateral (full-resolution pixels) of the one card lying on the mat (or a
    bare table): found by colour and by outline (:func:`spot_card`), then fitted
    to its edges. Raises :class:`EnrolmentError` with the true reason and where."""
    quad, table = spot_card(image, work_width=work_width)
    refined = _refined(image, quad, table)
    fitted = fit_edges(image, refined, table)
    if not paper_like(table):
        return fitted
    # (on white marble the colour may have found only what is printed on the card, its
    # tinted panel, or no edge at all: the card's edge is then found from its steps of light)
    rim = card_rim(image, quad)
    inside = rim is not None and cv2.pointPolygonTest(
        rim.reshape(-1, 1, 2), tuple(map(float, np.mean(fitted, axis=0))), False) > 0
    grown = inside and cv2.contourArea(rim) >= GROWN * cv2.contourArea(np.float32(fitted))
    # (the colour's fit when it moved the outline and the rim is not a card round it; else the
    # rim; then the rim round the colour's fit: the colour found the tinted panel, the fit
    # moved it part of the way out)
    first = fitted if rim is None or (not grown and fitted is not refined) else rim
    tries = [first] + [r for r in (rim, None if fitted is quad else card_rim(image, fitted))
                       if r is not None and r is not first]
    refusal = None
    for q in tries:
        try:
            if q is not fitted:
                _check_light(image, q, work_width)
            return _confirmed(image, q)
        except EnrolmentError as e:  # (a reflection on an outline is the truer cause)
            refusal = e if refusal is None or e.reason == "glare" and refusal.reason != "glare" else refusal
    if refusal.reason == "no_edge":  # (what was taken for the card is printed on it: a figure's robe)
        scale, _, glare, _, grey, colour, _, found = _looks(image, work_width)
        rim = _rim_round(image, [b for b in found if not b.touches_edge and _printed(colour, b) >= MIN_PRINT], scale)
        if rim is not None:
            return rim
        # (or a patch of marble was taken for the card, and the card is the print across the
        # photo's edge)
        _no_card([b for b in found if b.touches_edge and busy(grey, b) >= BUSY], glare, grey, scale)
    raise refusal


def _confirmed(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """An outline on a table as pale as the paper, kept only when the card's printed frame
    confirms it: the rim found round it again (vision.deck.rim) lies on it. An outline that took
    in a patch of marble beside the card, or a rectangle of its veins, is refused: the card's
    edge does not show there (the mat shows it)."""
    again = card_rim(image, quad)
    short = float(min(np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1)))
    if again is None or np.linalg.norm(order_quad(again) - order_quad(quad), axis=1).max() > CONFIRM * short:
        raise EnrolmentError(EDGE_MSG, reason="no_edge", where=np.float32(quad))
    return quad


def _check_light(image: np.ndarray, quad: np.ndarray, work_width: int) -> None:
    """:func:`spot_card`'s refusal of a reflection on or at the card, for an outline found later."""
    scale = work_width / image.shape[1]
    small = cv2.resize(image, (work_width, int(round(image.shape[0] * scale))), interpolation=cv2.INTER_AREA)
    glare = cv2.dilate((small.min(axis=2) >= GLARE).astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    grey = cv2.cvtColor(cv2.GaussianBlur(small, (5, 5), 0), cv2.COLOR_BGR2GRAY)
    q = np.float32(quad) * scale
    sides = np.linalg.norm(np.roll(q, -1, axis=0) - q, axis=1)
    card = Blob(q, float(cv2.contourArea(q)), float(sides[0] * sides[1]), 1.0, False)
    if _glare_at(glare, card, grey) or _sheen(small, q):
        raise EnrolmentError(GLARE_MSG, reason="glare", where=np.float32(quad))


def _refined(image: np.ndarray, quad: np.ndarray, mat_lab: np.ndarray) -> np.ndarray:
    """The outline again at full resolution, around the rough one: the learnt view is
    the reference every dealt card is compared with, so its outline must be exact."""
    h, w = image.shape[:2]
    x0, y0 = np.maximum(quad.min(axis=0) - 0.15 * np.ptp(quad, axis=0), 0).astype(int)
    x1, y1 = np.minimum(quad.max(axis=0) + 0.15 * np.ptp(quad, axis=0), (w, h)).astype(int)
    roi = cv2.GaussianBlur(image[y0:y1, x0:x1], (3, 3), 0)
    dist = np.linalg.norm(cv2.cvtColor(roi, cv2.COLOR_BGR2LAB).astype(np.float32) - mat_lab, axis=2)
    d8 = np.clip(dist * 2, 0, 255).astype(np.uint8)
    level, _ = cv2.threshold(d8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = (d8 > level).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7)))
    blobs = blobs_of(mask, min_area=0.3 * cv2.contourArea(np.float32(quad)), convex=True)
    good = [b for b in blobs if b.card_shaped and not b.touches_edge]
    if not good:
        return quad
    # (a reflection's halo beside the card, as unlike the table as the paper, takes the
    # threshold with it: an outline that moved the rough one's corners far is not kept)
    out = order_quad(good[0].quad + np.float32([x0, y0]))
    short = min(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1))
    return out if np.linalg.norm(out - order_quad(quad), axis=1).max() <= 0.1 * short else quad
