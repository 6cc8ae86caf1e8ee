"""The pile as the deal-through tracker has read it, and the look's decision.

:class:`Pile` keeps the table's settled states (the table under the pile, then one per card dealt:
its detail copy, its outline, the card named or "asked about") and decides, once the tracker
(:mod:`vision.deck.tracker`) has seen the table lie still and found a change, what lies on top:
what changed (exposures matched, above the frames' own noise: :mod:`vision.deck.exposure`) only
says that something happened and where; what is on top there is FOUND by its outline
(:mod:`vision.deck.outline`), a card-sized rectangle whose four sides are edges, and new ones:

- no change, or no card's outline in it (a shadow, the reflection, the light): nothing (a faint one
  naming a card by its print is one: :mod:`vision.deck.faint`);
- the card found where the last one lay, its sides not new: that card looked at again,
  nothing said (unless its print names another card squared on it);
- a hand (a change from the frame's edge) over the card found: no read until it leaves;
- a second new card's outline apart from the first: ask to deal them one at a time;
- one card: warped flat from the full-resolution frame and named; a reflection on it asks
  to move it; a low margin asks to show it again (each ask held back for one look more, a
  frame later: :mod:`vision.deck.again`); a card counted already: "ja comptada".

The table going back to how it was before the last card: that card was lifted off again, unless
the lamp's reflection lies over the pile (a card dealt under it is not seen: asked about, or nothing).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from kiosk.game import Card
from vision.deck.darker import came_in, changed_either, in_hand, tone_map
from vision.deck.events import ALREADY, COUNTED, GLARE, HAND, SHOW_AGAIN, TAKEN_BACK, TWO_CARDS, DealEvent
from vision.deck.exposure import Change, changed_inside, compare
from vision.deck.faint import faint_card
from vision.deck.lifted import dealt_squared, lifted_off_unread, shows_under, veiled
from vision.deck.locate import CARD_ASPECT, quad_mask
from vision.deck.model import DeckModel, Naming
from vision.deck.motion import hand_over
from vision.deck.ontop import still_on_top
from vision.deck.outline import Outline, find_outlines, iou, new_edge_share
from vision.deck.refit import grown, refit
from vision.deck.states import Handed, Held, Settled
from vision.deck.second import PRINT_KEPT, SAME_PLACE, UNSEEN_CARD, dealt_over, print_kept, second_card
from vision.deck.scale import TableScale
from vision.deck.views import order_quad, views_around

KEEP_DETAIL = 4  # settled frames kept at detail size (older ones are only for "lifted off")
CHANGE_LEVEL = 18  # least change between two settled frames, in levels of the brightest channel
DARKER_CHANGE_LEVEL = 12  # the same between darker frames: the print's contrast shrinks with the exposure
DARKER_MIN_PIXELS = 16  # detail px: a darker frame's noise makes specks
MIN_CHANGE = 0.05  # of a card's area: less changed is nothing (specks, a flicker)
NOT_NEW = 0.25  # of the outline on new edges: less, and the card found is the one that lay there
SAME_CARD = 0.88  # ... so much that it is that card whatever changed (a darker frame shows edges anew)
PRINT_CHANGED = 0.08  # of the card's area changed inside an outline that is not new: maybe another card
LIFTED = 0.15  # of a card's area changed since the table before the last card: it was lifted off
RESTED = 0.02  # of a card's area changed between two looks a hand was over it in: the hand rests there
UNSTEADY = 0.35  # of a card's area changed since the frame before: not lying still yet (in the air)


def change_levels(dark: np.ndarray | None) -> tuple[int, int]:
    """The least change counted between two pictures and its least piece (px), at ``dark``'s exposure (None: normal)."""
    return (CHANGE_LEVEL, 6) if dark is None else (DARKER_CHANGE_LEVEL, DARKER_MIN_PIXELS)


