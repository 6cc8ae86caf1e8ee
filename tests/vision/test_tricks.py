"""The trick reader (vision.tricks) on one trick filmed by the realistic overhead camera
(tests/overhead): each card named at its seat once it lies still, a card at the wrong
turn held, a card already played refused, a card the deck does not know asked about."""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np
import pytest

from kiosk.game import Card
from kiosk.game.handrecord import CardPlayed, HandInPlay
from kiosk.game.rules import Rules
from tests.overhead.frames import Sequence, overhead
from tests.overhead.rough import rough_overhead
from tests.bench.bench_tricks import learnt_deck
from vision.deck.views import views_around
from vision.tricks import TrickAsk, TrickPlay, TrickReader
from vision.tricks.zones import Patch


TRICK_READ = 8  # frames after the trick's last card lies still: its read (half a second) and a little more


@lru_cache(maxsize=1)
def one_trick() -> tuple[Sequence, list]:
    """The first trick of hand 1, 720p at 85 cm: its frames until the fourth card is read
    (its sweep, 15 frames more: test_a_trick_swept_off_clears_the_places_for_the_next)."""
    seq = overhead(1, mode="720p", height_cm=85.0, tricks=1)
    return seq, [f.image for f in seq.frames(limit=seq.frame_of(seq.plan.plays[-1].still_s) + TRICK_READ)]


@lru_cache(maxsize=4)
def trick_deck(without: str | None = None):
    """The trick's cards and the same ranks in two other suits (their closest rivals)."""
    seq, _ = one_trick()
    codes = {p.code for p in seq.plan.plays}
    codes |= {f"{Card.parse(c).rank}{s}" for c in codes for s in "OC"}
    return learnt_deck(tuple(sorted(codes - {without})))


def hand_of(seq: Sequence, first_lead: int | None = None) -> HandInPlay:
    doc = seq.plan.doc
    lead = doc["first_lead"] if first_lead is None else first_lead
    return HandInPlay(doc["trump"], first_lead=lead, rules=Rules.from_dict(doc["rules"]))


def run(reader: TrickReader, frames) -> list[tuple[int, object]]:
    out = []
    for n, image in enumerate(frames):
        out += [(n, e) for e in reader.feed(image)]
    return out


@pytest.fixture(autouse=True)
def one_core():
    cv2.setNumThreads(1)


@lru_cache(maxsize=1)
def whole_trick_read() -> tuple[TrickReader, list[tuple[int, object]]]:
    """The reader and its events (with their frame numbers) over hand 1's first trick, from the
    bare table to the winner's sweep: read once for the two tests that look at it (the reader
    does the same work, frame for frame, whatever the test then asserts)."""
    seq, _ = one_trick()
    reader = TrickReader(trick_deck(), seq.seats_px, hand_of(seq), frame_size=seq.size)
    return reader, run(reader, (f.image for f in seq.frames()))


def test_each_card_is_named_at_its_seat_soon_after_it_lies_still():
    seq, frames = one_trick()
    reader, events = whole_trick_read()
    plays = [e for _, e in events if isinstance(e, TrickPlay)]
    assert [(p.trick, p.seat, p.card.code) for p in plays] == [(p.trick, p.seat, p.code) for p in seq.plan.plays]
    assert not [e for _, e in events if isinstance(e, TrickAsk)]
    for (n, e), p in zip([x for x in events if isinstance(x[1], TrickPlay)], seq.plan.plays):
        assert n - seq.frame_of(p.still_s) <= 5  # half a second at 10 frames a second
    assert max(n for n, e in events if isinstance(e, TrickPlay)) < len(frames)  # read before the sweep
    assert reader.hand.tricks[0].winner == seq.plan.check["winners"][0]


