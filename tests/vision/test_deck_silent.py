"""Round 23's traces of the rough benchmark (``python -m tests.bench rough``): cards the fresh
held-out sets 48000 and 52000-55000 passed over in silence or counted while still in the dealer's
hand, each read with the bench's own model. A hand resting near the pile
(:data:`vision.deck.motion.APART`); the first card on a mat whose markers said a size a few per cent
off (:func:`vision.deck.first._sizes`); a card dealt white on white whose change a darker frame, at a
high gain, was too thin to look at (:func:`vision.deck.darker.changed_either`); a card in the dealer's
hand, touched by it (:meth:`vision.deck.pile.Pile.judge`); a card held over the pile in a darker frame,
found by its print alone; a held ask settled by a card its guess was not (:func:`vision.deck.again.owed`)."""

from __future__ import annotations

import dataclasses

import numpy as np

from tests.bench.bench_rough import models
from tests.realcam.rough.dealing import deal_sequence
from tests.realcam.rough.nuisances import realistic_nuisances
from tests.vision import realdeck
from vision.deck.darker import DARKER_SCALE
from vision.deck.tracker import ASK_KINDS, COUNTED, UNDER, DealTracker


def _read(seed: int, resolution: str, stop: int, *, at_once: bool = False, style: str = "moderna"):
    nu = realistic_nuisances(np.random.default_rng([seed, 1]))
    if at_once:
        nu = dataclasses.replace(nu, at_once=True)
    seq = deal_sequence(seed, nu, resolution=resolution, cards=12, deck_style=style)
    tracker = DealTracker(models((style,))[style], darker_scale=DARKER_SCALE)
    told = realdeck.told_between(tracker, seq, 0, stop)
    assert all(seq.truth[i] == code for i, kind, code in told if kind == COUNTED), told
    return seq, told


def test_cards_dealt_while_the_dealers_hand_rests_near_the_pile_are_counted():
    """48007 (1080p on felt, gain 5.8): after 3B the dealer's hand rested at the view's edge, its
    fingers 0.2-0.4 of a card from the pile's outline, twitching in every frame while 5O and then
    2O lay there. Each twitch was movement near the pile: no two frames lay still, no look, and
    both cards were passed over in silence (7C was counted on them). Fingers further than 0.15 of
    a card from the pile, twitching, are a hand lingering apart from it: the pile is looked at."""
    seq, told = _read(48007, "1080p", 50)
    assert seq.truth[4:8] == ["3B", "5O", "2O", "7C"], seq.truth
    assert {(5, COUNTED, "5O"), (6, COUNTED, "2O"), (7, COUNTED, "7C")} <= set(told), told
    assert not any(kind in ASK_KINDS for _, kind, _ in told), told


def test_the_first_card_on_a_mat_is_found_at_the_size_it_shows():
    """52006 and 53006 (720p on the mat, dealing at once): the first frames that agree already hold
    the first card, plain in view. The mat's markers said a card 3-6 % bigger than it lay, and the
    whole-view search, coarse, tried that size alone: no outline, and the card was taken for the
    table in silence. Tried at 5 % either way too, it is found and counted."""
    seq, told = _read(52006, "720p", 8, at_once=True)
    assert seq.truth[0] == "6B" and (0, COUNTED, "6B") in told, (seq.truth, told)
    seq, told = _read(53006, "720p", 8, at_once=True)
    assert seq.truth[0] == "2C" and (0, COUNTED, "2C") in told, (seq.truth, told)


def test_a_card_dealt_white_on_white_at_a_high_gain_is_looked_at_in_the_darker_frame():
    """53010 (720p on wood, gain 6.8, the lamp's reflection on the pile): 8C landed on 3O with no
    frame in flight and no hand in view. The look asked for a darker frame, where, shorter exposed
    and noisier, only 276 px changed against the table before (a card's 5 % is 347): nothing, and 8C
    was passed over in silence. The frame that asked changed 967 px there: the darker look looks
    where either changed, and 8C is counted."""
    seq, told = _read(53010, "720p", 66, at_once=True)
    assert seq.truth[8:10] == ["3O", "8C"], seq.truth
    assert {(8, COUNTED, "3O"), (9, COUNTED, "8C")} <= set(told), told


