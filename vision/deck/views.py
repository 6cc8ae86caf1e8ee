"""A card's quadrilateral warped flat, normalised for light, and turned into features.

The whole card is compared, not a corner: a whole-card template averages out noise, blur
and small misplacements of the quadrilateral. Light is taken out in two steps: a plane
fitted to the luma (the lamp's gradient across the card) is removed, then the
template is brought to zero mean and unit length, so normalised cross-correlation is a dot
product; what a card on the table is compared by is that lightness against its own
neighbourhood (:func:`local_contrast`, worked out from those features on both sides), so
a reflection over part of the card does not take that part's say. Colour is kept at low
resolution, relative to the card's own mean (a lamp's colour cast cancels), because the
suit colours separate suits that share a layout. The rank-index corners are kept at
4 px/mm for the second look at score-changing confusions, and aligned on their own there
(:func:`corner_score`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

import cv2
import numpy as np

from vision.deck.glare import burnt_cells, glare_cells

# Flat card, portrait, 61 x 95 mm.
WARP_W, WARP_H = 96, 150
CELL = 3  # warp pixels per cell of the lightness template
WHOLE_W, WHOLE_H = WARP_W // CELL, WARP_H // CELL
# Suit colours separate suits whose signs have the same lightness (a blue sword, a green
# club): blocks of 6 x 6 warp px keep a pip's colour from being averaged with the paper.
CHROMA_W, CHROMA_H = 16, 24
CHROMA_WEIGHT = 1.0
PAPER_SHARE = 0.85  # of a card's pixels may be darker than its paper (a face card's figure covers half)
# The rank index sits in the top-left and bottom-right corners (turned half a turn).
CARD_W_MM, CARD_H_MM = 61.0, 95.0
CORNER_MM = (0.5, 0.5, 19.0, 24.0)  # x0, y0, x1, y1 of the index region, from the top-left
CORNER_PX_PER_MM = 4.0
CORNER_SLIDE = 10  # pixels (2.5 mm): the learnt corner's middle is slid this far each way...
# ...and this much further on a card on the table: the outline is aligned on the whole card,
# without turning it, so a turn of a few degrees left over moves an index 50 mm from the
# card's middle by another 2-3 mm (the index slid off its own place, "10" matched "12" best)
CORNER_AROUND_MM = 2.0
CORNER_TURN_DEG = 8.0  # the corner's own alignment: at most this turn...
CORNER_SHIFT = 4.0  # ...and this many pixels (1 mm) from the slide's best place
_ECC = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 30, 1e-3)
EDGE_CROP = 0.05
# The rank-index corners' cells (top-left; bottom-right is the same turned), for the glare
# test: CORNER_MM through the warp (EDGE_CROP) at CELL px per cell.
CORNER_CELLS = (12, 10)


def inward_normal(a: np.ndarray, b: np.ndarray, centre: np.ndarray) -> np.ndarray:
    """The unit normal of a quad's side ``a``-``b`` that points towards ``centre`` (inside)."""
    along = (b - a) / max(float(np.linalg.norm(b - a)), 1e-6)
    normal = np.float64([-along[1], along[0]])
    return normal if np.dot(centre - a, normal) >= 0 else -normal


def order_quad(quad: np.ndarray) -> np.ndarray:
    """Corners as top-left, top-right, bottom-right, bottom-left of a PORTRAIT card
    (the long sides are the left and right ones); which short side is "top" is arbitrary,
    so every card is compared in both orientations."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    c = q.mean(axis=0)
    ang = np.arctan2(q[:, 1] - c[1], q[:, 0] - c[0])
    q = q[np.argsort(ang)]  # clockwise in image coordinates
    if np.linalg.norm(q[0] - q[1]) > np.linalg.norm(q[1] - q[2]):
        q = np.roll(q, -1, axis=0)
    return q


# A thin band is cropped: the card's edge and the table behind it are the least
# repeatable pixels. _WARP_CARD: where the card's own corners fall in the warp.
_M = EDGE_CROP * WARP_W
_WARP_CARD = np.float32([[-_M, -_M], [WARP_W - 1 + _M, -_M], [WARP_W - 1 + _M, WARP_H - 1 + _M],
                         [-_M, WARP_H - 1 + _M]])


def _warp(image: np.ndarray, q: np.ndarray, pad: int) -> tuple[np.ndarray, np.ndarray]:
    """``q`` in portrait order; also gives the map from the warp back to ``image``."""
    t = cv2.getPerspectiveTransform(np.float32(q), _WARP_CARD + np.float32(pad))
    flat = cv2.warpPerspective(image, t, (WARP_W + 2 * pad, WARP_H + 2 * pad), flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE)
    return flat, np.linalg.inv(t)


def warp_card(image: np.ndarray, quad: np.ndarray, *, pad: int = 0) -> np.ndarray:
    """The card as a WARP_W x WARP_H BGR image (portrait), with ``pad`` more pixels of
    its surroundings on every side (room to search for the best alignment)."""
    return _warp(image, order_quad(quad), pad)[0]


def warp_and_back(image: np.ndarray, quad: np.ndarray, pad: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`warp_card` and the map from that warp back to ``image`` (3 x 3); the card's
    own corners fall at ``card_in_warp(pad)`` in it."""
    return _warp(image, order_quad(quad), pad)


