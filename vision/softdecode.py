"""Soft decision on a square that may be one of our markers: which code, or none.

ArUco's own decoder thresholds each cell to one bit and corrects up to 3 wrong bits; on a
19-24 px marker smeared by defocus, demosaicing and sharpening halos, many cells sit near
the threshold and the hard bits are wrong in more places than that, though the marker is
legible to the eye. Here nothing is thresholded:

1. the square's four corners are refined (sub-pixel) and the square, with its white quiet
   zone, is warped by its homography to a canonical grid (``PX_PER_CELL`` px per cell);
2. every cell gives the MEAN over its centre area (half the cell), not a single pixel;
3. each hypothesis -- every code of the family (ours and the others) in its 4 rotations,
   seen through a blur of ``BLUR_CELLS`` -- predicts those means (black border, the bits,
   the quiet zone white). Contrast and brightness are fitted per hypothesis (the black
   border ring and the white quiet zone fix them), so glare fall-off or a dim corner do not
   matter; what is left is the residual;
4. the log-likelihood of each hypothesis under Gaussian noise is ``-n/2 log(RSS/n)``. The
   best of our codes is accepted only when it beats the best hypothesis naming a DIFFERENT
   marker (our other 55, and the 194 other codes of the 6x6 family, which stand for "some
   other marker / not ours") by ``min_margin`` nats, AND it explains the square well
   (the cells' pattern correlates with it at ``min_fit``), AND no cell is confidently the
   opposite of what the code says. Otherwise the square is "seen but not read".

The margin is a likelihood ratio, not a threshold fitted to one set of pictures: 12 nats
means the chosen code is e^12 (about 160 000) times more likely than any other marker.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.marks import ALL_IDS, CARD_IDS, FAMILY

MARKER_CELLS = 8  # 6x6 bits and a one-cell black border
QUIET = 1.0  # the printed white quiet zone around the marker, in cells
CANVAS = MARKER_CELLS + 2 * QUIET + 1.0  # half a cell of whatever lies beyond, each side
PX_PER_CELL = 6
BLUR_CELLS = (0.0, 0.25, 0.4, 0.55, 0.7)  # the blurs a hypothesis may be seen through
UNKNOWN = 0.5  # what lies beyond the quiet zone (card art, the sticker's label): mid-grey


@dataclass(frozen=True)
class SoftRead:
    """One square decided: ``index`` into ``vision.marks.ALL_IDS`` (None: not read),
    ``rotation`` (quarter turns that bring the code upright), ``margin`` (nats over the best
    other marker), ``fit`` (correlation of the cells with the chosen code), and ``corners``
    (refined, in the image, starting at the code's own top-left). ``doubted``: not read,
    yet one card's code fits it clearly (fit and margin passed) and only a cell or two say
    otherwise: a sticker of ours, a card that must be asked about, not left out."""
    index: int | None
    rotation: int
    margin: float
    fit: float
    corners: np.ndarray
    why: str = ""
    doubted: bool = False

    @property
    def read(self) -> bool:
        return self.index is not None


def _sample_boxes() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Canvas pixel boxes (y0, y1, x0, x1) whose means are the observations: the 8x8 marker
    cells and the ring of quiet-zone cells around them; and which are marker cells."""
    off = (CANVAS - MARKER_CELLS) / 2  # canvas cells before the marker's first cell
    boxes, is_marker = [], []
    for r in range(-1, MARKER_CELLS + 1):
        for c in range(-1, MARKER_CELLS + 1):
            ring = r in (-1, MARKER_CELLS) or c in (-1, MARKER_CELLS)
            y, x = (r + off + 0.5) * PX_PER_CELL, (c + off + 0.5) * PX_PER_CELL
            h = PX_PER_CELL * 0.25
            boxes.append((int(round(y - h)), int(round(y + h)), int(round(x - h)), int(round(x + h))))
            is_marker.append(not ring)
    b = np.array(boxes, np.int32)
    return b, np.array(is_marker), b


def _box_means(canvas: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    ii = cv2.integral(canvas.astype(np.float32))
    y0, y1, x0, x1 = boxes.T
    s = ii[y1, x1] - ii[y0, x1] - ii[y1, x0] + ii[y0, x0]
    return s / ((y1 - y0) * (x1 - x0))


def _blur_means(canvas: np.ndarray, blur_cells: float) -> np.ndarray:
    seen = cv2.GaussianBlur(canvas, (0, 0), blur_cells * PX_PER_CELL) if blur_cells else canvas
    return _box_means(seen, _sample_boxes()[0])


@lru_cache(maxsize=1)
def _linear_model() -> tuple[np.ndarray, np.ndarray]:
    """Blur is linear, so a code's predicted box means are ``C0[s] + K[k, s] @ bits``:
    C0[s] (n,) the square with every bit black (border black, quiet zone white, beyond
    unknown), K[k, s] (n, 36) what one white bit adds, turned k quarter turns."""
    n_px = int(round(CANVAS * PX_PER_CELL))
    off = int(round((CANVAS - MARKER_CELLS) / 2 * PX_PER_CELL))
    quiet = int(round(QUIET * PX_PER_CELL))
    base = np.full((n_px, n_px), UNKNOWN, np.float32)
    base[off - quiet:n_px - off + quiet, off - quiet:n_px - off + quiet] = 1.0
    base[off:n_px - off, off:n_px - off] = 0.0
    c0 = np.array([_blur_means(base, s) for s in BLUR_CELLS], np.float32)
    k_mat = np.zeros((4, len(BLUR_CELLS), c0.shape[1], 36), np.float32)
    for k in range(4):
        for j in range(36):
            bit = np.zeros((6, 6), np.float32)
            bit.flat[j] = 1.0
            cell = np.zeros((MARKER_CELLS, MARKER_CELLS), np.float32)
            cell[1:-1, 1:-1] = np.rot90(bit, -k)  # the code as seen turned k quarter turns
            canvas = np.zeros((n_px, n_px), np.float32)
            canvas[off:n_px - off, off:n_px - off] = cv2.resize(
                cell, (n_px - 2 * off, n_px - 2 * off), interpolation=cv2.INTER_NEAREST)
            for si, s in enumerate(BLUR_CELLS):
                k_mat[k, si, :, j] = _blur_means(canvas, s)
    return c0, k_mat


def _mv(m: np.ndarray, v: np.ndarray) -> np.ndarray:
    """m @ v without BLAS: its thread pool wakes every core for a 100-long product and, on a
    busy Pi, waits for them (70 times slower, measured); einsum stays on this thread."""
    return np.einsum("...n,n->...", m, v)


def _unit(t: np.ndarray) -> np.ndarray:
    t = t - t.mean(axis=-1, keepdims=True)
    return t / np.maximum(np.linalg.norm(t, axis=-1, keepdims=True), 1e-9)


@lru_cache(maxsize=2)
def _templates(family: str = FAMILY) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(T, code, rotation, blur, bits): T[h] = predicted box means of hypothesis h = (code of
    the family, rotation, blur), centred and scaled to unit norm; bits[code] (36,)."""
    d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, family))
    m = d.markerSize
    bits = np.array([cv2.aruco.Dictionary.getBitsFromByteList(d.bytesList[i:i + 1], m).ravel()
                     for i in range(d.bytesList.shape[0])], np.float32)
    c0, k_mat = _linear_model()
    rows, codes, rots, blurs = [], [], [], []
    for k in range(4):
        for si in range(len(BLUR_CELLS)):
            rows.append(c0[si][None, :] + bits @ k_mat[k, si].T)
            codes.append(np.arange(len(bits)))
            rots.append(np.full(len(bits), k))
            blurs.append(np.full(len(bits), si))
    t = _unit(np.concatenate(rows).astype(np.float32))
    return (t, np.concatenate(codes).astype(np.int32), np.concatenate(rots).astype(np.int32),
            np.concatenate(blurs).astype(np.int32), bits)


def _free_gain(obs_u: np.ndarray, bits: np.ndarray, c0: np.ndarray, k_mat: np.ndarray, n: int,
               *, max_flips: int = 8) -> tuple[float, int]:
    """How much better than the code ANY 36-bit pattern explains the square: greedy bit
    flips from the code while one gains likelihood. Returns (nats gained, bits flipped)."""
    b = bits.copy()

    def ll(pred: np.ndarray) -> np.ndarray:
        r = np.clip(_mv(_unit(pred), obs_u), 0.0, 0.999999)
        return -0.5 * n * np.log1p(-r * r)

    start = now = float(ll(c0 + _mv(k_mat, b)))
    flipped = 0
    for _ in range(max_flips):
        pred = c0 + _mv(k_mat, b)
        trial = pred[None, :] + (k_mat * (1 - 2 * b)[None, :]).T  # (36, n): each bit flipped
        gains = ll(trial)
        j = int(np.argmax(gains))
        if gains[j] <= now + 1e-6:
            break
        b[j] = 1 - b[j]
        now = float(gains[j])
        flipped += 1
    return now - start, flipped


@lru_cache(maxsize=2)
def _family_to_ours(family: str = FAMILY) -> np.ndarray:
    """For each code of the family: its index in ALL_IDS (ours), or -1."""
    n = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, family)).bytesList.shape[0]
    out = np.full(n, -1, np.int32)
    for j, i in enumerate(ALL_IDS):
        out[i] = j
    return out


@lru_cache(maxsize=2)
def _sample_points(k: int = 4) -> np.ndarray:
    """(boxes * k*k, 2) points in marker cell units (the marker spans 0..8): a k x k grid
    inside each observation box, the same boxes the templates average over. The pose search
    uses k = 2 (a quarter of the work), the decision k = 4."""
    boxes, _, _ = _sample_boxes()
    off = (CANVAS - MARKER_CELLS) / 2
    pts = []
    for y0, y1, x0, x1 in boxes:
        ys = y0 + (np.arange(k) + 0.5) * (y1 - y0) / k
        xs = x0 + (np.arange(k) + 0.5) * (x1 - x0) / k
        yy, xx = np.meshgrid(ys, xs, indexing="ij")
        pts.append(np.stack([xx.ravel(), yy.ravel()], 1) / PX_PER_CELL - off)
    return np.concatenate(pts).astype(np.float32)


def _points(corners: np.ndarray, k: int = 4) -> np.ndarray:
    """The sample points of one pose in the image: (boxes * k*k, 2)."""
    unit = np.float32([[0, 0], [MARKER_CELLS, 0], [MARKER_CELLS, MARKER_CELLS], [0, MARKER_CELLS]])
    hom = cv2.getPerspectiveTransform(unit, corners.reshape(4, 2).astype(np.float32))
    pts = cv2.perspectiveTransform(_sample_points(k).reshape(-1, 1, 2), hom)
    return pts.reshape(-1, 2)


def _sample(gray: np.ndarray, xy: np.ndarray, k: int = 4) -> np.ndarray:
    """Box means at (P, boxes * k*k, 2) image points: (P, boxes). One two-channel map, a row
    per pose, and the k*k points of a box summed column by column (numpy's mean along a
    4-long axis is ten times slower): the soft decision's pose search is most of its time."""
    n_pose = xy.shape[0]
    xy = np.ascontiguousarray(xy.reshape(n_pose, -1, 2), np.float32)  # remap wants under 32k columns
    vals = cv2.remap(gray, xy, None, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    vals = vals.reshape(n_pose, -1, k * k).astype(np.float32)
    total = vals[..., 0].copy()
    for j in range(1, k * k):
        total += vals[..., j]
    return total / np.float32(k * k)


def observe(gray: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The box means of the square (marker cells and quiet-zone ring), raw grey levels,
    sampled bilinearly straight from the image through the square's homography."""
    return _sample(gray, _points(corners)[None])[0]


# grey levels from the black border to the white quiet zone. A gingham cloth's checks that
# reach the cheap look show 6-12 (the weave's stripes), every sticker that reached the soft
# decision on the benches' frames and the veil sweep 12 and up: at 10 a third of the cloth's
# soft decisions (1.2 ms each) go, no card is lost
MIN_RING_CONTRAST = 10.0
MIN_BITS_SPREAD = 0.2  # the code cells' spread against that contrast (markers: 0.4 and up)


@lru_cache(maxsize=1)
def _screen_grid() -> tuple[np.ndarray, np.ndarray]:
    """(u, v), each (400,): 4 points in each of the 10 x 10 boxes (the 8 x 8 marker cells
    and the quiet-zone ring), in units of the marker's side (0..1 across the marker)."""
    cells = np.arange(-1, MARKER_CELLS + 1, dtype=np.float32) + 0.5
    sub = np.float32([-0.125, 0.125])
    y = cells[:, None, None, None] + sub[None, None, :, None]  # box row, sub-row
    x = cells[None, :, None, None] + sub[None, None, None, :]  # box column, sub-column
    u = np.broadcast_to(x, (10, 10, 2, 2)).ravel() / MARKER_CELLS
    v = np.broadcast_to(y, (10, 10, 2, 2)).ravel() / MARKER_CELLS
    return u.astype(np.float32), v.astype(np.float32)


def looks_like_marker(gray: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """For each quad (n, 4, 2): could it be a marker at all? A black border ring inside a
    lighter quiet zone, and code cells that differ from one another. A square of a checked
    tablecloth, a printed box, a light square in a dark ring: no. Cheap (one bilinear grid
    of 400 points per quad, all quads in one remap), so that only the squares worth it reach
    the soft decision (``SoftDecoder.decode``). The limits hold with a wide margin: a
    marker washed out by glare keeps its ring darker than its quiet zone and its cells apart
    (0.4 of the contrast at the least, on the realistic camera)."""
    quads = np.asarray(quads, np.float32).reshape(-1, 4, 2)
    if not len(quads):
        return np.zeros(0, bool)
    u, v = _screen_grid()
    q0, along, down = quads[:, 0], quads[:, 1] - quads[:, 0], quads[:, 3] - quads[:, 0]
    twist = quads[:, 2] - quads[:, 1] - quads[:, 3] + quads[:, 0]
    xy = [q0[:, i, None] + along[:, i, None] * u + down[:, i, None] * v + twist[:, i, None] * (u * v)
          for i in (0, 1)]  # bilinear across the quad, (n, 400) each: plain arithmetic, no BLAS (see _mv)
    vals = cv2.remap(gray, xy[0], xy[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)  # a row per quad
    box = vals.reshape(-1, 100, 4).astype(np.float32).mean(axis=2).reshape(-1, 10, 10)
    ring = np.ones((10, 10), bool)
    ring[1:-1, 1:-1] = False
    border = np.zeros((10, 10), bool)
    border[1:-1, 1:-1] = True
    border[2:-2, 2:-2] = False
    quiet = np.median(box[:, ring], axis=1)
    black = np.median(box[:, border], axis=1)
    contrast = quiet - black
    spread = box[:, 2:-2, 2:-2].reshape(len(quads), -1).std(axis=1)
    return (contrast >= MIN_RING_CONTRAST) & (spread >= MIN_BITS_SPREAD * contrast)


@lru_cache(maxsize=1)
def _pose_grid() -> tuple[np.ndarray, np.ndarray]:
    """The pose search's 75 moves: scales (75, 1, 1) and shifts in steps (75, 2): -2..2 steps
    in x and y (x fastest), at each of the scales 0.96, 1, 1.04."""
    steps = np.arange(-2, 3, dtype=np.float32)
    dy, dx = np.meshgrid(steps, steps, indexing="ij")
    shifts = np.tile(np.stack([dx.ravel(), dy.ravel()], 1), (3, 1))
    scales = np.repeat(np.float32([0.96, 1.0, 1.04]), 25)[:, None, None]
    return scales, shifts


def _pose_points(q: np.ndarray, step_px: float, k: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """The square moved by -2..2 steps in x and y and scaled by 0.96/1/1.04 about its centre
    (a similarity in the image: applied to the sample points directly). Returns the 75
    corner sets and their sample points (75, boxes * k*k, 2)."""
    c = q.mean(axis=0)
    pts = _points(q, k) - c
    scales, unit_shifts = _pose_grid()
    shifts = unit_shifts * np.float32(step_px) + c  # (75, 2)
    quads = (q - c)[None] * scales + shifts[:, None, :]
    # x and y apart: numpy broadcast over a last axis of 2 runs its inner loop 2 long
    clouds = np.empty((len(shifts), len(pts), 2), np.float32)
    for i in (0, 1):
        clouds[..., i] = pts[None, :, i] * scales[:, :, 0] + shifts[:, i, None]
    return quads.astype(np.float32, copy=False), clouds


class SoftDecoder:
    """Decides squares (``decode(gray, corners) -> SoftRead``). ``min_margin``: nats the best
    of our codes must gain over any other marker; ``min_fit``: correlation of the cells with
    it. Raises nothing for what is in the picture."""

    def __init__(self, *, min_margin: float = 12.0, min_fit: float = 0.8, max_free_gain: float = 6.0,
                 refine: bool = True):
        self.min_margin, self.min_fit, self.refine = float(min_margin), float(min_fit), refine
        self.max_free_gain = float(max_free_gain)
        self._t, self._code, self._rot, self._blur, self._bits = _templates()
        self._c0, self._k = _linear_model()
        self._ours = _family_to_ours()[self._code]  # per hypothesis: index in ALL_IDS or -1
        self._n = self._t.shape[1]

    def _fit_pose(self, gray: np.ndarray, q: np.ndarray) -> np.ndarray:
        """The corners that best explain the square (maximum likelihood over a small shift
        and scale, for the few codes that fit it best): a candidate's corners come from a
        thresholded contour, a quarter pixel off, and at 2-3 px per cell that alone turns
        cells over. Two rounds, a quarter then an eighth of a pixel."""
        obs = observe(gray, q)
        obs_c = obs - obs.mean()
        ss = float(obs_c @ obs_c)
        if ss < self._n * 4.0:
            return q
        r = _mv(self._t, obs_c / np.sqrt(ss))
        if float(r.max()) < 0.6 * self.min_fit:
            return q  # not a marker of the family at all: not worth the search
        top = np.argpartition(r, -12)[-12:]  # a few codes, rotations, blurs: the pose is not theirs to choose
        t = self._t[top]
        for step in (0.25, 0.125):
            poses, clouds = _pose_points(q, step)
            obs = _sample(gray, clouds, 2)
            obs = obs - obs.mean(axis=1, keepdims=True)
            obs /= np.maximum(np.linalg.norm(obs, axis=1, keepdims=True), 1e-6)
            score = np.einsum("pn,hn->ph", obs, t).max(axis=1)
            q = poses[int(np.argmax(score))]
        return q

    def decode(self, gray: np.ndarray, corners: np.ndarray) -> SoftRead:
        q = corners.reshape(4, 2).astype(np.float32)
        if self.refine:
            q = self._fit_pose(gray, q)
        obs = observe(gray, q).astype(np.float32)
        obs_c = obs - obs.mean()
        ss = float(obs_c @ obs_c)
        if ss < self._n * 4.0:  # under 2 grey levels of variation: a blank patch
            return SoftRead(None, 0, 0.0, 0.0, q, "no contrast")
        r = _mv(self._t, obs_c / np.sqrt(ss))  # correlation with each hypothesis
        r = np.clip(r, 0.0, 0.999999)  # a negative fit is a reversed contrast: no better than none
        ll = -0.5 * self._n * np.log1p(-r * r)  # log-likelihood (up to a constant) of each
        best = int(np.argmax(ll))
        ours = int(self._ours[best])
        fit = float(r[best])
        other = ll[self._code != self._code[best]]
        margin = float(ll[best] - other.max())
        rot = int(self._rot[best])
        upright = np.roll(q, -rot, axis=0)  # the code's own top-left first
        if ours < 0:
            return SoftRead(None, rot, margin, fit, upright, "another marker")
        if fit < self.min_fit:
            return SoftRead(None, rot, margin, fit, upright, f"poor fit {fit:.2f}")
        if margin < self.min_margin:
            return SoftRead(None, rot, margin, fit, upright, f"low margin {margin:.1f}")
        # not one of the family's codes, but a pattern near ours (a sticker partly covered,
        # some other print): some other 36 bits explain the square clearly better
        gain, flipped = _free_gain(obs_c / np.sqrt(ss), self._bits[self._code[best]],
                                   self._c0[self._blur[best]], self._k[rot, self._blur[best]], self._n)
        card = ours < len(CARD_IDS)  # (a card, not a mat corner)
        if gain > self.max_free_gain:
            return SoftRead(None, rot, margin, fit, upright, f"{flipped} cells say otherwise (+{gain:.1f})", card)
        # contrast fitted for the chosen code: a cell far on the wrong side is a sticker
        # partly covered or a different pattern, however well the rest fits
        t = self._t[best]
        b = float(obs_c @ t)
        resid = obs_c - b * t
        span = b * float(t.max() - t.min())
        if span <= 0 or float(np.abs(resid).max()) > 0.5 * span:
            return SoftRead(None, rot, margin, fit, upright, "a cell contradicts the code", card)
        return SoftRead(ours, rot, margin, fit, upright)