def test_a_card_in_the_dealers_hand_is_not_counted_until_it_lies():
    """55005 (1080p on the mat, fournier): 1E came into view in the dealer's hand, a frame after a
    still one, its motion blurred away, and the look found it below the pile; the fingers holding
    it touched less than 3 % of it, so no hand was over it, and whether it lay there a frame before
    was measured in its own box, where its coming was taken for the light: counted in the air (a
    wrong card: 10C lay on top), then "ja comptada". In a look where the light moved, a hand from
    the view's edge touching the card at all is "a hand is there"."""
    seq, told = _read(55005, "1080p", 28, style="fournier")
    assert seq.truth[2:4] == ["10C", "1E"], seq.truth
    assert {(2, COUNTED, "10C"), (3, COUNTED, "1E")} <= set(told), told
    assert not any(kind in ASK_KINDS for _, kind, _ in told), told


def test_a_card_held_over_the_pile_in_a_darker_frame_is_not_counted():
    """54009 (1080p on wood, fournier, a reflection of 1.6 on the pile): the look at 4E asked for a
    darker frame, and the next hand came in with 3C and held it over the pile there. 4E's outline,
    found in the frame that asked, was named in the darker frame as 3C, the card held over it, and
    3C counted (a wrong card), 4E passed over. A darker frame names nothing where the next hand came
    over it: 4E is asked about, and 3C counted once it lies."""
    seq, told = _read(54009, "1080p", 50, at_once=True, style="fournier")
    assert seq.truth[6:8] == ["4E", "3C"], seq.truth
    assert (7, COUNTED, "3C") in told and any(i == 6 and kind in ASK_KINDS for i, kind, _ in told), told


def test_a_held_ask_is_not_settled_by_a_card_its_guess_was_not():
    """55000 (720p on wood, fournier, a reflection of 1.6): 5E, washed out, was not named, and its ask
    was held for a look more (guessed 5B, unsure). 4B then landed squarely on it with no frame in
    flight and was counted; washed out alike, the print at the held place "barely changed", and the
    held ask was settled as if 4B were the held card: 5E passed over in silence. The guess was
    another card, so 5E is asked about as the card under 4B. (Since round 27 the darker look that held
    the ask reads the frame that asked first (:meth:`vision.deck.darklook.DarkerLook._under_first`), where
    5E is named sure: counted, then 4B; asked about, it was never passed over either.)"""
    seq, told = _read(55000, "720p", 57, style="fournier")
    assert seq.truth[10:12] == ["5E", "4B"], seq.truth
    assert (11, COUNTED, "4B") in told, told
    assert (10, COUNTED, "5E") in told or (11, UNDER, "4B") in told, told


def test_the_first_card_white_on_white_on_marble_is_counted_when_the_camera_never_saw_the_table():
    """72000 (720p on white marble, gain 1.5, the lamp's reflection over the card): 2B lay there
    from the first frame, no hand seen. Its sides step 3-5 levels per pixel over the marble, where the
    whole-view search asked 6 (no second frame to measure the noise, it said; the two frames that agree
    are one): no outline, and 2B was taken for the table in silence. Measured against the frame before
    (noise edge 3.0), it is found and counted."""
    seq, told = _read(72000, "720p", 8, style="fournier")
    assert seq.truth[0] == "2B" and (0, COUNTED, "2B") in told, (seq.truth, told)
    assert not any(kind in ASK_KINDS for _, kind, _ in told), told


def test_a_card_the_darker_frame_names_beside_the_one_read_in_the_frame_that_asked_is_counted_too():
    """72007 (1080p on the mat, moderna, the lamp's reflection on the pile): 11O landed almost squared
    on 6O with no frame in flight, between the frame that asked for a darker frame and the darker frame.
    The frame that asked held 6O's outline elsewhere than the card the darker frame named (11O): 6O was
    read there, first, and counted; 11O, against 6O, showed almost no new sides and was passed over in
    silence. The card the darker frame named sure, not on the pile, is counted after it."""
    seq, told = _read(72007, "1080p", 56)
    assert seq.truth[8:10] == ["6O", "11O"], seq.truth
    assert {(8, COUNTED, "6O"), (9, COUNTED, "11O")} <= set(told), told
    assert not any(kind in ASK_KINDS for _, kind, _ in told), told