def test_a_card_at_the_wrong_turn_is_held_not_guessed():
    seq, frames = one_trick()
    lead = seq.plan.doc["first_lead"]
    reader = TrickReader(trick_deck(), seq.seats_px, hand_of(seq, (lead + 1) % 4), frame_size=seq.size)
    events = run(reader, frames)
    plays = [(n, e) for n, e in events if isinstance(e, TrickPlay)]
    # the true leader's card lies first but waits: the hand expects the next seat first
    assert [e.seat for _, e in plays] == [(lead + 1 + i) % 4 for i in range(4)]
    assert plays[0][0] >= seq.frame_of(seq.plan.plays[1].still_s) - 1
    assert {e.card.code for _, e in plays} == {p.code for p in seq.plan.plays}


def test_a_card_already_played_is_refused_and_asked_about():
    seq, frames = one_trick()
    first = seq.plan.plays[0]
    hand = hand_of(seq).play(CardPlayed(1, first.seat, Card.parse(first.code)))
    reader = TrickReader(trick_deck(), seq.seats_px, hand, frame_size=seq.size)
    events = [e for _, e in run(reader, frames)]
    asks = [e for e in events if isinstance(e, TrickAsk)]
    assert [(a.seat, a.reason, a.card) for a in asks] == [(first.seat, "played", Card.parse(first.code))]
    assert [e.card.code for e in events if isinstance(e, TrickPlay)] == [p.code for p in seq.plan.plays[1:]]


def face_down(seq: Sequence, frames: list, play) -> list:
    """The frames with ``play``'s card lying face down (a plain back over its face) from the
    frame it is laid in: a card-shaped thing the deck cannot name."""
    hm = seq.pose.table_to_image(seq.size)
    corners = np.float32([[[0, 0], [61, 0], [61, 95], [0, 95]]])
    quad = cv2.perspectiveTransform(corners, hm @ play.place)[0]
    out = []
    for n, image in enumerate(frames):
        if seq.frame_of(play.lands_s) <= n < seq.frame_of(play.gone_s) - 2:
            image = image.copy()
            pts = np.round(quad).astype(np.int32)
            cv2.fillConvexPoly(image, pts, (205, 210, 225), cv2.LINE_AA)  # a pale back, a red frame
            inner = np.round(quad.mean(0) + (quad - quad.mean(0)) * 0.8).astype(np.int32)
            cv2.polylines(image, [inner], True, (50, 50, 170), 3, cv2.LINE_AA)
        out.append(image)
    return out


def test_a_card_it_cannot_name_is_asked_about_and_the_answer_goes_on():
    seq, frames = one_trick()
    first = seq.plan.plays[0]
    reader = TrickReader(trick_deck(), seq.seats_px, hand_of(seq), frame_size=seq.size)
    plays, asks = [], []
    for image in face_down(seq, frames, first):
        for e in reader.feed(image):
            if isinstance(e, TrickAsk):
                asks.append(e)
                plays += reader.answer(e.seat, Card.parse(first.code))
            else:
                plays.append(e)
    assert [(a.trick, a.seat, a.reason) for a in asks] == [(1, first.seat, "unnamed")]
    assert [(p.seat, p.card.code) for p in plays] == [(p.seat, p.code) for p in seq.plan.plays]


def test_the_trump_is_not_needed_when_the_leader_is_seen_first():
    seq, frames = one_trick()
    doc = seq.plan.doc
    hands = [HandInPlay(t, first_lead=doc["first_lead"]) for t in ("oros", "copes", "espases", "bastos", "botifarra")]
    reader = TrickReader(trick_deck(), seq.seats_px, hands, frame_size=seq.size)
    plays = [e for _, e in run(reader, frames) if isinstance(e, TrickPlay)]
    assert [(p.seat, p.card.code) for p in plays] == [(p.seat, p.code) for p in seq.plan.plays]


def test_seats_must_be_the_four():
    seq, _ = one_trick()
    with pytest.raises(ValueError):
        TrickReader(trick_deck(), {0: (1, 1), 1: (2, 2)}, hand_of(seq), frame_size=seq.size)


