"""Evidence put together: the two stickers of one card, and several frames of one pile.

A card carries two stickers, diagonally opposite and turned 180 degrees to each other
(vision.kit). Two different codes at the two sticker places of one card are either a
misread or another card lying over this one's corner, turned round (the realistic camera
shows it in 1 still in 6). When one of the two is a soft read (a margin under a hard
decode's), neither is counted: the pair is marked unread. Two hard decodes stand.

Several frames of the same still pile (the live video between two stills, or a burst of
stills) vote: each sticker place (in mat millimetres, or image pixels without the mat)
collects the margins (nats, see vision.softdecode) of the cards read there; a place counts
the card with the largest sum only if it leads every other card read there by
``min_lead`` nats. A place where two cards keep being read is refused, not guessed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from kiosk.game import DECK, Card
from vision.kit import CARD_H_MM, CARD_W_MM, STICKER_INSET_MM, code_side_mm, marker_side_mm
from vision.result import HARD_MARGIN, Detection, Problem, ReadResult

STICKERS_DISAGREE = "stickers_disagree"
PLACE_DISPUTED = "place_disputed"
PARTNER_NEAR = 0.65  # of a marker's side: how near the partner's predicted place


def partner_offset(sticker_mm: float) -> np.ndarray:
    """Where the other sticker's marker starts (its own top-left corner), in marker sides
    along this marker's own axes: the same vector seen from either sticker (180-degree turn)."""
    m = marker_side_mm(sticker_mm)
    quiet = (code_side_mm(sticker_mm) - m) / 2
    x0 = STICKER_INSET_MM + (sticker_mm - code_side_mm(sticker_mm)) / 2 + quiet
    y0 = STICKER_INSET_MM + quiet
    return np.array([(CARD_W_MM - 2 * x0) / m, (CARD_H_MM - 2 * y0) / m], np.float32)


def disagreeing_pairs(detections: list[Detection], sticker_mm: float) -> list[tuple[int, int]]:
    """Index pairs of detections that sit at the two sticker places of ONE card (position
    within PARTNER_NEAR of a marker, turned 180 degrees within 12 degrees) but name different cards."""
    if len(detections) < 2:
        return []
    off = partner_offset(sticker_mm)
    q = np.array([d.corners for d in detections], np.float32)  # (n, 4, 2)
    o = q[:, 0]
    ux = (q[:, 1] - q[:, 0] + q[:, 2] - q[:, 3]) / 2
    uy = (q[:, 3] - q[:, 0] + q[:, 2] - q[:, 1]) / 2
    where = o + off[0] * ux + off[1] * uy  # (n, 2): where each one's partner starts
    side = np.linalg.norm(ux, axis=1)
    # (predicted along one marker's own axes 80 mm away, the partner's corner is up to half a
    # marker off under a tilted camera: 0.48-0.50 of a side on a drawn scene, either way round)
    near = np.linalg.norm(where[:, None, :] - o[None, :, :], axis=2) <= PARTNER_NEAR * side[:, None]
    unit = ux / np.maximum(side[:, None], 1e-9)
    turned = unit @ unit.T < -np.cos(np.radians(12))
    cards = np.array([DECK.index(d.card) for d in detections])
    differ = cards[:, None] != cards[None, :]
    hits = near & turned & differ
    return sorted({(min(i, j), max(i, j)) for i, j in zip(*np.nonzero(hits))})


def doubtful_pairs(detections: list[Detection], sticker_mm: float) -> set[int]:
    """Indices of detections in a disagreeing pair where one of the two is a soft read
    (margin under a hard decode's): neither may count."""
    return {k for i, j in disagreeing_pairs(detections, sticker_mm)
            if min(detections[i].margin, detections[j].margin) < HARD_MARGIN for k in (i, j)}


@dataclass
class PileVote:
    """Votes of several reads of the same still pile (see the module's doc).
    ``place_mm``: how close two reads must be to be the same sticker place."""
    min_lead: float = 12.0
    place_mm: float = 6.0
    _places: list[tuple[np.ndarray, dict[Card, float]]] = field(default_factory=list)
    frames: int = 0

    def add(self, result: ReadResult) -> None:
        self.frames += 1
        for d in result.detections:
            c = np.float32(d.centre)
            # mat mm only from two corners or more: one corner's own homography, carried
            # a whole mat away, squeezes neighbouring stickers into one place
            if result.homography is not None and result.mat_found:
                c = cv2.perspectiveTransform(c.reshape(1, 1, 2), result.homography)[0, 0]
                tol = self.place_mm
            else:
                tol = self.place_mm * float(np.linalg.norm(d.corners[1] - d.corners[0])) / 9.6
            for where, votes in self._places:
                if np.linalg.norm(where - c) <= tol:
                    votes[d.card] = votes.get(d.card, 0.0) + d.margin
                    break
            else:
                self._places.append((c, {d.card: d.margin}))

    def decide(self) -> tuple[list[Card], list[Card]]:
        """(cards counted, in deck order; cards of disputed places, not counted)."""
        counted: set[Card] = set()
        disputed: set[Card] = set()
        for _where, votes in self._places:
            ranked = sorted(votes.items(), key=lambda kv: -kv[1])
            lead = ranked[0][1] - (ranked[1][1] if len(ranked) > 1 else 0.0)
            if lead >= self.min_lead:
                counted.add(ranked[0][0])
            if len(ranked) > 1:
                disputed.update(c for c, _ in ranked)
        # a card counted at one place and disputed at another is still counted: its other
        # sticker, or another frame, read it cleanly
        return [c for c in DECK if c in counted], [c for c in DECK if c in disputed - counted]


def merge_reads(first: ReadResult, second: ReadResult) -> ReadResult:
    """Two reads of the same still pile (a second, darker exposure): the cards the vote
    counts, with their stickers; squares still unread in the first that the second read
    are no longer marked; the places asked about are the second's (what even the darker
    exposure could not read) less those where the first read a card."""
    vote = PileVote()
    vote.add(first)
    vote.add(second)
    counted, disputed = vote.decide()
    keep = set(counted)
    detections, seen = [], set()
    for d in first.detections + second.detections:
        if d.card in keep and (d.card, d.centre) not in seen:
            seen.add((d.card, d.centre))
            detections.append(d)
    centres = np.array([d.centre for d in detections], np.float32).reshape(-1, 2)
    unread = [q for q in first.unread
              if not len(centres) or np.linalg.norm(centres - q.mean(axis=0), axis=1).min()
              > float(np.linalg.norm(q[1] - q[0]))]
    # the darker exposure sees under the glare: its places asked about stand, but for a card
    # the first read there
    side = float(np.median([np.linalg.norm(d.corners[1] - d.corners[0]) for d in detections])) if detections else 0.0
    asked = [a for a in second.asked
             if not len(centres) or np.linalg.norm(centres - np.float32(a.centre), axis=1).min() > max(side, 1.0)]
    problems = list(first.problems)
    if disputed:
        problems.append(Problem(PLACE_DISPUTED, "Una carta es llegeix de dues maneres: mireu-la", tuple(disputed)))
    return ReadResult(cards=counted, detections=detections, mat_found=first.mat_found, mat_size=first.mat_size,
                      mat_corners=first.mat_corners, homography=first.homography, rejected=list(first.rejected),
                      unread=unread, problems=problems, asked=asked, image_size=first.image_size, ms=first.ms + second.ms)
