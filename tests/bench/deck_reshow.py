"""The player doing what the reader asked: a dealing sequence that goes on differently
once the kiosk asks about a card.

The deck reader never guesses: a card it is not sure of is sent back with "Not sure which
card this is: lift it and lay it down again", one under a reflection with "A reflection on
the card: move it until it no longer shines" (kiosk/ui/screens/deal.py). At a real table the player then
does just that, and the count goes on. :func:`reshown` gives the sequence from that moment:

- the player reacts (0.5-1 s after the ask), the hand comes in from the dealer's side,
  and while it is over the pile the card is lifted and laid down again: a few mm and
  degrees off ("show again", "two cards": the player lays it down again on its own), or,
  under a reflection, slid out of the shine the player sees (the shortest move that leaves
  the lamp's reflection on it dim: 30 mm or more, 150 mm at most);
- the hand leaves, the card lies still as long as it did the first time, and the rest of
  the pile is dealt as before, that much later.

"A card under it went unseen" (the card on top counted, the one under it never read) is answered
by :func:`under_answered`: the top card lifted off, the one under it laid again, the top card
laid back on it.

The new frames are rendered by the sequence's own renderer (``Deal._frame``) on a changed
plan, and kept on disk under a key of their own; tests/realcam is not changed (its files'
hash keys the cache of every rendered frame).
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
from dataclasses import dataclass
import numpy as np

import tests.realcam.deal as realdeal
from tests.realcam import props
from tests.bench.deck_darker import folder, kept
from tests.realcam.deal import Deal, DealtCard

REACTION_S = (0.5, 1.0)  # from the kiosk's ask to the hand coming in
RELAY_MM = 6.0  # laid down again within this many mm ...
RELAY_DEG = 8.0  # ... and degrees of where it lay
MOVE_MM = (30.0, 150.0)  # slid at least this far out of a reflection, at most ...
CLEAR = 0.4  # ... until the reflection on it is this bright (1 = the card's white)


@dataclass
class ReshownDeal(Deal):
    """A :class:`Deal` whose card was lifted and laid down again at ``swap_s`` (under the
    hand): frames before that come from ``before``'s plan, the card where it first lay."""

    before: Deal | None = None
    swap_s: float = 0.0

    def _frame(self, t: float, n: int, cache: dict) -> realdeal.DealFrame:
        # each plan keeps its own canvas of the pile: the card moved, its label did not
        if t < self.swap_s and self.before is not None:
            return self.before._frame(t, n, cache.setdefault("before", {}))
        return Deal._frame(self, t, n, cache.setdefault("after", {}))


def _turned(place: np.ndarray, dx: float, dy: float, deg: float) -> np.ndarray:
    """``place`` (card mm -> table mm) moved by (dx, dy) and turned ``deg`` about the card's centre."""
    c = place @ np.array([30.5, 47.5, 1.0])
    cx, cy = c[0] / c[2], c[1] / c[2]
    return props.move(cx + dx, cy + dy) @ props.rot(deg) @ props.move(-cx, -cy) @ place


def _new_place(d: Deal, card: realdeal.Item, glare: bool, rng: np.random.Generator) -> np.ndarray:
    if not glare:
        r, a = rng.uniform(0, RELAY_MM), rng.uniform(0, 2 * math.pi)
        return _turned(card.place, r * math.cos(a), r * math.sin(a), rng.uniform(-RELAY_DEG, RELAY_DEG))
    # slid out of the shine the player sees: the shortest move (in one of 8 directions) that
    # leaves the card under CLEAR of the reflection, or the clearest one at MOVE_MM's end
    p = d._plan
    turn = rng.uniform(-5, 5)
    start = rng.uniform(0, 2 * math.pi)

    def glare_at(place: np.ndarray) -> float:
        return realdeal._glare_on(dataclasses.replace(card, place=place), p["pose"], p["lighting"])

    tries = []
    for dist in np.arange(MOVE_MM[0], MOVE_MM[1] + 1, 10.0):
        tries = [_turned(card.place, dist * math.cos(a), dist * math.sin(a), turn)
                 for a in start + np.linspace(0, 2 * math.pi, 8, endpoint=False)]
        best = min(tries, key=glare_at)
        if glare_at(best) < CLEAR:
            return best
    return min(tries, key=glare_at)


def reshown(d: Deal, index: int, ask_s: float, *, glare: bool, attempt: int) -> ReshownDeal:
    """``d`` from ``ask_s`` on, where the player answers an ask about card ``index`` (its
    ``attempt``-th time): see the module's doc. ``glare``: the ask was to move the card
    out of a reflection."""
    plan = d._plan
    rng = np.random.default_rng([d.seed, 11, index, attempt])
    steps = plan["steps"]
    # the step that laid card ``index`` (a step may lay two cards)
    k, seen = 0, 0
    for k, s in enumerate(steps):
        if seen + len(s["items"]) > index:
            break
        seen += len(s["items"])
    step = steps[k]
    per = step["t_gone"] - step["t0"]
    t0 = ask_s + rng.uniform(*REACTION_S)
    t_land = t0 + per * rng.uniform(0.55, 0.7)
    t_gone = t_land + per * rng.uniform(0.3, 0.45)
    shift = t_gone - d.truth[index].still_s  # the card lies still as long as it did
    hand = dict(step, t0=t0, t_land=t_land, t_gone=t_gone, items=[])
    later = [dict(s, t0=s["t0"] + shift, t_land=s["t_land"] + shift, t_gone=s["t_gone"] + shift)
             for s in steps[k + 1:]]
    key = hashlib.sha1(repr((plan["key"], index, attempt, round(ask_s, 3), glare)).encode()).hexdigest()[:16]
    before_plan = dict(plan, key=key + "-a", steps=steps[:k + 1] + [hand] + later)
    item = step["items"][index - seen]
    moved = dataclasses.replace(item, place=_new_place(d, item, glare, rng))
    items = list(step["items"])
    items[index - seen] = moved
    after_plan = dict(plan, key=key, steps=steps[:k] + [dict(step, items=items), hand] + later)
    truth = [_later(c, shift) if j > index else c for j, c in enumerate(d.truth)]
    truth[index] = dataclasses.replace(
        truth[index], still_s=t_gone, until_s=truth[index].until_s + shift,
        glare=realdeal._glare_on(moved, plan["pose"], plan["lighting"]))
    before = Deal(d.seed, d.mode, d.fps, d.deck_style, d.lighting, truth, d.duration_s + shift, before_plan)
    return ReshownDeal(d.seed, d.mode, d.fps, d.deck_style, d.lighting, truth, d.duration_s + shift, after_plan,
                       before=before, swap_s=t_land)


