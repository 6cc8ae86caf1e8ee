"""The seat-learning step of trick mode, and the check of the places kept in the settings.

The table deals one card in front of each player, in seat order (seat 0 first): each card,
once it lies still, is where that seat plays. :class:`SeatLearner` takes the camera's
frames and gives the four places (image points) once the fourth card lies still;
:func:`check_seats` says what is wrong with places kept from before (at each start: another
camera mode, a camera moved), or None.
"""

from __future__ import annotations

import numpy as np

from vision.tricks.zones import TableWatch

CARD_LONG = (0.03, 0.35)  # a card's long side against the frame's width, before any seat is known
MIN_APART = 1.2  # two seats' places at least this many card long sides apart
# A card laid down stays where it lies; a lamp's reflection that sways slowly can look like
# a still card-sized patch for a frame or two. A place is taken once its patch has been
# seen at the same spot (within this share of its long side) in this many frames running.
SAME_SPOT = 0.15
SEEN_FRAMES = 3


class SeatLearner:
    """Four cards dealt one per seat, in seat order -> each seat's place.

    >>> learner = SeatLearner(frame_size=(1280, 720))
    >>> for frame in frames:
    ...     learner.feed(frame)
    >>> learner.seats  # {0: (640.0, 560.0), 1: ..., 2: ..., 3: ...} once four cards lay still
    """

    def __init__(self, *, frame_size: tuple[int, int]) -> None:
        w = frame_size[0]
        self.watch = TableWatch(frame_size, (CARD_LONG[0] * w, CARD_LONG[1] * w))
        self.size = frame_size
        self.places: list[tuple[float, float]] = []
        self.long_px: list[float] = []
        self._candidate: tuple[tuple[float, float], float, int] | None = None  # centre, long, frames seen

    @property
    def seats(self) -> dict[int, tuple[float, float]] | None:
        return dict(enumerate(self.places)) if len(self.places) == 4 else None

    def feed(self, frame: np.ndarray) -> int | None:
        """Take one frame; the seat whose place was learnt in it, if any."""
        if len(self.places) == 4:
            return None
        candidate, self._candidate = self._candidate, None
        for patch in self.watch.step(frame):
            if not patch.card_shaped or patch.bare:
                continue
            quad = self.watch.to_frame(patch.quad)
            long = max(float(np.linalg.norm(quad[i] - quad[(i + 1) % 4])) for i in range(2))
            centre = tuple(float(v) for v in quad.mean(0))
            if any(np.hypot(centre[0] - x, centre[1] - y) < MIN_APART * long for x, y in self.places):
                self.watch.settle(patch.mask_box)
                continue  # the same card moved: not a new seat
            seen = 1
            if candidate is not None:
                (cx, cy), clong, count = candidate
                if np.hypot(centre[0] - cx, centre[1] - cy) < SAME_SPOT * clong:
                    seen = count + 1
            if seen < SEEN_FRAMES:
                self._candidate = (centre, long, seen)
                return None
            self.watch.settle(patch.mask_box)
            self.places.append(centre)
            self.long_px.append(long)
            return len(self.places) - 1
        return None


def check_seats(seats: dict[int, tuple[float, float]], frame_size: tuple[int, int]) -> str | None:
    """What is wrong with the kept places for frames of ``frame_size`` (None: they do)."""
    if sorted(seats) != [0, 1, 2, 3]:
        return "the places of seats 0, 1, 2 and 3 are needed"
    w, h = frame_size
    for s, (x, y) in seats.items():
        if not (0 <= x < w and 0 <= y < h):
            return f"seat {s}'s place is outside the camera's frame"
    pts = np.float32([seats[s] for s in range(4)])
    near = min(float(np.linalg.norm(pts[a] - pts[b])) for a in range(4) for b in range(a))
    if near < CARD_LONG[0] * w * MIN_APART:
        return "two seats' places are too close together"
    return None