def test_a_trick_swept_off_clears_the_places_for_the_next():
    """The winner's hand reaches in and sweeps the four cards off (hand 1's first trick, the
    15 frames after :func:`one_trick`'s: the hand over the cards, moving, then the bare
    table): each place is cleared (its card seen gone) and the winner is to lead the next
    trick. The two ways a place is cleared are each guarded alone on drawn frames
    (tests/vision/test_tricks_table.py: a place seen bare again; a complete trick's card
    touched, covered by the next); here both on rendered footage."""
    seq, frames = one_trick()
    reader, events = whole_trick_read()
    plays = [e for _, e in events if isinstance(e, TrickPlay)]
    assert len(seq) > len(frames) and seq.plan.reaches[-1].sweeps  # the sweep's frames read too
    assert [(p.trick, p.seat, p.card.code) for p in plays] == [(p.trick, p.seat, p.code) for p in seq.plan.plays]
    assert reader.down == {} and not reader.taken
    assert [t.winner for t in reader.hand.tricks] == seq.plan.check["winners"]
    assert reader.hand.to_play == seq.plan.check["winners"][0]  # the winner leads the next trick


def test_a_card_never_seen_still_is_asked_once_the_next_seat_lies_named():
    """Players lay in turn: the leader's card hidden from the camera (the bare table painted
    over it, as a reflection swaying over it hides it), the second seat's card, named, says
    the leader's lies there: asked about at once, not when the trick is taken off; the
    answer lets the waiting cards in, in turn order."""
    seq, frames = one_trick()
    first, second = seq.plan.plays[:2]
    hm = seq.pose.table_to_image(seq.size)
    quad = cv2.perspectiveTransform(np.float32([[[0, 0], [61, 0], [61, 95], [0, 95]]]), hm @ first.place)[0]
    mask = np.zeros(frames[0].shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(quad.mean(0) + (quad - quad.mean(0)) * 1.3).astype(np.int32), 1)
    hidden = [np.where(mask[..., None] > 0, frames[0], image) if n >= seq.frame_of(first.lands_s) else image
              for n, image in enumerate(frames)]
    reader = TrickReader(trick_deck(), seq.seats_px, hand_of(seq), frame_size=seq.size)
    plays, asks = [], []
    for n, image in enumerate(hidden):
        for e in reader.feed(image):
            if isinstance(e, TrickAsk):
                asks.append((n, e))
                plays += reader.answer(e.seat, Card.parse(first.code))
            else:
                plays.append(e)
    assert [(a.trick, a.seat, a.reason) for _, a in asks] == [(1, first.seat, "unnamed")]
    assert asks[0][0] - seq.frame_of(second.still_s) <= 5  # half a second after the next card lay still
    assert [(p.seat, p.card.code) for p in plays] == [(p.seat, p.code) for p in seq.plan.plays]


def reflected(seq: Sequence, frames: list, play, *, start: int = 3, beside: float = 0.0) -> list:
    """The frames with a lamp's reflection swaying to and fro along ``play``'s card from
    ``start`` frames after it lies still (``beside``: its path that many card widths off the
    card's middle): added light, brightest on the glossy card (a fifth of it on the table),
    clipped white as the sensor clips it."""
    hm = seq.pose.table_to_image(seq.size)
    quad = cv2.perspectiveTransform(np.float32([[[0, 0], [61, 0], [61, 95], [0, 95]]]), hm @ play.place)[0]
    across = (quad[1] - quad[0]) * beside
    centre, along = quad.mean(0) + across, (quad[2] - quad[1]) / 2
    x0, y0 = np.floor(quad.min(0)).astype(int) - 120
    x1, y1 = np.ceil(quad.max(0)).astype(int) + 120  # 3 sigmas round the card
    gloss = np.full((y1 - y0, x1 - x0), 0.15, np.float32)
    cv2.fillConvexPoly(gloss, np.round(quad - (x0, y0)).astype(np.int32), 1.0, cv2.LINE_AA)
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    out = []
    for n, image in enumerate(frames):
        if n >= seq.frame_of(play.still_s) + start:
            x, y = centre + along * 0.6 * np.sin(n * 0.9)
            spot = 90.0 * gloss * np.exp(-((xx - x) ** 2 + (yy - y) ** 2) / (2 * 40.0 ** 2))
            image = image.copy()
            image[y0:y1, x0:x1] = np.clip(image[y0:y1, x0:x1] + spot[..., None], 0, 255).astype(np.uint8)
        out.append(image)
    return out


