"""What the trick reader takes from the table itself: a change threshold measured on the
table (a card on a pale table, hardly unlike it in grey, is still outlined; a noisy camera
raises the threshold), and the frames it never saw (a gap: the cards that may have come and
gone unseen are asked about, never guessed). Frames are drawn here, in code."""

from __future__ import annotations

import copy
from functools import lru_cache

import cv2
import numpy as np
import pytest

from kiosk.game import Card
from kiosk.game.handrecord import HandInPlay
from vision.deck.model import DeckModel
from vision.tricks import TrickAsk, TrickPlay, TrickReader
from vision.tricks.reader import WHOLE_TRICK_S
from vision.tricks.zones import CHANGE_LEVEL, TableWatch

SIZE = (1280, 720)
SEATS = {0: (640.0, 560.0), 1: (980.0, 360.0), 2: (640.0, 160.0), 3: (300.0, 360.0)}


@pytest.fixture(autouse=True)
def one_core():
    cv2.setNumThreads(1)


def pale_table(rng: np.random.Generator, noise: float) -> np.ndarray:
    """White marble: a grey about 200, with broad clouds, a few veins, and the camera's noise."""
    clouds = cv2.resize(rng.normal(0, 6, (9, 16)), SIZE, interpolation=cv2.INTER_CUBIC)
    table = (np.full((SIZE[1], SIZE[0], 3), 200.0) + clouds[..., None]).astype(np.float32)
    for _ in range(12):
        pts = np.cumsum(rng.normal(0, 25, (8, 2)), axis=0) + rng.uniform((0, 0), SIZE)
        cv2.polylines(table, [pts.astype(np.int32)], False, (185, 185, 185), 1, cv2.LINE_AA)
    return table


