"""What a read found, as data: :class:`ReadResult` with its :class:`Detection` s, the squares
seen but not read, and :class:`Problem` s; ``annotate()`` draws it on the photo."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

import cv2
import numpy as np

from kiosk.game import Card

HARD_MARGIN = 50.0

# Problem kinds (the UI shows ``message``; Catalan first)
MAT_NOT_FOUND = "mat_not_found"
CARD_TWICE = "card_twice"


@dataclass(frozen=True)
class Detection:
    """One sticker seen: its card, its four corners in the image (pixels), and ``margin``:
    nats by which the soft decision chose it (vision.softdecode); an ArUco hard decode
    (3 wrong bits at most, codes 13 apart) counts as ``HARD_MARGIN``."""
    card: Card
    corners: np.ndarray  # (4, 2) float32, the code's own top-left, top-right, ...
    margin: float = 50.0  # HARD_MARGIN

    @property
    def centre(self) -> tuple[float, float]:
        c = self.corners.mean(axis=0)
        return float(c[0]), float(c[1])


@dataclass(frozen=True)
class Ask:
    """A place where a card may lie unread (vision.asked): ``corners`` (4, 2) image px of
    what was seen there (a sticker's square, or a burnt-out patch), ``why``: "glare" (the
    lamp's reflection) or "unread" (a sticker seen but not read). The kiosk asks the player
    to move the card there, circled on the preview."""
    corners: np.ndarray
    why: str

    @property
    def centre(self) -> tuple[float, float]:
        c = self.corners.mean(axis=0)
        return float(c[0]), float(c[1])

    @property
    def radius(self) -> float:
        """A circle round it, a little wider than what was seen."""
        c = self.corners.mean(axis=0)
        return float(np.linalg.norm(self.corners - c, axis=1).max()) * 1.6


@dataclass(frozen=True)
class Problem:
    """A failed check, to show on the photo (``cards`` are outlined) and offer for correction."""
    kind: str
    message: str
    cards: tuple[Card, ...] = ()


@dataclass
class ReadResult:
    cards: list[Card]  # each card once, in deck order
    detections: list[Detection]  # every sticker accepted (a card may have two)
    mat_found: bool = False
    mat_size: str | None = None
    mat_corners: np.ndarray | None = None  # (4, 2) image pixels of the mat's paper corners
    homography: np.ndarray | None = None  # image pixels -> mat millimetres
    rejected: list[tuple[np.ndarray, str]] = field(default_factory=list)  # candidate corners, why
    # squares of a sticker's size seen but not read (soft decision refused them): the
    # preview marks them so the player moves just that card
    unread: list[np.ndarray] = field(default_factory=list)
    # those of them a card's code fits but for a cell or two: a card of ours, always asked about
    doubted: list[np.ndarray] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    # places where a card may lie unread (glare, a sticker seen but not read): the kiosk
    # asks the player to move the card there (vision.asked)
    asked: list[Ask] = field(default_factory=list)
    image_size: tuple[int, int] = (0, 0)  # (width, height) of the image read
    ms: float = 0.0

    @property
    def codes(self) -> list[str]:
        return [c.code for c in self.cards]

    def detections_of(self, card: Card) -> list[Detection]:
        return [d for d in self.detections if d.card == card]

    def scaled(self, factor: float) -> "ReadResult":
        """The same result for an image ``factor`` times bigger (recognition on a
        downscaled frame, annotation on the full one)."""
        s = np.diag([1 / factor, 1 / factor, 1.0])
        return ReadResult(
            cards=list(self.cards),
            detections=[Detection(d.card, d.corners * factor, d.margin) for d in self.detections],
            mat_found=self.mat_found, mat_size=self.mat_size,
            mat_corners=None if self.mat_corners is None else self.mat_corners * factor,
            homography=None if self.homography is None else self.homography @ s,
            rejected=[(c * factor, why) for c, why in self.rejected],
            unread=[c * factor for c in self.unread],
            doubted=[c * factor for c in self.doubted],
            problems=list(self.problems),
            asked=[Ask(a.corners * factor, a.why) for a in self.asked],
            image_size=(int(round(self.image_size[0] * factor)), int(round(self.image_size[1] * factor))),
            ms=self.ms)

    def annotate(self, image: np.ndarray, *, problems: Iterable[Problem] = (),
                 show_rejected: bool = True) -> np.ndarray:
        """A copy of ``image`` (BGR or gray) with the mat outline, every card found (green,
        with its code), rejected candidates (orange) and the cards of failed checks (red, with
        the messages listed at the top). ``problems`` adds checks made later (a pile that fails the core's checks)."""
        out = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR) if image.ndim == 2 else image.copy()
        scale = max(out.shape[1] / 1920, 0.5)
        thick = max(1, int(round(2 * scale)))
        all_problems = list(self.problems) + list(problems)
        bad = {c for p in all_problems for c in p.cards}
        if self.mat_corners is not None:
            cv2.polylines(out, [self.mat_corners.astype(np.int32)], True, (255, 200, 0), thick, cv2.LINE_AA)
        if show_rejected:
            for corners, _why in self.rejected:
                cv2.polylines(out, [corners.astype(np.int32)], True, (0, 140, 255), thick, cv2.LINE_AA)
        for corners in self.unread:  # seen, not read: a thick magenta ring around the sticker
            centre = corners.mean(axis=0)
            radius = float(np.linalg.norm(corners - centre, axis=1).max()) * 1.6
            cv2.circle(out, (int(centre[0]), int(centre[1])), int(radius), (255, 0, 255), thick + 1, cv2.LINE_AA)
        for ask in self.asked:  # a card to move: a thicker yellow ring round its place
            x, y = ask.centre
            cv2.circle(out, (int(x), int(y)), int(max(ask.radius, 12 * scale)), (0, 230, 255), thick + 2,
                       cv2.LINE_AA)
        for d in self.detections:
            colour = (0, 0, 255) if d.card in bad else (0, 200, 0)
            cv2.polylines(out, [d.corners.astype(np.int32)], True, colour, thick + 1, cv2.LINE_AA)
            x, y = d.corners[:, 0].max() + 4, d.corners[:, 1].min()
            cv2.putText(out, d.card.code, (int(x), int(y) + int(14 * scale)), cv2.FONT_HERSHEY_SIMPLEX,
                        0.6 * scale, (0, 0, 0), thick + 2, cv2.LINE_AA)
            cv2.putText(out, d.card.code, (int(x), int(y) + int(14 * scale)), cv2.FONT_HERSHEY_SIMPLEX,
                        0.6 * scale, colour, thick, cv2.LINE_AA)
        lines = [f"{len(self.cards)} cartes"] + [p.message for p in all_problems]
        for i, text in enumerate(lines):
            y = int((30 + 30 * i) * scale)
            colour = (0, 0, 255) if i else (255, 255, 255)
            cv2.putText(out, text, (int(12 * scale), y), cv2.FONT_HERSHEY_SIMPLEX, 0.8 * scale, (0, 0, 0),
                        thick + 3, cv2.LINE_AA)
            cv2.putText(out, text, (int(12 * scale), y), cv2.FONT_HERSHEY_SIMPLEX, 0.8 * scale, colour,
                        thick, cv2.LINE_AA)
        return out


class LiveAccumulator:
    """Cards accumulate as the pile slides under the camera: a card is counted once it has
    been seen in ``frames_needed`` frames (not necessarily consecutive). ``add`` returns the
    cards counted by that frame (for the beep and the tick on screen)."""

    def __init__(self, *, frames_needed: int = 2):
        self.frames_needed = int(frames_needed)
        self._seen: dict[Card, int] = {}
        self._counted: list[Card] = []

    def add(self, result: ReadResult) -> list[Card]:
        new: list[Card] = []
        for card in result.cards:
            n = self._seen.get(card, 0) + 1
            self._seen[card] = n
            if n == self.frames_needed:
                self._counted.append(card)
                new.append(card)
        return new

    def add_sure(self, cards: Iterable[Card]) -> list[Card]:
        """Cards read from a full-resolution still: counted at once (a still is read with
        margins, not by luck in one noisy frame); returns those not counted before."""
        new: list[Card] = []
        for card in cards:
            if card not in self._counted:
                self._seen[card] = max(self._seen.get(card, 0), self.frames_needed)
                self._counted.append(card)
                new.append(card)
        return new

    @property
    def cards(self) -> list[Card]:
        """Counted cards, in the order they were counted."""
        return list(self._counted)

    @property
    def pending(self) -> list[Card]:
        """Seen, but not yet in enough frames."""
        return [c for c, n in self._seen.items() if n < self.frames_needed]

    def reset(self) -> None:
        self._seen.clear()
        self._counted.clear()
