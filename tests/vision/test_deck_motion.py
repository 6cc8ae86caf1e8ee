"""What the deal-through tracker takes for movement and for a card that came (issue 21):
a swaying reflection that clips is light; a twitching hand's fingers belong to its arm at
the view's edge; new edges say a card came even where no outline is found, a reflection's
smooth light does not."""

from __future__ import annotations

import cv2
import numpy as np

from vision.deck.locate import CARD_ASPECT
from vision.deck.motion import counts, moving_mask
from vision.deck.outline import new_edge_share

W, H = 320, 180


def _table() -> np.ndarray:
    img = np.full((H, W, 3), (150, 170, 160), np.uint8)
    cv2.rectangle(img, (140, 70), (172, 91), (235, 235, 235), -1)  # a card at motion size
    for x in range(146, 170, 5):
        cv2.line(img, (x, 74), (x, 88), (40, 40, 160), 1)  # its print
    return img


def _reflection(img: np.ndarray, cx: float) -> np.ndarray:
    """The lamp's mirror image on the glossy card (the matt mat shows next to none)."""
    yy, xx = np.mgrid[0:H, 0:W]
    bump = 400.0 * np.exp(-((xx - cx) ** 2 + (yy - 80) ** 2) / (2 * 9.0 ** 2))
    bump *= (xx >= 140) & (xx <= 172) & (yy >= 70) & (yy <= 91)
    return np.clip(img + bump[..., None], 0, 255).astype(np.uint8)


def test_a_swaying_clipped_reflection_is_light_and_a_card_under_it_still_counts():
    a, b = _reflection(_table(), 150), _reflection(_table(), 162)  # the lamp swayed 12 px
    assert np.count_nonzero(moving_mask(a, b, glare_is_light=False)) > 20  # the print washed out and back
    assert np.count_nonzero(moving_mask(a, b)) == 0
    # a card dealt beside it moves, reflection or not
    c = b.copy()
    cv2.rectangle(c, (60, 40), (92, 61), (230, 230, 230), -1)
    assert counts(moving_mask(b, c), None, 32) > 100


def test_a_hand_twitching_at_the_edge_is_not_movement_before_the_pile_is_known():
    a = np.full((H, W, 3), (150, 170, 160), np.uint8)
    b = a.copy()
    for img, dx in ((a, 0), (b, 3)):
        cv2.rectangle(img, (0, 0), (40 + dx, 14), (120, 150, 200), -1)  # the arm at the top edge
        for k in range(4):  # its fingers, a few px beyond
            cv2.rectangle(img, (12 + 8 * k + dx, 17), (16 + 8 * k + dx, 30), (120, 150, 200), -1)
    moved = moving_mask(a, b)
    assert np.count_nonzero(moved) > 20
    assert counts(moved, None, 32) == 0
    # a card landing in the middle does count
    c = b.copy()
    cv2.rectangle(c, (140, 70), (172, 91), (235, 235, 235), -1)
    assert counts(moving_mask(b, c), None, 32) > 100


def test_new_edges_tell_a_card_that_came_from_light_that_moved():
    long_px = 120.0
    ref = np.full((400, 600, 3), (150, 170, 160), np.uint8)
    card = ref.copy()
    cv2.rectangle(card, (200, 150), (277, 270), (235, 235, 235), -1)
    changed = np.zeros((400, 600), np.uint8)
    changed[140:281, 190:288] = 255
    assert new_edge_share(card, ref, changed, long_px, level=6.0, aspect=CARD_ASPECT) > 1.0
    yy, xx = np.mgrid[0:400, 0:600]
    bump = 80.0 * np.exp(-((xx - 240) ** 2 + (yy - 210) ** 2) / (2 * 40.0 ** 2))
    lit = np.clip(ref + bump[..., None], 0, 255).astype(np.uint8)
    assert new_edge_share(lit, ref, changed, long_px, level=6.0, aspect=CARD_ASPECT) < 0.2