def shot(table: np.ndarray, rng: np.random.Generator, noise: float, card_at=None) -> np.ndarray:
    image = table.copy()
    if card_at is not None:
        paste_card(image, card_at)
    # the camera's noise, blotchy as it is after demosaicing and JPEG (a few pixels across)
    grain = rng.normal(0.0, noise, (SIZE[1] // 4, SIZE[0] // 4, 3)).astype(np.float32)
    return np.clip(image + cv2.resize(grain, SIZE, interpolation=cv2.INTER_LINEAR), 0, 255).astype(np.uint8)


def paste_card(image: np.ndarray, centre: tuple[float, float]) -> None:
    """A card as pale as the marble in grey (a cream paper), turned 20 degrees: a thin printed
    border and three green pips."""
    quad = cv2.boxPoints((centre, (120, 78), 20.0)).astype(np.int32)
    cv2.fillConvexPoly(image, quad, (180, 203, 214), cv2.LINE_AA)  # BGR: cream, grey about 203
    inner = cv2.boxPoints((centre, (108, 66), 20.0)).astype(np.int32)
    cv2.polylines(image, [inner], True, (120, 120, 170), 1, cv2.LINE_AA)
    for dx in (-28, 0, 28):
        x = centre[0] + dx * np.cos(np.radians(20))
        y = centre[1] + dx * np.sin(np.radians(20))
        cv2.circle(image, (int(x), int(y)), 7, (60, 140, 40), -1, cv2.LINE_AA)


def test_a_card_as_pale_as_the_table_is_outlined_with_a_threshold_from_the_table():
    rng = np.random.default_rng(5)
    table = pale_table(rng, 1.5)
    watch = TableWatch(SIZE, (60.0, 300.0))
    for _ in range(6):
        assert watch.step(shot(table, rng, 1.5)) == []
    card = shot(table, rng, 0.0, card_at=SEATS[0])
    grey = cv2.cvtColor(card, cv2.COLOR_BGR2GRAY).astype(int) - cv2.cvtColor(
        table.astype(np.uint8), cv2.COLOR_BGR2GRAY)
    paper = cv2.boxPoints((SEATS[0], (40, 20), 20.0)).astype(np.int32)[0]
    assert abs(grey[paper[1], paper[0]]) < CHANGE_LEVEL / 2  # its paper: no grey change to speak of
    patches = []
    for _ in range(4):
        patches = watch.step(shot(table, rng, 1.5, card_at=SEATS[0]))
    assert watch.limits.grey < CHANGE_LEVEL
    cards = [p for p in patches if p.card_shaped]
    assert len(cards) == 1 and not cards[0].bare
    centre = np.float32(cards[0].centre) / watch.scale
    assert np.hypot(*(centre - SEATS[0])) < 6
    long = max(np.linalg.norm(cards[0].quad[i] - cards[0].quad[i - 1]) for i in range(4)) / watch.scale
    assert 110 < long < 135  # the card, not the card and its surroundings


def test_a_noisier_camera_raises_the_threshold():
    limits = {}
    for noise in (1.0, 8.0):
        rng = np.random.default_rng(6)
        table = pale_table(rng, noise)
        watch = TableWatch(SIZE, (60.0, 300.0))
        for _ in range(8):
            watch.step(shot(table, rng, noise))
        limits[noise] = watch.limits
    assert limits[8.0].grey > limits[1.0].grey and limits[8.0].colour > limits[1.0].colour


def bare_reader(deck: DeckModel | None = None) -> tuple[TrickReader, np.random.Generator, np.ndarray]:
    empty = DeckModel("none", [], np.zeros((0, 1), np.float32), np.zeros((0, 1), np.float32))
    reader = TrickReader(deck or empty, SEATS, HandInPlay("oros", first_lead=1), frame_size=SIZE)
    rng = np.random.default_rng(7)
    table = pale_table(rng, 1.5)
    for _ in range(4):
        assert reader.feed(shot(table, rng, 1.5)) == []
    return reader, rng, table


def test_frames_lost_long_enough_to_hide_a_trick_ask_for_its_cards_in_turn():
    reader, rng, table = bare_reader()
    # a short gap: whatever happened in it still lies on the table, or left its place bare
    assert reader.lost(0.5) == []
    assert reader.feed(shot(table, rng, 1.5)) == []
    # a long one: a whole trick may have been laid and swept off in it
    events = reader.lost(WHOLE_TRICK_S + 0.5)
    assert events == [TrickAsk(1, 1, "taken", reader.frame_no)]
    assert reader.feed(shot(table, rng, 1.5)) == []  # asked once, not every frame
    named = reader.answer(1, Card.parse("1O"))
    assert [(e.trick, e.seat, e.card.code) for e in named if isinstance(e, TrickPlay)] == [(1, 1, "1O")]
    assert [(e.trick, e.seat, e.reason) for e in named if isinstance(e, TrickAsk)] == [(1, 2, "taken")]


def glint(image: np.ndarray, centre: tuple[float, float], n: int) -> np.ndarray:
    """The lamp's reflection on a varnished table: a clipped white glint, sharp-edged,
    swaying to and fro across ``centre`` from frame to frame."""
    out = image.copy()
    x = centre[0] + 45 * np.sin(n * 0.9)
    cv2.ellipse(out, (int(x), int(centre[1])), (30, 18), 0, 0, 360, (255, 255, 255), -1, cv2.LINE_AA)
    return out


def striped_reader() -> tuple[TrickReader, np.random.Generator, np.ndarray]:
    """A reader whose deck is one learnt card, striped, nothing like the cards laid: each
    card laid is asked about, and the test answers it."""
    photo = np.full((400, 400, 3), 90, np.uint8)
    for k in range(0, 400, 24):
        cv2.line(photo, (k, 100), (k + 60, 300), (200, 40, 40), 6)
    quad = np.float32([[140, 105], [260, 105], [260, 295], [140, 295]])
    return bare_reader(DeckModel.learn("striped", {Card.parse("9B"): (photo, quad)}))


@lru_cache(maxsize=1)
def _laid() -> tuple[TrickReader, np.random.Generator, np.ndarray]:
    reader, rng, table = striped_reader()
    lay_trick(reader, rng, table)
    return reader, rng, table


def laid_trick() -> tuple[TrickReader, np.random.Generator, np.ndarray]:
    """A reader (:func:`striped_reader`) with trick 1 laid and answered, lying complete (a
    copy: each test goes on from there its own way)."""
    return copy.deepcopy(_laid())


def lay_trick(reader: TrickReader, rng: np.random.Generator, table: np.ndarray) -> None:
    """Trick 1 laid in turn from seat 1 and answered: the ace of trumps (seat 1) wins."""
    lying: list[int] = []
    for seat, code in zip((1, 2, 3, 0), ("1O", "3O", "12O", "2O")):
        lying.append(seat)
        for _ in range(12):
            image = table.copy()
            for s in lying:
                paste_card(image, SEATS[s])
            asks = [e for e in reader.feed(shot(image, rng, 1.5)) if isinstance(e, TrickAsk)]
            if asks:
                assert [(a.seat, a.reason) for a in asks] == [(seat, "unnamed")]
                assert [e.card.code for e in reader.answer(seat, Card.parse(code))] == [code]
                break
    assert len(reader.hand.tricks) == 1 and set(reader.down) == {0, 1, 2, 3}


def with_cards(table: np.ndarray, seats) -> np.ndarray:
    image = table.copy()
    for s in seats:
        paste_card(image, SEATS[s])
    return image


def test_a_trick_swept_off_while_a_reflection_sways_over_one_place_is_gone_with_it():
    """The winner takes the four cards at once. With the lamp's glint swaying over the
    leader's place, that place never looks like the bare table again (something moves
    there in every frame), but the card's print is no longer where it lay: it went with the
    other three. Before, it was kept as lying there; the next trick waited for it, and the
    next card laid there, unlike it only in its print, was never outlined (rough hand 504:
    4 asks, a second late)."""
    reader, rng, table = laid_trick()
    for n in range(10):  # swept off, the glint swaying over seat 1's place
        assert reader.feed(glint(shot(table, rng, 1.5), SEATS[1], n)) == []
        if n == 5:
            assert set(reader.down) <= {1}  # the other three places bare
    assert reader.down == {}
    assert reader.hand.to_play == 1  # the ace of trumps won: its seat leads the next trick


def test_a_trick_card_touched_and_left_lying_is_known_by_its_print_not_asked_about():
    """A hand resting over the corner of the winner's card once the trick is complete is a
    change where it lies: the card taken, or covered by the next, for all the reader knows.
    The hand goes; the card lies there as before. The deck cannot name it (here: no card
    like it learnt; at the table: 8B on dark wood, 501 trick 9), but its print is where it
    lay: the last trick's card left lying, part of the table, not a new card. Before, it was
    asked about at its seat, whose turn it was, before the next card was laid, and the answer
    put a card not yet laid into the next trick."""
    reader, rng, table = laid_trick()
    events = []
    rest = with_cards(table, (0, 1, 2, 3))
    cv2.ellipse(rest, (int(SEATS[1][0]) + 55, int(SEATS[1][1]) + 35), (45, 28), 30, 0, 360, (110, 140, 190), -1)
    for image in [rest] * 6 + [with_cards(table, (0, 1, 2, 3))] * 8 + [with_cards(table, (1,))] * 8:
        events += reader.feed(shot(image, rng, 1.5))
    assert events == [] and reader.down == {} and reader.hand.to_play == 1


def test_a_card_left_lying_and_a_patch_beside_it_are_each_forgotten_when_gone():
    """The winner's card touched and left lying (as above), then a still, blank, card-shaped
    patch beside it at the same seat (the lamp's reflection lying still a moment: no card
    the deck knows, not the next card either while the trick lies there): both are part of
    the table until gone. The trick is swept and seat 1 leads the next one, laying its card
    where the last lay. Before, the blank patch replaced the card as what lay at that seat,
    and the card's picture stayed in the table where it lay: the next card there, not unlike
    it, was never outlined (rough hand 504, seat 2: asked "taken" once its trick was swept,
    1.9 s late, and in four tricks more)."""
    reader, rng, table = laid_trick()
    rest = with_cards(table, (0, 1, 2, 3))
    cv2.ellipse(rest, (int(SEATS[1][0]) + 55, int(SEATS[1][1]) + 35), (45, 28), 30, 0, 360, (110, 140, 190), -1)
    blank = with_cards(table, (0, 1, 2, 3))
    cv2.rectangle(blank, (int(SEATS[1][0]) - 60, int(SEATS[1][1]) + 100), (int(SEATS[1][0]) + 60,
                  int(SEATS[1][1]) + 178), (240, 240, 240), -1)
    events = []
    for image in [rest] * 6 + [with_cards(table, (0, 1, 2, 3))] * 8 + [blank] * 8:
        events += reader.feed(shot(image, rng, 1.5))
    for n in range(8):  # swept off, a broad glint swaying over seat 1's place: never the bare table, still
        image = shot(table, rng, 1.5)
        x, y = SEATS[1][0] + 40 * np.sin(n * 0.9), SEATS[1][1] + 15 * np.cos(n * 1.3)
        cv2.ellipse(image, (int(x), int(y)), (75, 50), 20, 0, 360, (255, 255, 255), -1, cv2.LINE_AA)
        events += reader.feed(image)
    assert events == [] and reader.down == {} and reader.hand.to_play == 1
    for _ in range(12):  # seat 1 leads trick 2 where its last card lay: outlined, asked about (none like it learnt)
        events += reader.feed(shot(with_cards(table, (1,)), rng, 1.5))
    assert [(e.trick, e.seat, e.reason) for e in events if isinstance(e, TrickAsk)] == [(2, 1, "unnamed")]
