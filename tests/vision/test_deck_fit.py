"""A card outlined a tenth too small and a few degrees turned (the printed frame inside a
Spanish card's edge taken for its edge, a size kept from the first card): the first look,
which searches shifts and three sizes only, is unsure of it; the second look fits the outline
to the best card's print (``vision.deck.fit``) and names it there by the same rules. An
outline on the bare table beside the card stays unnamed."""

from __future__ import annotations

import numpy as np

from kiosk.game import Card
from tests.realcam.rough.dealing import deal_sequence
from tests.realcam.rough.nuisances import neat
from tests.vision import realdeck
from vision.deck import model as deck_model
from vision.deck.fit import fitted_quad
from vision.deck.views import local_contrast, order_quad, views_around

# the cards dealt, and the same ranks in other suits and their neighbours
LEARNT = ("5E", "6E", "7E", "5C", "5O", "7C", "7B")


def _off(quad: np.ndarray, size: float, turn_deg: float) -> np.ndarray:
    q = order_quad(quad)
    c = q.mean(axis=0)
    a = np.radians(turn_deg)
    turn = np.float32([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return c + size * (q - c) @ turn.T


def test_a_card_outlined_small_and_turned_is_named_at_its_fitted_outline(monkeypatch):
    learnt = realdeck.learnt("moderna", LEARNT)
    seq = deal_sequence(34021, neat(), resolution="720p", cards=["5E", "7E"], deck_style="moderna")
    for i, code in enumerate(seq.truth):
        n = [n for n in seq.lying_frames(i) if seq.frame_truth[n].still][1]
        image, true = seq.frame(n).image, order_quad(seq.frame_truth[n].quad)
        views = views_around(image, _off(true, 0.9, 3.0))
        naming = learnt.identify(views)
        assert naming.card == Card.parse(code), naming
        # the outline fitted to the card's print lies within 1.5 mm of its true one (61 mm wide)
        c = learnt.cards.index(naming.card)
        scores = local_contrast(np.stack([v.whole for v in views])) @ learnt.local[2 * c:2 * c + 2].T
        k, o = np.unravel_index(int(np.argmax(scores)), scores.shape)
        fitted = fitted_quad(views[k], learnt.light_template(c, int(o)))
        mm = np.linalg.norm(true[1] - true[0]) / 61.0
        ends = [np.abs(order_quad(fitted) - true).max(), np.abs(order_quad(fitted) - true[[2, 3, 0, 1]]).max()]
        assert min(ends) < 1.5 * mm, (min(ends) / mm, code)
        # an outline on the table beside the card: not named
        beside = true + 1.1 * (true[1] - true[0])
        assert learnt.identify(views_around(image, beside)).card is None
        # without the second look, the first is unsure (the score or the margin): asked, not named
        with monkeypatch.context() as m:
            m.setattr(deck_model, "fitted_quad", lambda *a, **k: None)
            first = learnt.identify(views)
            assert first.card is None and first.best == Card.parse(code), first


def test_a_card_outlined_a_few_mm_off_under_a_reflection_is_named_where_its_print_lines_up():
    """41001's 6E (1080p, felt, gain 6.3, the lamp's reflection on it) in the darker frame its
    look asked for, at the outline the tracker found there: a few millimetres off, beyond the
    alignment search's reach. The first look was unsure (3E best, 6E second by 0.004), and the
    outline fitted to 3E's print named no card: the card was asked to be moved, though its print
    shows plainly. The wider look (the search made again around the best cards' own best
    alignments) names it 6E; an outline on the bare felt beside it stays unnamed."""
    from tests.realcam.rough.nuisances import realistic_nuisances
    from vision.deck.darker import DARKER_SCALE

    seq = deal_sequence(41001, realistic_nuisances(np.random.default_rng([41001, 1])), resolution="1080p",
                        cards=12, deck_style="fournier")
    assert seq.truth[4] == "6E" and seq.frame_truth[32].top_index == 4 and seq.frame_truth[32].still
    learnt = realdeck.learnt("fournier", tuple(sorted(set(seq.truth) | {"3E", "4E", "7E", "3C"})))
    image = seq.frame(32, exposure_scale=DARKER_SCALE).image
    found = np.float32([[880, 414], [1045, 572], [944, 677], [779, 520]])  # (the tracker's outline there)
    true = order_quad(seq.frame_truth[32].quad)
    mm = np.linalg.norm(true[1] - true[0]) / 61.0
    assert np.abs(order_quad(found).mean(axis=0) - true.mean(axis=0)).max() > 2 * mm  # (a few mm off)
    views = views_around(image, found)
    assert learnt.identify(views).card is None  # (the first look and the fitted outline: unsure)
    assert learnt.identify(views, wider=True).card == Card.parse("6E")
    beside = found + 1.2 * (found[3] - found[0])
    assert learnt.identify(views_around(image, beside), wider=True).card is None


def test_a_card_outlined_turned_along_the_pile_is_named_at_the_outline_turned_back():
    """36009's 9B (1080p, glossy wood), dealt squared on the pile: the outline the tracker found
    lies along the pile's sides, turned 18 degrees off the card, so the first look was unsure
    (3B best, 9B second) and the outline fitted to 3B's print named no card: asked to be shown
    again. The wider look tries the outline turned either way and names it 9B there, one of the
    best cards at the outline found."""
    from tests.realcam.rough.nuisances import realistic_nuisances

    seq = deal_sequence(36009, realistic_nuisances(np.random.default_rng([36009, 1])), resolution="1080p",
                        cards=12, deck_style="fournier")
    assert seq.truth[9] == "9B" and seq.frame_truth[63].top_index == 9 and seq.frame_truth[63].still
    learnt = realdeck.learnt("fournier", tuple(sorted(set(seq.truth) | {"3B", "4B", "6B", "7B", "9E"})))
    image = seq.frame(63).image
    found = np.float32([[908, 396], [1106, 460], [1066, 586], [868, 522]])  # (the tracker's outline there)
    views = views_around(image, found)
    assert learnt.identify(views).card is None
    assert learnt.identify(views, wider=True).card == Card.parse("9B")
