"""The enrolled deck and the classifier: a name only with a clear margin.

Every enrolled card is kept in both orientations; a card on the table is compared as seen
against all 96 views (normalised cross-correlation of the whole flat card, its lightness
by local contrast: ``views.local_contrast``). The best card must beat the best OTHER card
by ``min_margin``. When the runner-up would change the
score (different points: 8 vs 9, 1 vs 10, 12 vs 1, a 9 against anything) the rank-index
corners are compared too, and they must agree with a margin of their own. Anything less
is "show again", never a guess. Under the lamp's reflection the card is looked at again on
what the reflection spared, then on what it did not burn out (``glare.spared``, ``glare.kept``),
each with stricter margins.

Example::

    model = DeckModel.learn("bar", {Card.parse("9O"): flat_9o, ...})
    naming = model.identify(view_of(warp_card(frame, quad)))
    naming.card  # Card or None
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Collection

import cv2
import numpy as np

from kiosk.game import DECK, Card
from vision.deck.errors import EnrolmentError
from vision.deck.glare import kept, spared
from vision.deck.locate import turned_quad
from vision.deck.fit import fitted_quad
from vision.deck.views import (CELL, CHROMA_H, CHROMA_W, WHOLE_H, WHOLE_W, CardView, corner_score, local_contrast,
                               views_around, views_both_ways)

MIN_SCORE = 0.55  # below this the thing is not one of the learnt cards (or not lit alike)
MIN_MARGIN = 0.04  # over the best card of the same rank (another suit)
CLOSE = 0.10  # a card of another rank this close in the whole card: the corners decide
MIN_CORNER = 0.5
CORNER_MARGIN = 0.35  # of the way from their corner to ours
SAME_CORNERS = 0.93  # two photos of one card reach 0.95-0.99; so does a sota against a rei
MAX_SPARED_GLARE = 0.7  # of the card's cells: with less left, no second look
MIN_KEPT = 0.3  # of the card's cells not burnt out by a reflection: with less left, no third look
KEPT_STRICT = 2.0  # the margins the third look must clear, times the first look's...
KEPT_MARGIN = 0.06  # ...and over every other card, not only those of its rank (on the rough bench a wrong
# best card under a reflection led by 0.05 at the most)
SOFTEN = (0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0)  # blurs (Gaussian sigma, corner px at 4 px/mm) tried on a learnt index
CORNER_AGREE = 0.2  # a blurred index: the sharp comparison must lean our way this much for the blurred one to count
RECENTRED = 3  # the best cards the alignment search is made again around, when the first look is not sure...
RIVALS = 0.05  # ...those of them this close to the best one's score
TURNED = (-10.0, 10.0, -16.0, 16.0)  # degrees: the outline turned about its middle, when that found none of them
TOO_SIMILAR = 0.97  # the same card learnt twice scores about 0.99; different cards stay below


@dataclass(frozen=True)
class Naming:
    """What the classifier says about one card view."""

    card: Card | None  # None: not sure enough ("show again")
    best: Card
    score: float
    runner_up: Card
    margin: float
    corner_margin: float | None = None  # None when the corners were not needed
    why: str = ""  # when not sure: "score" (like no learnt card), "suit" (margin), "rank" (corners)
    # named at the outline fitted to its print (the second look): that outline, in the px of the
    # frame the views were taken from (None: named at the views given, or not named)
    where: np.ndarray | None = field(default=None, compare=False)

    @property
    def sure(self) -> bool:
        return self.card is not None


@dataclass(frozen=True)
class Similar:
    """Two learnt cards that look too much alike (or the same card learnt twice)."""

    first: Card
    second: Card
    score: float


class DeckModel:
    """A learnt deck: its cards' views in both orientations.

    ``codes`` are card codes (``"9O"``); ``whole``/``corners`` hold two rows per card (as
    learnt, turned). ``card_long_frac``: the card's long side over the frame width at
    enrolment, a hint of the size a card has on the table.
    """

    def __init__(self, name: str, codes: list[str], whole: np.ndarray, corners: np.ndarray, *,
                 card_long_frac: float = 0.0) -> None:
        if whole.shape[0] != 2 * len(codes) or corners.shape[0] != 2 * len(codes):
            raise EnrolmentError(f"deck {name}: {len(codes)} cards but {whole.shape[0]} views")
        self.name = name
        self.codes = list(codes)
        self.cards = [Card.parse(c) for c in codes]
        self.whole = np.ascontiguousarray(whole, np.float32)
        self.local = local_contrast(self.whole)  # what a card on the table is compared with
        self._apart: dict[tuple, float] = {}
        self._softened: dict[tuple, np.ndarray] = {}
        self.corners = np.ascontiguousarray(corners, np.float32)
        self.card_long_frac = float(card_long_frac)

    @classmethod
    def learn(cls, name: str, photos: dict[Card, tuple[np.ndarray, np.ndarray]], *,
              card_long_frac: float = 0.0) -> "DeckModel":
        """A model from one (photo, card quadrilateral in it) per card."""
        cards = [c for c in DECK if c in photos]
        whole, corners = [], []
        for card in cards:
            for v in views_both_ways(*photos[card]):
                whole.append(v.whole)
                corners.append(v.corners)
        return cls(name, [c.code for c in cards], np.array(whole), np.array(corners),
                   card_long_frac=card_long_frac)

    @property
    def missing(self) -> list[Card]:
        have = set(self.cards)
        return [c for c in DECK if c not in have]

    def similar_pairs(self, limit: float = TOO_SIMILAR) -> list[Similar]:
        """Pairs of learnt cards that look alike as a whole (``limit``) and in the rank
        index: the same card learnt twice, or two cards of a deck that differ in a few
        strokes only (a sota and a rei of one suit, on some decks). Appearance alone cannot
        tell those two cases apart, so they are flagged for a person to check, not refused."""
        n = len(self.cards)
        if n < 2:
            return []
        s = self.whole[0::2] @ self.whole.T  # each card as learnt vs every view
        s = np.maximum(s[:, 0::2], s[:, 1::2])
        out = []
        for i in range(n):
            for j in range(i + 1, n):
                score = float(max(s[i, j], s[j, i]))
                if score >= limit and self._corners_alike(i, j) >= SAME_CORNERS:
                    out.append(Similar(self.cards[i], self.cards[j], score))
        return out

    def _corners_alike(self, i: int, j: int) -> float:
        return max(corner_score(self.corners[2 * i], self.corners[2 * j + o]) for o in (0, 1))

    def named_at(self, frame: np.ndarray, quad: np.ndarray, detail: np.ndarray, *, wider: bool = False) -> Naming:
        """:meth:`identify` of the card at ``quad``, an outline in ``detail``'s pixels (a shrunk copy
        of ``frame``), named in ``frame`` itself at its own resolution."""
        return self.identify(views_around(frame, quad * (frame.shape[1] / detail.shape[1])), wider=wider)

    def identify(self, views: CardView | list[CardView], *, ruled_out: Collection[Card] = (),
                 wider: bool = False) -> Naming:
        """Name the card seen in ``views`` (one view, or the same card at several
        alignments: each learnt card scores its best alignment), or say it is not sure
        (``card`` None). ``ruled_out``: cards that cannot lie there (trick mode: already
        played); they are no rivals of the best card, which itself is never taken from the
        others (a best card ruled out is named as it is, for the caller to refuse).

        Not sure at the alignments given, the card is looked at once more at its outline
        fitted to the best card's print (:func:`vision.deck.fit.fitted_quad`: the outline a
        few per cent small, or turned), named there by the same rules against every card,
        and that naming counts only when it names the card the outline was fitted to.

        ``wider``: still not sure, the alignment search is made again around the best cards' own
        best alignments and at the outline turned (:meth:`_searched_on`, up to a tenth of a second
        more): for the look that names a card that came, not for the checks that expect none."""
        views = [views] if isinstance(views, CardView) else views
        out = frozenset(self.cards.index(c) for c in ruled_out if c in self.cards)
        naming, scores = self._identify(views, out)
        if naming.card is not None:
            return naming
        i = self.cards.index(naming.best)
        k, o = np.unravel_index(int(np.argmax(scores[:, 2 * i:2 * i + 2])), (len(views), 2))
        quad = fitted_quad(views[k], self.light_template(i, int(o)))
        if quad is not None:
            fitted, _ = self._identify(views_around(views[k].frame, quad, reach=CELL, scales=(1.0,)), out)
            if fitted.card == naming.best:
                return replace(fitted, where=quad)
        return self._searched_on(views, scores, out, naming) if wider else naming

    def _searched_on(self, views: list[CardView], scores: np.ndarray, out: frozenset[int], naming: Naming) -> Naming:
        """The alignment search made again around the view where each of the :data:`RECENTRED`
        best cards (within :data:`RIVALS` of the best) lined up best, when that view lies off the
        search's middle (an outline a few millimetres off, beyond the search's reach: the card
        itself is then no better than another card's print lined up as badly); a naming there
        counts only when it names the card the search was centred for. Then at the outline
        turned (:data:`TURNED`, one size), where a naming counts only when it names one of those
        best cards."""
        frame, middle = views[0].frame, np.mean([v.quad for v in views], axis=0)
        per_card = np.maximum(scores[:, 0::2], scores[:, 1::2]).max(axis=0)
        ranked = [i for i in np.argsort(per_card)[::-1][:RECENTRED].tolist()
                  if i not in out and per_card[i] >= per_card.max() - RIVALS]
        around: dict[int, Naming] = {}  # (two of those cards best at the same view: searched there once)
        for i in ranked:
            k = int(np.argmax(scores[:, 2 * i:2 * i + 2].max(axis=1)))
            if np.abs(views[k].quad - middle).max() < 1.0:
                continue  # (at the middle: the same search again)
            if k not in around:
                around[k] = self._identify(views_around(frame, views[k].quad), out)[0]
            named = around[k]
            if named.card == self.cards[i]:
                return named  # (no outline fitted: the card's size is the outline's, not a view's)
        for deg in TURNED:  # (an outline turned off the card: its sides found along the pile's or the light's)
            named, _ = self._identify(views_around(frame, turned_quad(middle, deg), scales=(1.0,)), out)
            if named.card is not None and self.cards.index(named.card) in ranked:
                return named
        return naming

    def light_template(self, i: int, o: int) -> np.ndarray:
        """Card ``i``'s learnt lightness cells (orientation ``o``), WHOLE_H x WHOLE_W."""
        return self.whole[2 * i + o, :WHOLE_H * WHOLE_W].reshape(WHOLE_H, WHOLE_W)

    def _identify(self, views: list[CardView], out: frozenset[int]) -> tuple[Naming, np.ndarray]:
        """The naming at ``views`` (the reflection's looks too), and the views x learnt-views
        scores of the first look."""
        # A reflection is first compared as it is: where it clips the paper white, the
        # learnt card is white too. Where it washed print out too, the margin is lost; then
        # the card is compared again on the cells the reflection spared only, on both
        # sides, and must clear twice the margins (less card is left to tell cards apart).
        seen = np.stack([v.whole for v in views])
        contrast = local_contrast(seen)
        scores = contrast @ self.local.T
        naming = self._decide(scores, views, 1.0, out)
        cells = views[0].glare_cells
        if naming.card is None and cells is not None and cells.any() and cells.mean() < MAX_SPARED_GLARE:
            hw = (CHROMA_H, CHROMA_W)
            spared_naming = self._decide(spared(seen, cells, hw) @ spared(self.whole, cells, hw).T, views, 2.0, out)
            if spared_naming.card is not None:
                return spared_naming, scores
        burnt = views[0].burnt_cells
        if naming.card is None and burnt is not None and burnt.any() and 1.0 - burnt.mean() >= MIN_KEPT:
            # Where the reflection burnt the print out, nothing is left to compare; the print
            # around it, faint, still has its shapes (local contrast): compared on what is left.
            hw = (CHROMA_H, CHROMA_W)
            kept_naming = self._decide(kept(contrast, burnt, hw) @ kept(self.local, burnt, hw).T, views,
                                       KEPT_STRICT, out, least=KEPT_MARGIN)
            if kept_naming.card is not None:
                return kept_naming, scores
        return naming, scores

    def _decide(self, all_s: np.ndarray, views: list[CardView], strict: float, out: frozenset[int] = frozenset(),
                *, least: float = 0.0) -> Naming:
        """The naming from the views x learnt-views scores; ``strict`` multiplies the margins;
        ``out``: cards ruled out as rivals; ``least``: the margin over every other card."""
        k = int(np.argmax(all_s.max(axis=1)))
        s = all_s.max(axis=0)
        view = views[k]
        per_card = np.maximum(s[0::2], s[1::2])
        order = np.argsort(per_card)[::-1]
        order = order[:1].tolist() + [c for c in order[1:].tolist() if c not in out]
        i = int(order[0])
        j = int(order[1]) if len(order) > 1 else i  # (the last card of a hand: no rival left)
        best, second = self.cards[i], self.cards[j]
        score, margin = float(per_card[i]), float(per_card[i] - per_card[j]) if j != i else 1.0
        # Cards of the same rank differ by suit: colour and pips, the whole card decides.
        same_rank = [k for k in order[1:] if self.cards[int(k)].rank == best.rank]
        suit_margin = float(per_card[i] - per_card[same_rank[0]]) if same_rank else 1.0
        sure = score >= MIN_SCORE and suit_margin >= strict * MIN_MARGIN and margin >= least
        why = "" if sure else "score" if score < MIN_SCORE else "suit"
        # Any close card of another rank: the corner index must decide, clearly.
        rivals = [int(k) for k in order[1:8]
                  if per_card[i] - per_card[k] < strict * CLOSE and self.cards[int(k)].rank != best.rank]
        corner_margin = None
        if sure and rivals:
            mine, corner_margin = self._corner_margin(view, all_s[k], i, rivals)
            sure = mine >= MIN_CORNER and corner_margin >= min(strict * CORNER_MARGIN, 0.9)
            why = "" if sure else "rank"
        return Naming(best if sure else None, best, score, second, margin, corner_margin, why)

    def corner_margin(self, view: CardView, card: Card, rivals: list[Card]) -> float:
        """How clearly the rank index in ``view`` says ``card`` rather than any of
        ``rivals`` (all learnt): 1 exactly ours, 0 halfway, below 0 nearer a rival's."""
        scores = local_contrast(view.whole[None]) @ self.local.T
        return self._corner_margin(view, scores[0], self.cards.index(card), [self.cards.index(c) for c in rivals])[1]

    def _corner_margin(self, view: CardView, scores: np.ndarray, i: int, rivals: list[int]) -> tuple[float, float]:
        """(how alike the seen index is to card ``i``'s, the worst margin over ``rivals``).
        The index differs in a few strokes ("10" and "12"), so raw correlations are all
        close to 1; what counts is where the seen corner lies between the two learnt ones:
        +1 exactly ours, -1 exactly theirs. Each learnt index is taken in the orientation
        its whole card matched ``view`` best in (``scores``: the view against every learnt
        view): the whole card tells a half turn more surely than a corner. With a
        reflection on an index, the better kept of the two decides alone."""
        def turn(j: int) -> int:
            return int(scores[2 * j + 1] > scores[2 * j])

        use = view.clear_corners
        corners = view.corners_around
        mine_learnt = self.corners[2 * i + turn(i)]
        if len(use) < 2:
            use = (max((0, 1), key=lambda c: corner_score(mine_learnt, corners, (c,), fine=False)),)
        mine, worst = self._margin_at(corners, use, i, rivals, turn, 0.0)
        if CORNER_AGREE <= worst < CORNER_MARGIN:
            # A blurred index (defocus, a shaken camera, a card far away) is compared again with
            # the learnt ones blurred alike: every candidate the same blur, the one that fits
            # the seen index best, so no rank is favoured. That second figure counts only when
            # the sharp one already leans our way (CORNER_AGREE): two scales must agree.
            blur = max(SOFTEN, key=lambda b: max(corner_score(self._soft(j, turn(j), b), corners, use, fine=False)
                                                 for j in (i, *rivals)))
            if blur:
                soft_mine, soft_worst = self._margin_at(corners, use, i, rivals, turn, blur)
                if soft_worst > worst:
                    mine, worst = max(mine, soft_mine), soft_worst
        return mine, worst

    def _margin_at(self, corners: np.ndarray, use: tuple[int, ...], i: int, rivals: list[int], turn,
                   blur: float) -> tuple[float, float]:
        mine = corner_score(self._soft(i, turn(i), blur), corners, use)
        worst = 1.0
        for k in rivals:
            theirs = corner_score(self._soft(k, turn(k), blur), corners, use)
            worst = min(worst, (mine - theirs) / max(self._indices_apart(i, turn(i), k, use, blur), 0.01))
        return mine, worst

    def _soft(self, i: int, o: int, blur: float) -> np.ndarray:
        """Card ``i``'s learnt index pair (orientation ``o``) blurred by ``blur`` (Gaussian
        sigma, corner pixels), kept."""
        if not blur:
            return self.corners[2 * i + o]
        key = (i, o, blur)
        if key not in self._softened:
            pair = self.corners[2 * i + o]
            self._softened[key] = np.stack([cv2.GaussianBlur(c, (0, 0), blur) for c in pair])
        return self._softened[key]

    def _indices_apart(self, i: int, o: int, k: int, use: tuple[int, ...], blur: float = 0.0) -> float:
        """How unlike card ``i``'s learnt index (orientation ``o``) and card ``k``'s are, both
        blurred by ``blur``: the same for every card seen, so worked out once."""
        key = (i, o, k, use, blur)
        if key not in self._apart:
            # (two learnt indices are cut alike: blurred, a slide aligns them well enough, and
            # the first look at a new blur stays cheap; a slide alone never makes them look more
            # alike, so the margin can only come out smaller)
            self._apart[key] = 1.0 - max(corner_score(self._soft(i, o, blur), self._soft(k, p, blur), use,
                                                      fine=not blur) for p in (0, 1))
        return self._apart[key]
