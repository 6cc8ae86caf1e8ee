"""The player doing what the deck reader asked: a card it was not sure of, lifted and laid
down again a few mm off, is named then, once, and the count goes on as if it had been named
the first time (drawn dealing sequences, no mat in view: the card's size is the reader's
own)."""

from __future__ import annotations

import pytest

from kiosk.game import Card, pile_points
from tests.vision import deckdraw
from vision.deck.tracker import ALREADY, COUNTED, DARKER, SHOW_AGAIN, UNDER

ORDER = [Card.parse(c) for c in ("9O", "8O", "1C", "10C", "12E", "1E", "9B")]
UNDER_ORDER = [Card.parse(c) for c in ("9O", "1C", "10C")]


@pytest.fixture(scope="module")
def model():
    return deckdraw.learnt("A")


@pytest.mark.parametrize("seed", [24, 27, 29])
def test_a_card_sent_back_and_laid_down_again_is_named_once(model, seed):
    deal = deckdraw.deal(ORDER, seed=seed, stained=(1,))  # the 8 of oros lands under a beer mat's stain
    tracker, events = deckdraw.run_tracker(model, deal.frames)
    # asked about once, never guessed; named when laid down again; nothing else asked
    assert [e.kind for e in events].count(SHOW_AGAIN) == 1
    counted = [e for e in events if e.kind == COUNTED]
    assert [e.card for e in counted] == ORDER
    assert (tracker.tally.points, tracker.tally.tricks) == pile_points(ORDER)
    # the card laid down again is read from its own outline, not from its outline joined
    # to the gap it left (which also made the reader's idea of a card's size grow): it
    # and every card after it keep a clear score
    scores = [e.naming.score for e in counted[1:]]
    assert min(scores) > 0.7, scores


@pytest.mark.parametrize("seed", [24, 27, 32])
def test_a_counted_card_squared_on_the_pile_is_not_counted_again_and_leaves_the_size_alone(model, seed):
    deal = deckdraw.deal(ORDER, seed=seed, relaid=(1,))  # the 8 of oros lifted and laid down again
    tracker, events = deckdraw.run_tracker(model, deal.frames)
    # laid down again where it lay, it is the card on top already: at most "ja comptada", never counted twice
    assert [e.kind for e in events].count(ALREADY) <= 1
    counted = [e for e in events if e.kind == COUNTED]
    # no wrong card after it: the change of a card moved (it and the gap it left, bigger
    # than a card) once grew the reader's idea of a card's size without a mat in view, and
    # the outlines after it came out too big (a 12 of espases named as the 10)
    assert [e.card for e in counted] == ORDER
    assert min(e.naming.score for e in counted) > 0.7, [e.naming.score for e in counted]


def test_the_benchs_player_lays_the_card_down_again_and_the_deal_goes_on_later():
    """tests/bench/deck_reshow.py, which the deck bench's figures rest on: the card asked
    about moves a few mm (or out of the reflection), the rest of the deal comes later by
    the time the answer took, and the frames before the answer are the deal's own."""
    import numpy as np

    from tests.bench.deck_reshow import ReshownDeal, frame_at, reshown
    from tests.realcam.deal import deal

    d = deal(3, cards=4, fps=4, lighting="harsh")
    ask_s = d.truth[1].still_s + 0.1
    again = reshown(d, 1, ask_s, glare=False, attempt=1)
    assert isinstance(again, ReshownDeal) and again.truth[1].code == d.truth[1].code
    shift = again.truth[2].lands_s - d.truth[2].lands_s
    assert 0.5 < shift < 2.5 and len(again) > len(d)
    assert [c.code for c in again.truth] == d.order
    assert all(abs(a.lands_s - b.lands_s - shift) < 1e-9 for a, b in zip(again.truth[2:], d.truth[2:]))
    centre = np.array([30.5, 47.5, 1.0])
    (old,), (new,) = (s["items"] for s in (d._plan["steps"][1], again._plan["steps"][1]))
    moved = np.hypot(*((new.place @ centre)[:2] - (old.place @ centre)[:2]))
    assert 0 < moved <= 6.0
    # under the lamp's reflection (0.65 of the card's white here) the card is slid out of it
    slid = reshown(d, 1, ask_s, glare=True, attempt=1)
    assert d.truth[1].glare > 0.6 and slid.truth[1].glare < 0.4
    # a frame after the answer is rendered from the changed plan, with the card moved
    n = int(again.truth[1].still_s * again.fps) + 1
    image = frame_at(again, n, {})
    assert image.shape[:2] == (720, 1280)


