"""The marks printed on the cards: which fiducial family, and which 48 of its ids.

Card ``DECK[i]`` carries marker ``CARD_IDS[i]`` of ``FAMILY``. The reader matches only
against these 48 (a custom dictionary), so a detection can never name a card outside
the deck, and the ids were chosen to keep every pair of cards as far apart as possible
(Hamming distance over the four rotations): see docs/vision.md for the measurement.
"""

from __future__ import annotations

import random
from functools import lru_cache

import cv2
import numpy as np



FAMILY = "DICT_6X6_250"
# 48 ids of DICT_6X6_250 whose pairwise distance (any rotation) is at least MIN_DISTANCE;
# chosen by choose_ids(FAMILY, 48) (tests/vision/test_marks.py checks it).
CARD_IDS: tuple[int, ...] = tuple(range(48))
MIN_DISTANCE = 13
# Capture mat corner markers (top-left, top-right, bottom-right, bottom-left), same family,
# at distance >= 13 from every card code and from each other.
MAT_IDS: dict[str, tuple[int, int, int, int]] = {"A3": (48, 49, 50, 51), "A4": (52, 53, 54, 55)}
ALL_IDS: tuple[int, ...] = CARD_IDS + MAT_IDS["A3"] + MAT_IDS["A4"]


def rotation_bits(family: str) -> np.ndarray:
    """(n, 4, bits) array: each marker's bits in its four rotations."""
    d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, family))
    m = d.markerSize
    out = []
    for i in range(d.bytesList.shape[0]):
        b = cv2.aruco.Dictionary.getBitsFromByteList(d.bytesList[i:i + 1], m)
        out.append([np.rot90(b, k).ravel() for k in range(4)])
    return np.array(out, dtype=np.uint8)


def distance_matrix(family: str) -> np.ndarray:
    """D[i, j] = fewest bit flips that turn marker j (any rotation) into marker i;
    the diagonal holds each marker's distance to its own rotations."""
    r = rotation_bits(family)
    base = r[:, 0, :]
    d = np.min((base[:, None, None, :] != r[None, :, :, :]).sum(-1), axis=2)
    d = np.minimum(d, d.T)
    for i in range(len(r)):
        d[i, i] = min(int((r[i, 0] != r[i, k]).sum()) for k in (1, 2, 3))
    return d


def min_distance(family: str, ids) -> int:
    d = distance_matrix(family)
    ids = list(ids)
    sub = d[np.ix_(ids, ids)]
    return int(sub.min())


def choose_ids(family: str, n: int = 48, *, tries: int = 400, seed: int = 1) -> tuple[int, tuple[int, ...]]:
    """Pick ``n`` ids maximising the smallest pairwise distance (randomised greedy).

    Returns (min distance, ids sorted). Raises ValueError when the family is too small.
    """
    d = distance_matrix(family)
    total = len(d)
    if total < n:
        raise ValueError(f"{family} has only {total} markers, {n} needed")
    rng = random.Random(seed)
    best: tuple[int, tuple[int, ...]] = (int(min(d[np.ix_(range(n), range(n))].min(), 99)), tuple(range(n)))
    for t in range(int(d.max()), best[0], -1):
        ok = [i for i in range(total) if d[i, i] >= t]
        if len(ok) < n:
            continue
        for _ in range(tries):
            order = ok[:]
            rng.shuffle(order)
            chosen: list[int] = []
            for i in order:
                if all(d[i, j] >= t for j in chosen):
                    chosen.append(i)
                    if len(chosen) == n:
                        return t, tuple(sorted(chosen))
    return best


@lru_cache(maxsize=None)
def card_dictionary(family: str = FAMILY, ids: tuple[int, ...] | None = None) -> "cv2.aruco.Dictionary":
    """A dictionary holding only our markers: index i < 48 is ``DECK[i]``, then the mat's
    corner markers (see MAT_IDS / ALL_IDS)."""
    ids = ALL_IDS if ids is None else ids
    base = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, family))
    correction = max(0, (min_distance(family, ids) - 1) // 2)
    return cv2.aruco.Dictionary(base.bytesList[list(ids)], base.markerSize, correction)