def card_in_warp(pad: int) -> np.ndarray:
    """Where the card's corners (portrait order) fall in a warp with ``pad`` pixels around."""
    return _WARP_CARD + np.float32(pad)


@lru_cache(maxsize=8)
def _plane_basis(h: int, w: int) -> tuple[np.ndarray, np.ndarray]:
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = np.stack([xx.ravel(), yy.ravel(), np.ones(h * w, np.float32)], axis=1)
    return a, np.linalg.pinv(a).astype(np.float32)


def _flatten_rows(x: np.ndarray, h: int, w: int) -> np.ndarray:
    """Rows of ``x`` (each an h x w patch) with their best plane removed, unit length."""
    a, pinv = _plane_basis(h, w)
    x = x - (x @ pinv.T) @ a.T
    x -= x.mean(axis=1, keepdims=True)
    n = np.linalg.norm(x, axis=1, keepdims=True)
    return x / np.maximum(n, 1e-6)


# Local contrast: each cell's lightness against its neighbourhood's (a Gaussian of this
# many cells, about 8 mm), with a floor of this share of the card's own contrast.
LOCAL_SIGMA_CELLS = 4.0
LOCAL_FLOOR = 0.5


@lru_cache(maxsize=4)
def _gauss_matrix(n: int, sigma: float) -> np.ndarray:
    """A Gaussian blur along one axis of ``n`` (reflected at the ends) as a matrix, so
    every view's map is blurred in one product."""
    return cv2.GaussianBlur(np.eye(n, dtype=np.float32), (1, 0), 0, sigmaY=sigma, borderType=cv2.BORDER_REFLECT)


def local_contrast(features: np.ndarray) -> np.ndarray:
    """Whole-card features (rows of :func:`views_around`'s and the learnt deck's) with
    the lightness cells made relative to their neighbourhood: its mean taken out, divided
    by its spread. A lamp's reflection adds light over part of the card; in a frame
    exposed for the paper (or a darker one, where the reflection sits in the camera's
    tone-curve shoulder) that part's print keeps its shapes but loses contrast, and a
    plane removed over the whole card leaves it there with less say than the rest, and a
    bright bump that matches nothing. Measured against its own neighbourhood, the print
    counts the same under the reflection as beside it. The floor keeps plain paper's
    noise from being blown up. The chroma part is kept as it was (its weight against the
    lightness too); every row unit length again."""
    n = WHOLE_H * WHOLE_W
    light = features[:, :n].reshape(-1, WHOLE_H, WHOLE_W)
    gh, gw = _gauss_matrix(WHOLE_H, LOCAL_SIGMA_CELLS), _gauss_matrix(WHOLE_W, LOCAL_SIGMA_CELLS)

    def blur(x: np.ndarray) -> np.ndarray:  # (two plain 2-D products, not a batch of small ones)
        v = len(x)
        cols = (x.reshape(-1, WHOLE_W) @ gw.T).reshape(v, WHOLE_H, WHOLE_W)
        rows = gh @ np.ascontiguousarray(cols.transpose(1, 0, 2)).reshape(WHOLE_H, -1)
        return rows.reshape(WHOLE_H, v, WHOLE_W).transpose(1, 0, 2)

    d = light - blur(light)
    spread = np.sqrt(np.maximum(blur(d * d), 0.0))
    rms = np.sqrt((d * d).mean(axis=(1, 2), keepdims=True))
    rel = (d / (spread + LOCAL_FLOOR * np.maximum(rms, 1e-9))).reshape(len(features), n)
    rel -= rel.mean(axis=1, keepdims=True)
    rel /= np.maximum(np.linalg.norm(rel, axis=1, keepdims=True), 1e-9)
    # the chroma's weight was set against a unit lightness part
    chroma = features[:, n:] / np.maximum(np.linalg.norm(features[:, :n], axis=1, keepdims=True), 1e-9)
    out = np.concatenate([rel, chroma], axis=1)
    return (out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)).astype(np.float32)