def test_a_resting_hand_twitching_by_the_pile_lingers_and_the_dealing_hand_does_not():
    """32003 (1080p, marble): 9C lies frames 21-24 with the dealer's hand resting at the view's
    bottom edge, its fingers twitching apart from the pile (9E's outline, the last read); 12C
    comes at 25. The tracker's card is 8 % short of the drawn one there (34.7 motion px), and
    the twitch 22 -> 23 is 0.55 of that card: taken for the dealing hand, no two frames lay
    still, 9C was never looked at alone ("two cards" at 29). A hand that moved at the view's
    edge a frame before already rests there: it lingers moving up to 0.75 of a card (one just
    come in, with the next card, up to 0.5); the dealing hand bringing 12C moves 1.26 cards'
    worth, and comes over the pile."""
    from tests.realcam.rough.dealing import deal_sequence
    from tests.realcam.rough.nuisances import realistic_nuisances
    from vision.deck.locate import shrunk
    from vision.deck.motion import RESTING, movement

    seq = deal_sequence(32003, realistic_nuisances(np.random.default_rng([32003, 1])), resolution="1080p",
                        cards=12, deck_style="moderna")
    assert [seq.frame_truth[n].top for n in (19, 22, 24)] == ["9E", "9C", "9C"] and seq.frame_truth[25].flying
    small = {n: shrunk(seq.frame(n).image, W, 5) for n in range(21, 26)}
    pile = seq.frame_truth[19].quad * (W / 1920)  # 9E's outline, motion px
    tracker_long = 34.7  # (the drawn card: 37.6 px)
    steps = {(a, b): moving_mask(small[a], small[b]) for a, b in ((21, 22), (22, 23), (24, 25))}
    assert movement(steps[21, 22], pile, tracker_long) == (0, False, True)  # (the hand at the edge, still)
    assert movement(steps[22, 23], pile, tracker_long)[1]  # (a twitch like a hand just come in)
    assert movement(steps[22, 23], pile, tracker_long, linger=RESTING) == (0, False, True)
    dealing = movement(steps[24, 25], pile, tracker_long, linger=RESTING)
    assert dealing[1] and dealing[0] > 900


def test_the_same_two_frames_are_compared_once_and_another_frame_afresh():
    """A look asks the same comparison of the same two frames more than once (vision.deck.recent):
    the second answer is the first one; a frame that is another object, even of equal pixels
    or changed from a copy, is compared afresh, and a frame pushed out of the last few too."""
    from vision.deck.exposure import compare
    before = _table()
    after = before.copy()
    cv2.rectangle(after, (60, 40), (92, 61), (235, 235, 235), -1)  # a card came
    first = compare(before, after, floor=18)
    assert compare(before, after, floor=18) is first
    assert cv2.countNonZero(first.mask) > 400
    again = compare(before.copy(), after, floor=18)  # (equal pixels, another frame)
    assert again is not first and np.array_equal(again.mask, first.mask)
    assert compare(before, after, floor=18, min_pixels=6) is not first  # (other options)
    moved = after.copy()
    cv2.rectangle(moved, (200, 40), (232, 61), (235, 235, 235), -1)  # and a second one
    assert cv2.countNonZero(compare(before, moved, floor=18).mask) > cv2.countNonZero(first.mask) + 400
    for _ in range(4):  # four other comparisons push the first out
        compare(before.copy(), after, floor=18)
    assert compare(before, after, floor=18) is not first


def test_the_reference_is_brought_to_the_exposure_by_each_channels_median_ratio():
    """gain_matched: one gain a channel, the median of the sample's ratios (every 4th pixel,
    levels clear of noise and clipping), exactly np.median's value, whatever the frame's size."""
    from vision.deck.exposure import gain_matched
    rng = np.random.default_rng(3)
    # (small and noisy: the ratios next to the median differ, a sample pixel more or less shows)
    for h, w in ((72, 72), (70, 73)):  # (the second: a size OpenCV does not sample)
        before = cv2.resize(_table(), (w, h))
        before = np.clip(before + rng.normal(0, 25, before.shape), 0, 255).astype(np.uint8)
        before[:8, :16] = 255  # clipped, left out
        after = np.clip(before * np.float32([1.07, 0.96, 1.0]) + rng.normal(0, 8, before.shape), 0, 255)
        after = after.astype(np.uint8)
        gains = []
        for a, b in zip(cv2.split(before[::4, ::4]), cv2.split(after[::4, ::4])):
            ok = (a > 24) & (a < 240) & (b > 24) & (b < 240)
            gains.append(float(np.clip(np.median(b[ok].astype(np.float32) / a[ok].astype(np.float32)), 1 / 1.5, 1.5)))
        assert abs(gains[0] - 1.07) < 0.02 and abs(gains[1] - 0.96) < 0.02
        assert np.array_equal(gain_matched(before, after), cv2.transform(before, np.diag(gains)))