def under_answered(d: Deal, top: int, ask_s: float, *, attempt: int) -> ReshownDeal | None:
    """``d`` from ``ask_s`` on, where the player answers the kiosk's "card under" ask about the
    card under card ``top`` (counted; the ask's ``attempt``-th time): the hand comes (0.5-1 s
    after the ask), lifts card ``top`` off and lays the one under it again a few mm and degrees
    off; the hand leaves, that card lies still 0.6-1 s; the hand brings card ``top`` back and lays
    it a few mm and degrees off its old place; it lies still as long as it did, and the rest of the
    pile comes that much later. None when the two cards were laid in one step (dealt together)."""
    plan = d._plan
    rng = np.random.default_rng([d.seed, 13, top, attempt])
    steps = plan["steps"]
    places = [(k, j) for k, s in enumerate(steps) for j in range(len(s["items"]))]  # (step, item), dealing order
    if top < 1 or top >= len(places) or places[top][0] == places[top - 1][0]:
        return None
    (kt, jt), (ku, ju) = places[top], places[top - 1]
    step = steps[kt]
    per = step["t_gone"] - step["t0"]
    t0 = ask_s + rng.uniform(*REACTION_S)
    t_lift = t0 + per * rng.uniform(0.55, 0.7)  # the top card lifted, the one under laid again
    t_left = t_lift + per * rng.uniform(0.3, 0.45)
    t_back0 = t_left + rng.uniform(0.6, 1.0)  # the hand comes back with the top card
    t_back = t_back0 + per * rng.uniform(0.55, 0.7)
    t_gone = t_back + per * rng.uniform(0.3, 0.45)
    shift = t_gone - d.truth[top].still_s
    lift = dict(step, t0=t0, t_land=t_lift, t_gone=t_left, items=[])
    later = [dict(s, t0=s["t0"] + shift, t_land=s["t_land"] + shift, t_gone=s["t_gone"] + shift)
             for s in steps[kt + 1:]]
    key = hashlib.sha1(repr((plan["key"], "under", top, attempt, round(ask_s, 3))).encode()).hexdigest()[:16]
    before_plan = dict(plan, key=key + "-a", steps=steps[:kt + 1] + [lift] + later)
    under = dataclasses.replace(steps[ku]["items"][ju], place=_new_place(d, steps[ku]["items"][ju], False, rng))
    back = dataclasses.replace(step["items"][jt], place=_new_place(d, step["items"][jt], False, rng))
    changed = [dict(s) for s in steps[:kt + 1]]
    changed[ku]["items"] = [under if j == ju else it for j, it in enumerate(steps[ku]["items"])]
    changed[kt]["items"] = [it for j, it in enumerate(changed[kt]["items"]) if j != jt]  # (in the hand now)
    again = dict(step, t0=t_back0, t_land=t_back, t_gone=t_gone, items=[back])
    after_plan = dict(plan, key=key, steps=changed + [lift, again] + later)
    truth = [_later(c, shift) if j > top else c for j, c in enumerate(d.truth)]
    truth[top - 1] = dataclasses.replace(truth[top - 1], still_s=t_left, until_s=t_back0,
                                         glare=realdeal._glare_on(under, plan["pose"], plan["lighting"]))
    truth[top] = dataclasses.replace(truth[top], lands_s=t_back, still_s=t_gone, until_s=truth[top].until_s + shift,
                                     glare=realdeal._glare_on(back, plan["pose"], plan["lighting"]))
    before = Deal(d.seed, d.mode, d.fps, d.deck_style, d.lighting, truth, d.duration_s + shift, before_plan)
    return ReshownDeal(d.seed, d.mode, d.fps, d.deck_style, d.lighting, truth, d.duration_s + shift, after_plan,
                       before=before, swap_s=t_lift)


def _later(c: DealtCard, shift: float) -> DealtCard:
    return dataclasses.replace(c, lands_s=c.lands_s + shift, still_s=c.still_s + shift, until_s=c.until_s + shift)


def frame_at(d: Deal, n: int, canvas: dict) -> np.ndarray:
    """Frame ``n`` of ``d`` (BGR, after JPEG), kept on disk after its first render as
    ``Deal.frames`` keeps it (``canvas``: the pile's drawing, one dict per sequence)."""
    kept_in = folder(d)

    def render() -> realdeal.DealFrame:
        frame = d._frame(n / d.fps, n, canvas)
        if frame.hand_in_view:  # as Deal.frames marks it
            try:
                kept_in.mkdir(parents=True, exist_ok=True)
                (kept_in / f"{n:05d}.hand").touch()
            except OSError:
                pass
        return frame

    return kept(kept_in / f"{n:05d}.jpg", render)