@dataclass
class CardView:
    """One card seen flat at one alignment: the whole-card feature; the rank-index
    corners are warped afresh from the frame, at a finer scale, only when asked for (the
    second look is rare and the index is small)."""

    whole: np.ndarray  # float32 unit vector
    frame: np.ndarray  # the photo the card is in
    quad: np.ndarray  # the card's corners in it, portrait order (see order_quad)
    glare: float  # share of the card's cells that hold a reflection (grown by its halo)
    glare_cells: np.ndarray | None = None  # WHOLE_H x WHOLE_W bool, True: a reflection
    burnt_cells: np.ndarray | None = None  # the same, True: the reflection left nothing of the print

    @property
    def clear_corners(self) -> tuple[int, ...]:
        """The rank-index corners (0 top-left, 1 bottom-right) no reflection touches."""
        if self.glare_cells is None:
            return (0, 1)
        r, c = CORNER_CELLS
        hit = (self.glare_cells[:r, :c].any(), self.glare_cells[-r:, -c:].any())
        return tuple(i for i in (0, 1) if not hit[i])

    @cached_property
    def corners(self) -> np.ndarray:
        """The two rank-index corners (top-left, and bottom-right turned), luma, 2 x H x W:
        what a learnt deck keeps."""
        return np.stack([_corner(self.frame, self.quad, turned) for turned in (False, True)])

    @cached_property
    def corners_around(self) -> np.ndarray:
        """The same corners with ``CORNER_AROUND_MM`` more on every side: where a learnt
        index is looked for on a card on the table."""
        return np.stack([_corner(self.frame, self.quad, turned, CORNER_AROUND_MM) for turned in (False, True)])


def _corner(frame: np.ndarray, quad: np.ndarray, turned: bool, grow_mm: float = 0.0) -> np.ndarray:
    q = quad[[2, 3, 0, 1]] if turned else quad
    ppm = CORNER_PX_PER_MM
    x0, y0, x1, y1 = np.add(CORNER_MM, (-grow_mm, -grow_mm, grow_mm, grow_mm))
    card = np.float32([[0, 0], [CARD_W_MM, 0], [CARD_W_MM, CARD_H_MM], [0, CARD_H_MM]])
    dst = (card - (x0, y0)) * ppm
    t = cv2.getPerspectiveTransform(np.float32(q), np.float32(dst))
    size = (int(round((x1 - x0) * ppm)), int(round((y1 - y0) * ppm)))
    patch = cv2.warpPerspective(frame, t, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).astype(np.float32)


def corner_score(learnt: np.ndarray, seen: np.ndarray, use: tuple[int, ...] = (0, 1), *,
                 fine: bool = True) -> float:
    """How alike two pairs of corners are: the middle of each learnt corner is aligned
    to the seen one (:func:`_aligned_score`; only slid when not ``fine``), normalised
    cross-correlation, the worse of the corners in ``use`` (both carry the same index;
    one under a reflection is left out)."""
    m = CORNER_SLIDE
    scores = [_aligned_score(np.ascontiguousarray(learnt[i, m:-m, m:-m]), seen[i], fine=fine) for i in use]
    return min(scores) if scores else 0.0


def _ncc(a: np.ndarray, b: np.ndarray) -> float:
    a, b = a - a.mean(), b - b.mean()
    return float((a * b).sum() / max(float(np.sqrt((a * a).sum() * (b * b).sum())), 1e-9))


def _half(image: np.ndarray) -> np.ndarray:
    h, w = image.shape[0] // 2, image.shape[1] // 2
    return cv2.resize(image[:2 * h, :2 * w], (w, h), interpolation=cv2.INTER_AREA)