@dataclass
class Pile:
    """The table's settled states and the look's decision (``judge``). ``frame``: the number
    of the frame being read (the tracker counts them), given to the events."""

    model: DeckModel
    frame: int = 0
    uncertain: int = 0  # cards asked about
    settled: list[Settled] = field(default_factory=list)
    card_long: float = 0.0  # without the mat: the cards' long side as read (detail px)
    longs: list[float] = field(default_factory=list)
    scale: TableScale | None = None  # the mat's millimetres in detail pixels
    before: np.ndarray | None = None  # the frame before the look (detail), when the light moved in its spell
    unsteady: bool = False  # the look found a card not yet lying where it lay a frame before
    held: Held | None = None  # an ask held back for one more look (:mod:`vision.deck.again`)
    restless: bool = False  # a hand at the view's edge moved into the looked-at frame (lingering apart from the pile)
    handed: Handed | None = None  # the last look's "a hand is there" over a card (:meth:`_rests`)

    @property
    def cards(self) -> list[Card]:
        return [s.card for s in self.settled if s.card is not None]

    @property
    def last_where(self) -> np.ndarray | None:  # (the outline of the card last found on the pile, detail px)
        return next((s.where for s in reversed(self.settled) if s.where is not None), None)

    def long_px(self, detail: np.ndarray, at: tuple[float, float] | None = None) -> float:
        """A card's long side (detail px) lying at ``at``: from the mat when it is in view,
        else the cards read so far, else the learnt deck's."""
        if self.scale is not None:
            h, w = detail.shape[:2]
            return float(np.sqrt(self.scale.card_area_px(at if at is not None else (w / 2, h / 2)) * CARD_ASPECT))
        if self.card_long:
            return self.card_long
        return (self.model.card_long_frac or 0.2) * detail.shape[1]

    def sizes(self) -> tuple[float, ...]:
        """The card sizes tried around :meth:`_long_px` (how sure that size is)."""
        if self.scale is not None or self.card_long:
            return (1.0,)
        # the camera may not be where the deck was learnt: the first card's size is searched
        return (1.0, 0.92, 1.08, 0.85, 1.17, 0.78, 1.27) if self.model.card_long_frac else \
            tuple(float(k) for k in np.arange(0.6, 1.45, 0.07))

    def find(self, seen: np.ndarray, change: Change, long_px: float) -> list[Outline]:
        return find_outlines(seen, change.reference, change.mask, long_px, level=change.edge, aspect=CARD_ASPECT,
                             sizes=self.sizes())

    def push(self, detail: np.ndarray, card: Card | None, *, pending: bool = False, darker: np.ndarray | None = None,
             where: np.ndarray | None = None, under: int = 0) -> None:  # (under: beneath so many states)
        self.lay(Settled(detail, card, pending, darker, where), under=under)

    def lay(self, state: Settled, *, under: int = 0) -> None:
        """Lay ``state`` on the pile (``under``: beneath so many states); only the latest keep their pictures."""
        self.settled.insert(len(self.settled) - under, state)
        self.handed = None
        if len(self.settled) > KEEP_DETAIL + 1:  # (the table under the pile, the first state, is kept)
            self.settled[-KEEP_DETAIL - 1].detail = self.settled[-KEEP_DETAIL - 1].darker = None

    def judge(self, frame: np.ndarray, detail: np.ndarray, dark: np.ndarray | None,
               change: Change | None = None, normal: np.ndarray | None = None) -> list[DealEvent]:
        """The look's decision. ``dark``: the darker frame's detail copy (``frame`` is then the
        darker frame; every comparison at its exposure, the next hand come in at the view's
        edge left out); ``normal``: the frame that asked for it."""
        n = self.frame
        seen = detail if dark is None else dark

        def changed(reference: np.ndarray) -> Change:
            if dark is None:
                return compare(reference, seen, floor=CHANGE_LEVEL)
            got = compare(reference, seen, floor=DARKER_CHANGE_LEVEL, min_pixels=DARKER_MIN_PIXELS)
            m = got.mask
            if not (m[0].any() or m[-1].any() or m[:, 0].any() or m[:, -1].any()):
                return got
            arrived = came_in(detail, dark, level=DARKER_CHANGE_LEVEL, min_pixels=DARKER_MIN_PIXELS)
            return replace(got, mask=cv2.bitwise_and(m, cv2.bitwise_not(arrived)))

        last = self.settled[-1]
        if last.detail is None:
            return []
        change = change if change is not None else changed(last.at_exposure(dark))
        long_px = self.long_px(seen)
        area = long_px * long_px / CARD_ASPECT
        if dark is not None and cv2.countNonZero(change.mask) < MIN_CHANGE * area:  # (a darker frame's thin change)
            change = changed_either(change, last.detail, detail, floor=CHANGE_LEVEL, least=MIN_CHANGE * area)
        if cv2.countNonZero(change.mask) < MIN_CHANGE * area:
            if dark is not None and last.darker is None:
                last.darker = dark  # (the next card is not looked for blind under the reflection)
            return []
        if lifted_off_unread(self.settled, dark, seen, changed):
            gone = self.settled.pop()  # (the player lifts it to lay the card asked about under it again)
            return [DealEvent(TAKEN_BACK, gone.card, frame_number=n)]
        found, at_normal, faint = self.find(seen, change, long_px), False, False
        if not found and dark is not None:  # (at_normal: it lay in the frame that asked, still since)
            at_normal = bool(found := self._outlined_at_normal(frame, detail, dark, last.detail, long_px))
        before = self.settled[-2].at_exposure(dark) if len(self.settled) >= 2 and not last.pending else None
        under = self.settled[-2].where if before is not None else None  # the card under the last
        # (the card on top now is the one under the last, and the table as it was before the
        # last card: that card was lifted off the pile again; not known under the reflection)
        if before is not None and shows_under(found, under) \
                and cv2.countNonZero(changed(before).mask) < LIFTED * area and not veiled(self.settled, detail, under, area) \
                and not dealt_squared(self.model, frame, detail, found, self.settled[-2].card):
            gone = self.settled.pop()
            return [DealEvent(TAKEN_BACK, gone.card, frame_number=n)]
        below = found and found[0].new < NOT_NEW and (last.where is None or iou(found[0].quad, last.where) <= SAME_PLACE)
        if below and (not dealt_over(seen, change, found[0], long_px) or self.last_on_top(frame, seen, change)):
            found = []  # (no new sides away from the last card: a card below, not dealt; or found again, the last on top: 80009)
        if not found and not self._hand_over(change, seen, dark, None, area):  # (its sides washed out, named: :mod:`vision.deck.faint`)
            found = faint = faint_card(self.model, frame, seen, change, self.last_where, long_px, sizes=self.sizes(),
                                       known=self.cards)
        if not found:  # light, a shadow, a hand: no card's outline
            if self._hand_over(change, seen, dark, None, area):
                return [DealEvent(HAND, frame_number=n)]
            if new_edge_share(seen, change.reference, change.mask, long_px, level=change.edge,
                              aspect=CARD_ASPECT) < UNSEEN_CARD or self.last_on_top(frame, seen, change):
                return []  # (no card's worth of new edges; or the last card still lies on top, uncovered)
            # something came with a card's worth of new edges, yet no card's outline: never
            # passed over in silence (it lies there unread; what comes next is read against it)
            if self.hesitates(detail, dark, None, None, glare=dark is not None, seen=self._not_bare(change.mask, seen, dark)):
                return []
            return self.unnamed(detail, dark, None, None, glare=dark is not None)
        top = found[0]
        h, w = seen.shape[:2]
        cut = top.quad.min() < 1 or top.quad[:, 0].max() > w - 2 or top.quad[:, 1].max() > h - 2
        if dark is not None and not at_normal and in_hand(detail, dark, top.quad, level=DARKER_CHANGE_LEVEL,
                                                          min_pixels=DARKER_MIN_PIXELS):
            return []  # (a card come with the next hand: the darker frame shows nothing of the one looked for)
        # (in a look where the light moved, a hand from the view's edge touching the card at all may hold it: 55005's 1E)
        if cut or (self._hand_over(change, seen, dark, top.quad, area, least=1 if self.before is not None else None)
                   and not self._rests(seen, dark, top.quad)):
            return [DealEvent(HAND, frame_number=n)]
        if not faint and last.where is not None \
                and iou(top.quad, last.where) > (SAME_PLACE if top.new < NOT_NEW else SAME_CARD):
            return self._looked_again(frame, detail, top, change, dark, normal, area)
        if second_card(seen, change.reference, change.mask, top, long_px, level=change.edge,
                       aspect=CARD_ASPECT, sizes=self.sizes(),
                       pile=tuple(s.where for s in self.settled if s.where is not None)) is not None:
            if last.pending:
                self.settled.pop()
            self.push(detail, None, pending=True, darker=dark, where=top.quad)
            return [DealEvent(TWO_CARDS, frame_number=n)]
        if below:  # a card squared on one further down: named only if it is not a card on the pile
            naming = self.model.named_at(frame, top.quad, detail, wider=True)
            if naming.card is None or naming.card in self.cards:
                if self.last_on_top(frame, seen, change):
                    return []  # (a card of the pile found again under the light: the last one lies on top)
                return self.unnamed(detail, dark, None, naming, glare=dark is not None)
            return self.name(frame, detail, top, dark, normal, naming=naming)
        return self.name(frame, detail, top, dark, normal)

    def _rests(self, seen: np.ndarray, dark: np.ndarray | None, quad: np.ndarray) -> bool:
        """Whether the hand over the card at ``quad`` rests there: the last look, in a still spell of its
        own, answered "a hand is there" over the same card, and nothing of the card's place changed since
        (:data:`RESTED`). A dealer's hand resting at the pile, its fingertips on the card's margin, was
        answered "a hand" look after look until the next card covered the card (64006's 9C and 10B)."""
        was, self.handed = self.handed, Handed(seen, dark is not None, quad)
        if was is None or was.dark != (dark is not None) or was.seen.shape != seen.shape or iou(was.quad, quad) < SAME_CARD:
            return False
        floor, least = change_levels(dark)
        return changed_inside(was.seen, seen, quad, floor=floor, min_pixels=least) < RESTED

    def _hand_over(self, change: Change, seen: np.ndarray, dark: np.ndarray | None, quad: np.ndarray | None,
                   area: float, *, least: float | None = None) -> bool:
        """:func:`vision.deck.motion.hand_over`, on what changed where no longer the table lies (:meth:`_not_bare`)."""
        return hand_over(change.mask, quad, area, least=least) and \
            hand_over(self._not_bare(change.mask, seen, dark), quad, area, least=least)

    def _not_bare(self, mask: np.ndarray, seen: np.ndarray, dark: np.ndarray | None) -> np.ndarray:
        """``mask`` (what changed since the pile's last state) where ``seen`` differs from the table under
        the pile (its first state, kept) too. What lay in the last state and has gone since (a dealer's hand
        resting at the view's edge when the last card was read, a card in the air in its darker frame)
        leaves the table bare: no hand there now (59010's 7E was answered "a hand is there" until the next
        card covered it), nor where a card came (55010's 3B, its ask held, was settled by 11B "beside" it)."""
        bare = self.settled[0].at_exposure(dark) if len(self.settled) > 1 else None
        if bare is None or bare.shape != seen.shape:
            return mask
        floor, least = change_levels(dark)
        return cv2.bitwise_and(mask, compare(bare, seen, floor=floor, min_pixels=least).mask)

    def _outlined_at_normal(self, frame: np.ndarray, detail: np.ndarray, dark: np.ndarray,
                            reference: np.ndarray, long_px: float) -> list[Outline]:
        """The new card's outline in the frame that asked for the darker one (``detail``), against
        the table before it at the same, normal exposure (``reference``), when the darker frame
        holds none: a shorter exposure is noisier and shrinks every step, so the card's sides away
        from the reflection may not hold there, where they do in the frame that asked. The card
        is still named in the darker frame (the print the reflection washed out shows there).
        Only an outline with new sides (the last card found again is no card come), of a card
        lying still from the frame that asked into the darker one (``dark``), that names a card
        in the darker frame (``frame``): else the look goes on as with no outline (a second chance
        at the card, never a new ask: the frame that asked may hold the next card in the air)."""
        found = self.find(detail, compare(reference, detail, floor=CHANGE_LEVEL), long_px)
        # (new sides, and lying still into the darker frame: not the next card in the air in the frame that asked)
        if not found or found[0].new < NOT_NEW or not _lay_still(tone_map(detail, dark), dark, found[0].quad,
                                                                   floor=DARKER_CHANGE_LEVEL, min_pixels=DARKER_MIN_PIXELS):
            return []
        naming = self.model.named_at(frame, found[0].quad, detail)
        return found if naming.card is not None else []

    def last_on_top(self, frame: np.ndarray, seen: np.ndarray, change: Change | None = None) -> bool:
        """Whether the last card read (counted) still lies on top, uncovered, in ``frame``
        (``seen``: its detail copy; :mod:`vision.deck.ontop`): what changed is no card come over
        it (a lingering hand's fingers, the light). ``change``: ``seen`` against the pile's last
        state, when the caller has it (else compared with the last card's own detail copy)."""
        last = self.settled[-1]
        if last.pending or (change is None and last.detail is None):
            return False
        change = change if change is not None else compare(last.detail, seen, floor=CHANGE_LEVEL)
        return still_on_top(self.model, last.card, last.where, frame, seen, change.reference, change.edge)

    def _looked_again(self, frame: np.ndarray, detail: np.ndarray, top: Outline, change: Change,
                      dark: np.ndarray | None, normal: np.ndarray | None, area: float) -> list[DealEvent]:
        """The card found lies where the last one lay, its sides not new: that card looked at
        again (the light changed over it, or a flicker made two still spells of one). Only
        when its print changed is it named: another card squared exactly on it. Not named sure,
        with every edge it showed when it was read still there, it is that card under the moving
        light (a card squared on it covers its print), and nothing is said."""
        inside = quad_mask(change.mask.shape, top.quad)
        if cv2.countNonZero(cv2.bitwise_and(change.mask, inside)) < PRINT_CHANGED * area:
            return []
        naming = self.model.named_at(frame, top.quad, detail)
        last = self.settled[-1]
        if naming.card is not None and naming.card == last.card:
            return []
        if naming.card is None and (naming.best in (last.card, None) or (last.card is not None and not last.pending)) \
                and print_kept(dark if dark is not None else detail, change.reference, inside, change.edge) >= PRINT_KEPT:
            return []  # (unsure, yet every edge the last card showed still shows: the light moved, no card came)
        # (another card named; or unsure, most like another card, some of the last card's print gone: asked
        # about; its print changed: a card came there, squared on the last one)
        return self.name(frame, detail, top, dark, normal, naming=naming, came=True)

    def name(self, frame: np.ndarray, detail: np.ndarray, top: Outline, dark: np.ndarray | None,
              normal: np.ndarray | None = None, *, naming: Naming | None = None,
              came: bool | None = None) -> list[DealEvent]:
        """Name the card at ``top`` (or ask about it). ``came``: whether a card came at ``top``
        (default: its sides were new edges), as the refit (:mod:`vision.deck.refit`) needs it."""
        n = self.frame
        where = top.quad
        if not self.steady(detail, where):
            self.unsteady = True  # (looked at again in the next frame)
            return []
        quad = where * (frame.shape[1] / detail.shape[1])
        views = views_around(frame, quad)
        naming = naming if naming is not None else self.model.identify(views, wider=True)
        if naming.card is None and top.straight is not None:
            # (the outline was turned where its sides barely hold: the card may be named at the
            # rectangle found before it turned, when not at the turned one)
            at = views_around(frame, top.straight * (frame.shape[1] / detail.shape[1]))
            straight = self.model.identify(at)
            if straight.card is not None:
                views, naming, where = at, straight, top.straight
        if naming.card is None and normal is not None:
            # The darker frame is noisier: a card the reflection only grazes may still be
            # named, with its own margins, in the frame at the normal exposure (a narrower
            # alignment search: the frame's time is spent twice on this card).
            again = views_around(normal, quad, reach=3, scales=(1.0,))
            second = self.model.identify(again)
            if second.card is not None or again[0].glare > 0:  # (a reflection on it: asked to move it)
                views, naming = again, second
        if naming.card is None:
            # (the outline may be off the card: fitted again to the frame's own edges, :mod:`vision.deck.refit`)
            seen, last = (detail if dark is None else dark), self.settled[-1]
            floor, least = change_levels(dark)
            again = refit(seen, last.at_exposure(dark), where, top.long, new=NOT_NEW, floor=floor, min_pixels=least,
                          came=top.new >= NOT_NEW if came is None else came)
            if again is not None and iou(again.quad, where) <= SAME_CARD:
                fit = self.model.named_at(frame, again.quad, detail)
                if fit.card is not None and fit.card not in self.cards:
                    naming, top, where = fit, again, again.quad
        if naming.card is None and len(self.sizes()) > 1 and (got := grown(self.model, frame, detail, top, self.cards)):
            (naming, top), where = got, got[1].quad  # (the first card's size still searched: :func:`grown`)
        if naming.card is None and self.restless:
            # a hand at the view's edge moved: this may be the next card, still held over the
            # pile (paper over paper changes little, so it may pass for lying still): looked at again
            self.unsteady = True
            return []
        if naming.card is None:
            # with a reflection on it, moving the card is what helps, not showing it again
            if self.hesitates(detail, dark, where, naming, glare=views[0].glare > 0):
                return []
            return self.unnamed(detail, dark, where, naming, glare=views[0].glare > 0)
        if naming.card in self.cards and self.restless:
            # a card counted, with a hand still at the view's edge: the card above it may be
            # lifted (laid down again soon), or it is being laid again: looked at again once
            # the hand is still, not answered "ja comptada" about a card the hand uncovered
            self.unsteady = True
            return []
        last = self.settled[-1]
        if naming.card == last.card and last.where is not None and iou(where, last.where) > SAME_PLACE:
            return []  # (the last card counted, found again about where it lies: no card came, nothing to say)
        if last.pending:
            self.settled.pop()  # the card asked about: what lies there now is read instead
        if naming.card in self.cards:
            self.push(detail, None, darker=dark, where=where)  # it lies on the pile, not counted
            return [DealEvent(ALREADY, naming.card, naming, n)]
        self.push(detail, naming.card, darker=dark, where=where)
        if self.scale is None:  # the cards' size as seen, for the next outlines
            long = top.long
            if naming.where is not None:  # (named at the outline fitted to its print: that one's size)
                q = order_quad(naming.where) * (detail.shape[1] / frame.shape[1])
                long = float(np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])) / 2
            self.longs = (self.longs + [long])[-5:]
            self.card_long = float(np.median(self.longs))
        return [DealEvent(COUNTED, naming.card, naming, n)]

    def steady(self, detail: np.ndarray, quad: np.ndarray) -> bool:
        """Whether the card at ``quad`` lay there in the frame before (:attr:`before`) too:
        little of its area changed. A card still in the air a frame before lay elsewhere."""
        return self.before is None or _lay_still(self.before, detail, quad, floor=CHANGE_LEVEL)

    def hesitates(self, detail: np.ndarray, dark: np.ndarray | None, where: np.ndarray | None,
                  naming: Naming | None, *, glare: bool, seen: np.ndarray | None = None) -> bool:
        """Whether the ask about a card come, not named (nor outlined), is held back for one more
        look in the next still frame (:mod:`vision.deck.again`): once per pile state."""
        if self.held is not None and self.held.state is self.settled[-1]:
            self.held = None
            return False
        self.held, self.unsteady = Held(self.settled[-1], detail, dark, where, naming, glare, seen), True
        return True

    def unnamed(self, detail: np.ndarray, dark: np.ndarray | None, where: np.ndarray | None,
                 naming: Naming | None, *, glare: bool) -> list[DealEvent]:
        """A card came that cannot be named: the kiosk asks about it (never silence). It
        lies there unread; what comes next is read against it."""
        if self.settled[-1].pending:
            self.settled.pop()  # the card asked about: what lies there now is asked about instead
        self.uncertain += 1
        self.push(detail, None, pending=True, darker=dark, where=where)
        return [DealEvent(GLARE if glare else SHOW_AGAIN, naming=naming, frame_number=self.frame)]


def _lay_still(before: np.ndarray, detail: np.ndarray, quad: np.ndarray, *, floor: float,
               min_pixels: int = 6) -> bool:
    """Whether what lies at ``quad`` in ``detail`` lay there in ``before`` too (detail copies at
    the same exposure): less than :data:`UNSTEADY` of its area changed."""
    return changed_inside(before, detail, quad, floor=floor, min_pixels=min_pixels) < UNSTEADY