def test_a_reflection_swaying_over_a_card_read_is_not_its_trick_taken():
    """A reflection swaying over the leader's card, read and lying in its trick, changes its
    look from frame to frame (a card-shaped change where it lies): not the trick taken off
    nor covered by the next (once taken for it: the next seat was asked about "taken"
    before its card was laid), since the card's print and outline are still where they were."""
    seq, frames = one_trick()
    reader = TrickReader(trick_deck(), seq.seats_px, hand_of(seq), frame_size=seq.size)
    events = [e for _, e in run(reader, reflected(seq, frames, seq.plan.plays[0]))]
    assert not [e for e in events if isinstance(e, TrickAsk)]
    assert [(e.seat, e.card.code) for e in events] == [(p.seat, p.code) for p in seq.plan.plays]


def test_a_card_never_still_under_a_reflection_is_named_when_its_name_is():
    """A rough table (tests/overhead/rough.py, hand 402, trick 11): green felt, the lamp's
    reflection swaying over the leader's card and round it, so the card is never still to
    the camera (something moves beside it in every frame; before: asked about once the next
    seat's card lay named, 0.7 s after it lay still). Its outline stays put and the deck
    names it the same in successive frames: read, no ask, every card at its seat."""
    seq = rough_overhead(402, mode="720p", height_cm=74.0, renunci=True)
    hand = hand_of(seq)
    for p in seq.plan.plays:
        if p.trick < 11:
            hand = hand.play(CardPlayed(p.trick, p.seat, Card.parse(p.code)))
    reader = TrickReader(learnt_deck(), seq.seats_px, hand, frame_size=seq.size)
    first, second = [p for p in seq.plan.plays if p.trick == 11][:2]
    events = [(f.n, e) for f in seq.frames(start=456, limit=seq.frame_of(second.still_s) + 6)
              for e in reader.feed(f.image)]
    assert not [e for _, e in events if isinstance(e, TrickAsk)]
    assert [(e.seat, e.card.code) for _, e in events] == [(p.seat, p.code) for p in (first, second)]
    assert events[0][0] - seq.frame_of(first.still_s) <= 5


def test_a_card_under_a_swaying_reflection_on_marble_is_named_once_it_lies_still():
    """A rough table (tests/overhead/rough.py, hand 410): white marble, the lamp's reflection
    swaying near the first seat's place. What differs from the table there is the card and
    the reflection's halo round it, at every threshold one patch, not card-shaped; the
    detail that changed (print and outline, the smooth light taken off) is the card alone:
    named a frame after it lies still (before: 0.9 s later, when the halo swayed off it)."""
    seq = rough_overhead(410, mode="720p", height_cm=90.0, tricks=1)
    first = seq.plan.plays[0]
    codes = {p.code for p in seq.plan.plays}
    deck = learnt_deck(tuple(sorted(codes | {f"{Card.parse(c).rank}{s}" for c in codes for s in "OC"})))
    reader = TrickReader(deck, seq.seats_px, hand_of(seq), frame_size=seq.size)
    plays = [(f.n, e) for f in seq.frames(limit=seq.frame_of(first.still_s) + 4) for e in reader.feed(f.image)]
    assert [(e.seat, e.card.code) for _, e in plays][:1] == [(first.seat, first.code)]
    assert plays[0][0] - seq.frame_of(first.still_s) <= 2