def _aligned_score(template: np.ndarray, seen: np.ndarray, *, fine: bool = True) -> float:
    """The best correlation of ``template`` over ``seen``: slid a few millimetres each
    way (the outline's leftover shift), then turned and shifted by sub-pixel steps
    (ECC, from the slide's best place). The index is a few millimetres: the whole card's
    outline can leave it a degree or two turned, which costs more of the few strokes
    telling a "10" from a "12" than the strokes themselves. Every learnt corner compared
    gets the same search, so no rank is favoured; only a rigid motion is searched (it
    cannot bend one numeral into another), and the slide's figure is kept when it is the
    better one."""
    res = cv2.matchTemplate(seen, template, cv2.TM_CCOEFF_NORMED)
    _, slid, _, (x, y) = cv2.minMaxLoc(res)
    if not fine:
        return float(slid)
    # (the motion is found at half the scale: the index is drawn at twice the pixels a
    # camera gives it, and a quarter of the pixels is a quarter of the time)
    start = np.float32([[1, 0, x / 2], [0, 1, y / 2]])
    try:
        _, half = cv2.findTransformECC(_half(template), _half(seen), start.copy(), cv2.MOTION_EUCLIDEAN, _ECC,
                                       None, 3)
    except cv2.error:  # no convergence (a flat patch): the slide's figure stands
        return float(slid)
    # back to full scale (a half-scale pixel's centre is between two full-scale ones)
    warp = half.copy()
    warp[:, 2] = 2 * half[:, 2] + 0.5 * (1 - half[:, :2].sum(axis=1))
    start = np.float32([[1, 0, x], [0, 1, y]])
    turn = np.degrees(np.arctan2(warp[1, 0], warp[0, 0]))
    if abs(turn) > CORNER_TURN_DEG or np.abs(warp[:, 2] - start[:, 2]).max() > CORNER_SHIFT:
        return float(slid)  # wandered off: not the same place any more
    h, w = template.shape
    turned = cv2.warpAffine(seen, warp, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                            borderMode=cv2.BORDER_REPLICATE)
    return max(float(slid), _ncc(turned, template))


@lru_cache(maxsize=4)
def _area_matrix(n_in: int, n_out: int) -> np.ndarray:
    """cv2.resize's INTER_AREA along one axis as a matrix (it is linear and separable), so
    the chroma of every alignment is resampled in one product, not one resize each."""
    eye = np.eye(n_in, dtype=np.float32)
    return cv2.resize(eye, (n_in, n_out), interpolation=cv2.INTER_AREA)


def _chroma(ab_cells: np.ndarray) -> np.ndarray:
    """From the card's chroma at cell resolution (views x WHOLE_H x WHOLE_W x 2): each
    view's is a crop of the one cell map, not a resize of its own full-resolution crop."""
    n = len(ab_cells)
    # two plain 2-D products (a batched one is a loop over small matrices)
    cols = np.moveaxis(ab_cells, -1, 1).reshape(-1, WHOLE_W) @ _area_matrix(WHOLE_W, CHROMA_W).T
    rows = np.swapaxes(cols.reshape(n, 2, WHOLE_H, CHROMA_W), 2, 3).reshape(-1, WHOLE_H)
    small = (rows @ _area_matrix(WHOLE_H, CHROMA_H).T).reshape(n, 2, CHROMA_W, CHROMA_H)
    ab = np.transpose(small, (0, 3, 2, 1)).reshape(n, -1, 2)  # views x (CHROMA_H x CHROMA_W) x 2
    # (each view's mean a over its blocks, b alike: numpy sums a middle axis one block after another, in
    # float32; so does a sum down the first axis, every view's a and b side by side: the very same sums,
    # at a seventh of the time)
    blocks = np.transpose(small, (3, 2, 0, 1)).reshape(CHROMA_H * CHROMA_W, n * 2)
    ab = ab - np.true_divide(np.add.reduce(blocks, axis=0), CHROMA_H * CHROMA_W).reshape(n, 1, 2)
    # a grey card does not get its noise blown up to full weight
    norm = np.maximum(np.linalg.norm(ab.reshape(len(ab), -1), axis=1, keepdims=True), 25.0)
    return CHROMA_WEIGHT * ab.reshape(len(ab), -1) / norm