@pytest.mark.parametrize("answer", ["plain", "linger", "glint"])
def test_the_card_under_named_in_its_one_still_frame_is_counted_under_the_top_card(model, answer):
    """The 1 of copes lies still one frame only; the 10 of copes lands squared on it and is counted.
    Round 17 asked about the card under it ("card under"); since round 21 the 1, named sure in the
    frame it lay in, is counted under the 10 (its event first, marked ``under``) and nothing is
    asked. Players who lift the 10 and lay both again all the same (the old answer: the 1 a few mm
    off, the 10 back on it) leave the count as it is: no card counted twice, none dropped.
    "linger": the dealer's hand rests at the view's edge in the 1's one still frame; "glint": the
    lamp's reflection on the pile moves while the 10 is off. 960x540, 55 frames. (The answer to a
    "card under" ask, when the card under cannot be named, is the bench's: ``deck_reshow``.)"""
    deal = deckdraw.deal(UNDER_ORDER, seed=24, size=(960, 540), px_mm=1.35, under=(1,), answer=answer)
    tracker, events = deckdraw.run_tracker(model, deal.frames)
    said = [(e.kind, e.card, e.under) for e in events if e.kind != DARKER]
    nine, one, ten = UNDER_ORDER
    assert said[:3] == [(COUNTED, nine, False), (COUNTED, one, True), (COUNTED, ten, False)], said
    assert UNDER not in [kind for kind, _, _ in said], said
    assert tracker.cards == UNDER_ORDER


def test_the_benchs_player_answers_card_under_by_lifting_the_top_card_and_laying_both_again():
    """tests/bench/deck_reshow.py's ``under_answered``, which bench_deck answers "card under" with:
    the top card leaves the pile when the hand lifts it, the card under it is laid again a few mm
    off and lies on top alone for a while, then the top card is laid back a few mm off, and the rest
    of the deal comes that much later (the plans only: no frame rendered)."""
    import numpy as np

    from tests.bench.deck_reshow import ReshownDeal, under_answered
    from tests.realcam.deal import deal

    d = deal(3, cards=4, fps=4, lighting="harsh")
    ask_s = d.truth[2].still_s + 0.1
    again = under_answered(d, 2, ask_s, attempt=1)
    assert isinstance(again, ReshownDeal) and again.order == d.order and ask_s < again.swap_s
    under, top = again.truth[1], again.truth[2]
    # the card under lies on top alone from the lift until the hand brings the top card back
    assert again.swap_s < under.still_s < under.until_s < top.lands_s < top.still_s
    assert max(k for k, c in enumerate(again.truth) if c.lands_s <= under.still_s) == 1
    shift = top.still_s - d.truth[2].still_s
    assert all(abs(a.lands_s - b.lands_s - shift) < 1e-9 for a, b in zip(again.truth[3:], d.truth[3:]))
    centre = np.array([30.5, 47.5, 1.0])

    def laid(plan, t):  # the cards lying on the pile at t, and where (their centres, mm)
        return [(it.code, (it.place @ centre)[:2]) for s in plan["steps"] if s["t_land"] <= t for it in s["items"]]

    before, after = laid(again.before._plan, again.swap_s - 0.01), laid(again._plan, again.swap_s + 0.01)
    assert [c for c, _ in before] == d.order[:3] and [c for c, _ in after] == d.order[:2]  # (the top card in the hand)
    assert 0 < np.hypot(*(after[1][1] - before[1][1])) <= 6.0  # the card under laid again a few mm off
    back = laid(again._plan, top.lands_s)
    assert [c for c, _ in back] == d.order[:3] and 0 < np.hypot(*(back[2][1] - before[2][1])) <= 6.0
