import numpy as np

from kiosk.game import DECK, Card
from vision.fusion import PileVote, disagreeing_pairs, doubtful_pairs
from vision.result import Detection, ReadResult
from vision.scene import make_scene


def _both_stickers(reader):
    """A read of a spread where some card shows both stickers."""
    for seed in range(3, 40):
        scene = make_scene(seed, cards=6, px_per_mm=2.6, glare=0)
        result = reader.read(scene.image)
        twice = [c for c in result.cards if len(result.detections_of(c)) == 2]
        if twice:
            return scene, result, twice[0]
    raise AssertionError("no scene shows both stickers of a card")


def test_two_stickers_of_one_card_that_name_different_cards_count_neither_when_one_is_unsure(reader):
    scene, result, card = _both_stickers(reader)
    assert disagreeing_pairs(result.detections, reader.sticker_mm) == []
    # paint the second sticker of that card over with another card's code: a forged or misread sticker
    from vision.kit import sticker_image
    other = next(c for c in DECK if c not in result.cards)
    d = result.detections_of(card)[1]
    img = scene.image.copy()
    st = sticker_image(other, px_per_mm=12.0)
    code = st[: int(12 * 12.0), int(1 * 12.0): int(13 * 12.0)]  # the code image, quiet zone included
    h = code.shape[0]
    src = np.float32([[h * 0.1, h * 0.1], [h * 0.9, h * 0.1], [h * 0.9, h * 0.9], [h * 0.1, h * 0.9]])
    import cv2
    hom = cv2.getPerspectiveTransform(src, d.corners.astype(np.float32))
    warped = cv2.warpPerspective(code, hom, (img.shape[1], img.shape[0]), borderValue=0)
    mask = cv2.warpPerspective(np.full_like(code, 255), hom, (img.shape[1], img.shape[0]))
    crisp = img.copy()
    crisp[mask > 0] = warped[mask > 0][:, None]
    # a crisp print there reads hard: another card lying over this one's corner, both count
    overlap = reader.read(crisp)
    assert card in overlap.cards and other in overlap.cards
    # the same pair where the second is a soft read (a margin of 20 nats): in doubt, neither
    dets = list(overlap.detections)
    k = next(n for n, x in enumerate(dets) if x.card == other)
    dets[k] = Detection(other, dets[k].corners, 20.0)
    refused = doubtful_pairs(dets, reader.sticker_mm)
    assert {dets[n].card for n in refused} == {card, other}


def _result(*places):
    dets = [Detection(card, np.float32([[x, y], [x + 20, y], [x + 20, y + 20], [x, y + 20]]), margin)
            for card, (x, y), margin in places]
    return ReadResult(cards=sorted({d.card for d in dets}, key=DECK.index), detections=dets)


def test_frames_of_one_pile_vote_with_their_margins():
    a, b, c = DECK[0], DECK[1], DECK[2]
    vote = PileVote(min_lead=12.0)
    vote.add(_result((a, (100, 100), 30.0), (b, (400, 100), 14.0)))
    vote.add(_result((a, (101, 100), 25.0), (c, (400, 101), 13.0)))  # b's place read as c once
    vote.add(_result((b, (399, 100), 40.0)))
    counted, disputed = vote.decide()
    assert counted == [a, b] and disputed == [c]  # b leads c by 54 - 13 nats
    tie = PileVote(min_lead=12.0)
    tie.add(_result((b, (400, 100), 20.0)))
    tie.add(_result((c, (400, 100), 20.0)))
    assert tie.decide() == ([], [b, c])  # refused, never guessed


def test_with_one_mat_corner_in_view_stickers_keep_their_own_places():
    """One corner marker gives only its own homography, and each read its own (the still
    and its darker twin disagree by 20 mm a whole mat away): the vote then works in pixels.
    The numbers are a 12 MP still of the realistic camera that lost two plain cards to this."""
    first = np.array([[6.3002941813e-02, 2.3053295920e-01, -1.6122018986e+02],
                      [-2.0777255219e-01, 4.4912035944e-02, 6.1674218852e+02],
                      [9.5481684788e-05, -5.1443718841e-05, 1.0]])
    darker = np.array([[5.4432992160e-02, 2.0340728276e-01, -1.4042999665e+02],
                       [-2.0627122620e-01, 5.1569434473e-02, 5.7645943132e+02],
                       [3.0457707964e-09, 5.3100682540e-09, 1.0]])
    seen = {"3O": [[3020.6, 874.1], [2974.5, 870.2], [2978.4, 824.1], [3024.5, 828.0]],
            "9C": [[2772.9, 772.3], [2728.8, 770.4], [2730.7, 724.3], [2776.8, 726.2]],
            "1E": [[2897.7, 810.7], [2851.7, 812.6], [2851.7, 766.5], [2897.7, 766.5]],
            "8C": [[2686.5, 724.3], [2642.4, 728.1], [2636.6, 684.0], [2682.7, 678.2]]}
    cards = sorted((Card.parse(c) for c in seen), key=DECK.index)

    def read(one_corner):
        return ReadResult(cards=cards, detections=[Detection(Card.parse(c), np.float32(q)) for c, q in seen.items()],
                          mat_found=False, homography=one_corner)

    vote = PileVote()
    vote.add(read(first))
    vote.add(read(darker))
    counted, disputed = vote.decide()
    assert counted == cards and disputed == []