def _views(ycc: np.ndarray, offsets: list[tuple[int, int]], frame: np.ndarray, to_frame: np.ndarray,
           pad: int) -> list[CardView]:
    """Views at warp-pixel ``offsets`` (multiples of CELL) into a padded YCrCb warp;
    ``to_frame`` maps the padded warp back to ``frame``."""
    h, w = ycc.shape[:2]
    cells = cv2.resize(ycc, (w // CELL, h // CELL), interpolation=cv2.INTER_AREA).astype(np.float32)
    crops = np.stack([cells[dy // CELL:dy // CELL + WHOLE_H, dx // CELL:dx // CELL + WHOLE_W]
                      for dx, dy in offsets])
    light = _flatten_rows(crops[..., 0].reshape(len(offsets), -1), WHOLE_H, WHOLE_W)
    whole = np.concatenate([light, _chroma(crops[..., 1:])], axis=1).astype(np.float32)
    whole /= np.maximum(np.linalg.norm(whole, axis=1, keepdims=True), 1e-12)
    cards = _WARP_CARD[None] + np.float32(offsets)[:, None, :]
    quads = cv2.perspectiveTransform(cards.reshape(1, -1, 2), to_frame).reshape(-1, 4, 2)
    return [CardView(row, frame, quad, 0.0) for row, quad in zip(whole, quads)]


def paper_gains(bgr: np.ndarray) -> np.ndarray:
    """Per-channel gains that make the card's paper grey: a card's brightest pixels are its
    paper, so its ``PAPER_SHARE`` level in each channel is the paper's colour under this
    light (a reflection there is white: no gain). A lamp's
    colour, or a camera's white balance unlike the one the deck was learnt under, then
    leaves the suits' colours where they were (the chroma's own mean is taken out later,
    but a cast scales the colours too, and a warm light pulls a blue sword towards a green
    club)."""
    flat = bgr[::2, ::2].reshape(-1, 3)
    k = int(PAPER_SHARE * len(flat))
    paper = np.partition(flat, k, axis=0)[k].astype(np.float32)
    return paper.mean() / np.maximum(paper, 1.0)


_LEVELS = np.arange(256, dtype=np.uint8).reshape(1, 256, 1).repeat(3, axis=2)  # every level, in each channel


def _ycc(bgr: np.ndarray, gains: np.ndarray) -> np.ndarray:
    # (every pixel's balanced level depends on its level and channel alone: each level balanced
    # once, the warp's pixels looked up)
    balanced = cv2.LUT(bgr, cv2.convertScaleAbs(_LEVELS.astype(np.float32) * gains))
    return cv2.cvtColor(balanced, cv2.COLOR_BGR2YCrCb)


def _glare(bgr: np.ndarray) -> np.ndarray:
    return glare_cells(bgr, (WHOLE_H, WHOLE_W))


def views_both_ways(image: np.ndarray, quad: np.ndarray) -> tuple[CardView, CardView]:
    """The card at ``quad`` in ``image`` as seen, and turned half a turn (enrolment)."""
    q = order_quad(quad)
    out = []
    for qq in (q, q[[2, 3, 0, 1]]):
        flat, back = _warp(image, qq, 0)
        v = _views(_ycc(flat, paper_gains(flat)), [(0, 0)], image, back, 0)[0]
        v.glare_cells, v.burnt_cells = _glare(flat), burnt_cells(flat, (WHOLE_H, WHOLE_W))
        v.glare = float(v.glare_cells.mean())
        out.append(v)
    return out[0], out[1]


def views_around(image: np.ndarray, quad: np.ndarray, *, reach: int = 6,
                 scales: tuple[float, ...] = (0.97, 1.0, 1.03)) -> list[CardView]:
    """Views of the card at ``quad``, shifted by up to ``reach`` warp pixels each way
    and slightly shrunk or grown: an outline found from a frame difference can be a few
    millimetres off (blur, shadow), and whole-card correlation drops fast with
    misalignment, so the best alignment is searched, not assumed."""
    q = order_quad(quad)
    centre = q.mean(axis=0)
    steps = range(0, 2 * reach + 1, CELL)
    offsets = [(dx, dy) for dy in steps for dx in steps]
    out: list[CardView] = []
    warps = {scale: _warp(image, centre + (q - centre) * scale, reach) for scale in scales}
    # one mask and one white balance for every alignment, from the card as outlined
    # (the mask grown by the search's reach: GROW_CELLS)
    middle = warps[1.0][0][reach:-reach, reach:-reach] if 1.0 in warps else None
    cells = _glare(middle) if middle is not None else None
    burnt = burnt_cells(middle, (WHOLE_H, WHOLE_W)) if middle is not None else None
    gains = paper_gains(middle if middle is not None else warps[scales[0]][0])
    for scale in scales:
        padded, back = warps[scale]
        out += _views(_ycc(padded, gains), offsets, image, back, reach)
    share = float(cells.mean()) if cells is not None else 0.0
    for v in out:
        v.glare_cells, v.burnt_cells, v.glare = cells, burnt, share
    return out