def test_cards_lying_still_under_a_swaying_reflection_are_read_by_their_own_print():
    """A rough table (tests/overhead/rough.py, hand 402, trick 7): green felt, the lamp's
    reflection swaying at the edge of seat 1's card, and seat 2's card laid touching it (the
    two are one patch until seat 1's is read). Something moves at seat 1's card in nearly
    every frame and the outline its change gives it shifts with the halo, so it was never
    outlined, nor seat 2's with it (both asked "taken" once the trick was swept, 1.8 s
    late). Its own print stays where it is: each card read within half a second of lying
    still, no ask, every card at its seat. (Read from frame 277, the four places clear and
    no hand over them: the reader takes its first frame for the bare table.)"""
    seed, height, trick, start = 402, 74.0, 7, 277
    seq = rough_overhead(seed, mode="720p", height_cm=height, renunci=True)  # (as the bench draws it)
    hand = hand_of(seq)
    for p in seq.plan.plays:
        if p.trick < trick:
            hand = hand.play(CardPlayed(p.trick, p.seat, Card.parse(p.code)))
    plays = [p for p in seq.plan.plays if p.trick == trick]
    reader = TrickReader(learnt_deck(), seq.seats_px, hand, frame_size=seq.size)
    events = [(f.n, e) for f in seq.frames(start=start, limit=seq.frame_of(plays[-1].still_s) + 6)
              for e in reader.feed(f.image)]
    assert not [e for _, e in events if isinstance(e, TrickAsk)]
    assert [(e.seat, e.card.code) for _, e in events] == [(p.seat, p.code) for p in plays]
    assert max(n - seq.frame_of(p.still_s) for (n, _), p in zip(events, plays)) <= 5


def test_a_card_already_played_is_no_rival_and_never_renamed():
    """The deck's naming with cards ruled out (trick mode: already played): every other card
    ruled out, the card seen is named as itself; itself ruled out, it is still named as
    itself (for the reader to refuse as played), never as the next best."""
    seq, frames = one_trick()
    play = seq.plan.plays[0]
    hm = seq.pose.table_to_image(seq.size)
    quad = cv2.perspectiveTransform(np.float32([[[0, 0], [61, 0], [61, 95], [0, 95]]]), hm @ play.place)[0]
    deck = trick_deck()
    views = views_around(frames[seq.frame_of(play.still_s) + 2], quad, reach=9)
    card = Card.parse(play.code)
    others = [c for c in deck.cards if c != card]
    assert deck.identify(views).card == card
    assert deck.identify(views, ruled_out=others).card == card
    assert deck.identify(views, ruled_out=[card]).card == card


def test_a_card_on_a_pale_mat_is_named_on_its_frames_lying_still_averaged():
    """A rough table (tests/overhead/rough.py, hand 405, trick 2): the pale scoring mat, a dim
    lamp, the gain up. Seat 2's 5 of espases scores under the "not a learnt card" floor in
    each frame alone (0.52-0.53), its margin over the 5 of bastos clear (0.09-0.11); the card
    and the camera do not move, so its frames lying still, averaged, have less of the
    camera's noise, and the same margins clear the floor: named, not asked (before: asked
    0.3 s after it lay still). The leader's 9 of espases is named at once as before."""
    seq = rough_overhead(405, mode="720p", height_cm=86.0)
    hand = hand_of(seq)
    for p in seq.plan.plays:
        if p.trick < 2:
            hand = hand.play(CardPlayed(p.trick, p.seat, Card.parse(p.code)))
    reader = TrickReader(learnt_deck(), seq.seats_px, hand, frame_size=seq.size)
    trick = [p for p in seq.plan.plays if p.trick == 2]
    events = []
    for f in seq.frames(start=50, limit=seq.frame_of(trick[2].still_s) + 5):
        for e in reader.feed(f.image):
            events.append((f.n, e))
            if isinstance(e, TrickAsk):  # the table answers (the 7 of espases: 7 of bastos as close)
                events += [(f.n, a) for a in reader.answer(e.seat, Card.parse(trick[1].code))]
    named = {e.seat: (n, e.card.code) for n, e in events if isinstance(e, TrickPlay)}
    assert [named.get(p.seat, (0, None))[1] for p in trick[:3]] == [p.code for p in trick[:3]]
    assert named[trick[2].seat][0] - seq.frame_of(trick[2].still_s) <= 5
    assert all(e.seat == trick[1].seat for _, e in events if isinstance(e, TrickAsk))



@pytest.mark.parametrize("seed, mode, height, frame, code, quad, box", [
    # 1080p, dark felt, gain 4.6: the change's outline a halo 1.2 times the card's sides
    (510, "1080p", 85.0, 17, "12C", [[209.22, 221.70], [261.81, 184.14], [287.42, 219.99], [234.82, 257.55]],
     (211, 184, 288, 257)),
    # 720p, white marble: paper as bright as the table, the outline 1.1 times the card's sides
    (406, "720p", 90.0, 245, "9E", [[229.39, 194.46], [281.21, 170.08], [296.69, 202.97], [244.87, 227.35]],
     (229, 169, 297, 228))])
def test_a_card_outlined_wider_than_it_is_named_on_its_own_outline(seed, mode, height, frame, code, quad, box):
    """Rough tables (tests/overhead/rough.py, as bench_tricks_rough draws them): the table
    watch's outline of a card lying still (``quad``, work px, as the reader traced it in that
    frame) is its change against the table, wider than the card all round (the card's colour
    smoothed, its shadow). Named on it, the card scored under the "not a learnt card" floor
    and was asked about (510: 0.44, on its true outline 0.91; 406: 0.38 against 0.83). On
    felt the outline is tightened to the card's paper (its largest bright piece,
    card-shaped), on marble (no paper to tighten to) the card is looked at again down to a
    smaller outline: named, and as itself."""
    seq = rough_overhead(seed, mode=mode, height_cm=height, renunci=True)
    image = next(seq.frames(start=frame, limit=frame + 1)).image
    reader = TrickReader(learnt_deck(), seq.seats_px, hand_of(seq), frame_size=seq.size)
    q = np.float32(quad)
    patch = Patch(q, box, tuple(map(float, q.mean(0))), True, False)
    assert reader.namer.name(image, patch, ruled_out=[]).card == Card.parse(code)


@pytest.mark.parametrize("seed, height, renunci, trick, seat, start, named", [
    # glossy wood at 97 cm: the 10 of copes' corners lean its way by 0.05-0.14 only (under the
    # deck's 0.35), its whole card 0.54-0.63 of the way from the learnt 12 to the 10 in every look
    (408, 97.0, True, 8, 3, 318, True),
    # the pale mat at 86 cm: the 10 of bastos' corners the 12's way (to -0.10), its whole card
    # 0.30-0.61 of the way against the learnt cards as they are (asked), 0.52-0.80 against
    # them blurred as the card seen is (named)
    (405, 86.0, False, 6, 1, 234, True)])
def test_a_10_its_corners_cannot_tell_is_named_only_when_its_whole_card_does_in_every_look(
        seed, height, renunci, trick, seat, start, named):
    """Rough tables at 720p (tests/overhead/rough.py): a 10 and the 12 of its suit are the
    same figure but the head and the index, 5-6 px tall this far up; the deck leaves them to
    the corners, which do not tell. A card every look at which leans clearly its way over the
    whole card (the learnt cards blurred as much as the card seen is, every one alike), and
    none of whose corners say the 12, is named (before: asked); one whose looks do not all
    lean its way is asked about as before. Every card named is the right one."""
    seq = rough_overhead(seed, mode="720p", height_cm=height, renunci=renunci)
    hand = hand_of(seq)
    for p in seq.plan.plays:
        if p.trick < trick:
            hand = hand.play(CardPlayed(p.trick, p.seat, Card.parse(p.code)))
    reader = TrickReader(learnt_deck(), seq.seats_px, hand, frame_size=seq.size)
    plays = {p.seat: p for p in seq.plan.plays if p.trick == trick}
    ten = plays[seat]
    events = []
    for f in seq.frames(start=start, limit=seq.frame_of(ten.still_s) + 8):
        for e in reader.feed(f.image):
            events.append((f.n, e))
            if isinstance(e, TrickAsk):
                events += [(f.n, a) for a in reader.answer(e.seat, Card.parse(plays[e.seat].code))]
    assert ten.code.startswith("10")
    assert all(e.card.code == plays[e.seat].code for _, e in events if isinstance(e, TrickPlay))
    asked = [e.seat for _, e in events if isinstance(e, TrickAsk)]
    assert (seat not in asked) == named
    assert seat in {e.seat for _, e in events if isinstance(e, TrickPlay)}

