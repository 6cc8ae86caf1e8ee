"""Score a game without pairs by dealing an ordinary deck face up (issue 24), on drawn frames
that a test camera streams as a hand deals (the real deal service and reader behind it):

three players (36 cards); Anna's pile dealt, each card named; a double tap on "Treu" takes
back one card, not two; a 2 (not in the three-player deck) is refused as it is dealt; a
double tap on Pere moves on once; Again forgets Pere's card, dealt again; a card already
counted for Anna is asked about in Pere's pile; OK refuses piles that are not whole tricks;
Correct completes them on the card grid and Joan takes the rest; the hand is confirmed with
the camera as the source and the photo. The screen is measured whole at the four sizes, in
Catalan and Spanish, with an ask showing."""

from __future__ import annotations

import threading
import time

import pytest

from kiosk.game import Card
from kiosk.settings import Settings
from tests.ui.test_variants import double_tap, new_game, readable
from tests.ui.ui2steps import wait_for
from tests.vision import deckdraw
from vision.deck.service import DealService
from vision.deck.tracker import DealTracker
from vision.sources.base import FrameSource

pytestmark = [pytest.mark.ui, pytest.mark.slow]
STILL = 2  # still frames after each card in the drawn deal
PER_CARD = 3 + 2 + 1 + STILL  # deckdraw.deal: travel, hover, the hand away, still


class HandCamera(FrameSource):
    """The table as the camera streams it at 10 frames a second: the frames played, each
    once, then the last one for as long as nothing else is played (a hand never freezes in
    the air; a card lies still). A frame played is streamed only once the reader took the
    one before it (up to 5 s): on a busy machine the reader, which takes the latest frame,
    would lose the frames that came meanwhile, and each run would read other frames (the
    reader copes with frames lost: tests/vision/test_deck_dropped.py)."""

    name = "hand"
    interval = 0.1

    def __init__(self, first) -> None:
        super().__init__()
        self._lock = threading.Condition()
        self._queue: list = []
        self._shown = first
        self._taken = 0  # the number of the latest frame the reader took

    def _open(self) -> None:
        pass

    def _close(self) -> None:
        pass

    def latest(self, timeout=None, *, after: int = 0):
        frame = super().latest(timeout, after=after)
        if frame is not None:
            with self._lock:
                self._taken = max(self._taken, frame.number)
                self._lock.notify_all()
        return frame

    def _grab(self):
        deadline = time.monotonic() + 5.0
        with self._lock:
            while self._queue and self._taken < self._number and time.monotonic() < deadline \
                    and not self._stop.is_set():
                self._lock.wait(0.05)  # (the frame streamed last is not read yet)
            if self._queue:
                self._shown = self._queue.pop(0)
            return self._shown.copy()

    def play(self, frames) -> None:
        with self._lock:
            self._queue += list(frames)

    @property
    def playing(self) -> bool:
        with self._lock:
            return bool(self._queue)


class Table:
    """What lies on the table and the camera over it (a new camera each time the screen
    starts one, as the kiosk's factory makes)."""

    def __init__(self, model, first) -> None:
        self.model, self.first = model, first
        self.camera: HandCamera | None = None

    def factory(self, *, on_frame=None, on_cards=None, on_status=None, on_still=None, light=None):
        self.camera = HandCamera(self.first)
        return DealService(self.camera, DealTracker(self.model), on_frame=on_frame, on_cards=on_cards,
                           on_status=on_status)

    def deal(self, d, frames, index: int) -> None:
        """Card ``index`` of a drawn deal comes in the hand (near the pile, over its edge, the
        hand leaving) and lies still."""
        start = STILL + PER_CARD * index
        self.play(d, [frames[start + k] for k in (2, 4, 5)] + [frames[start + PER_CARD - 1]])

    def lift(self, d, frames, index: int) -> None:
        """The cards over card ``index`` of a drawn deal lifted off again."""
        self.play(d, [frames[STILL + PER_CARD * index + PER_CARD - 1]])

    def play(self, d, frames) -> None:
        """The frames streamed, and the last one read by the reader (twice: it lies still)."""
        self.camera.play(frames)
        until(d, lambda: not self.camera.playing, "the frames played")
        service = d.current.pile.service
        for _ in range(2):
            seen = service.latest_frame
            until(d, lambda: service.latest_frame is not seen, "the last frame read")


def until(d, condition, what: str, timeout: float = 40.0) -> None:
    """Wait for the reader; on a timeout, say what the screen had."""
    screen = d.current
    try:
        wait_for(d, condition, timeout=timeout)
    except AssertionError:
        service = screen.pile.service
        tracker = getattr(service, "tracker", None)
        raise AssertionError(f"timed out waiting for {what}: piles {screen._piles()}, ask {screen.deal.ask!r}, "
                             f"status {screen.pile.status!r}, the reader's cards "
                             f"{tracker.cards if tracker is not None else None}") from None


def drawn(*codes: str) -> list:
    return deckdraw.deal([Card.parse(c) for c in codes], seed=5, still=STILL).frames


def test_each_players_pile_dealt_face_up(kiosk):
    # the same table each time up to where the deals part (a card lifted off again)
    anna = drawn("1O", "9C", "5B")
    two = drawn("1O", "9C", "2E")
    pere = drawn("1O", "9C", "12B", "1O")
    table = Table(deckdraw.learnt("A"), anna[0])
    settings = Settings()
    settings.set("camera.marks", "deck:deckA")
    d = kiosk.start(settings=settings, camera_factory=table.factory)
    new_game(d, "3", ["Anna", "Pere", "Joan"])
    s = d.app.session
    d.tap("trump_copes")
    d.tap("camera")
    assert d.screen == "variant_camera"
    screen = d.current
    assert screen.dealt and not d.has("take_back")  # nothing dealt yet
    until(d, lambda: screen.pile.service.latest_frame is not None, "the camera")

    def piles():
        return screen._piles()

    for i, code in enumerate(("1O", "9C", "5B")):
        table.deal(d, anna, i)
        until(d, lambda: code in piles()[0], f"{code} counted")
    assert piles()[0] == ["1O", "9C", "5B"] and screen.deal.ticked
    assert screen.deal.last_card == "5 bastos" and d.find("take_back").text == "Traieu 5 bastos"
    d.shot(state="counted")
    double_tap(d, "take_back")  # the button named another card at once: the second tap is held
    assert piles()[0] == ["1O", "9C"] and d.find("take_back").text == "Traieu 9 copes"
    assert screen.deal.last_card == "9 copes (manilla)" and "Traieu l'última" in screen.deal.ask
    table.lift(d, anna, 1)  # 5B lifted off
    table.deal(d, two, 2)  # a 2: not in the deck of three
    until(d, lambda: "2 espases" in screen.deal.ask, "the 2 refused")
    assert piles()[0] == ["1O", "9C"] and not screen.deal.ticked
    d.shot(state="refused")
    readable(d, set())  # whole at every size, with the ask on its red panel
    table.lift(d, two, 1)  # the 2 lifted off

    double_tap(d, "seat_1")  # Pere's pile next (twice: still Pere's)
    assert s.state.draft.seat == 1 and list(s.state.draft.piles[0]) == ["1O", "9C"]
    assert not d.has("take_back")  # Pere has no card yet: Anna's are not taken back from here
    table.deal(d, pere, 2)
    until(d, lambda: piles()[1] == ["12B"], "12B counted for Pere")
    d.tap("again", shot=False)  # Pere's cards forgotten (not Anna's), to be dealt again
    assert piles() == [["1O", "9C"], [], []] and "les cartes de Pere" in screen.deal.ask
    table.lift(d, pere, 1)  # lifted off
    table.deal(d, pere, 2)
    until(d, lambda: piles()[1] == ["12B"], "12B counted again")
    table.deal(d, pere, 3)  # Anna's ace again: the reader went on across the tap
    until(d, lambda: "ja comptada" in screen.deal.ask, "1O already counted")
    assert piles() == [["1O", "9C"], ["12B"], []]
    d.shot(state="already")
    table.lift(d, pere, 2)
    d.tap("ok")  # Joan would take the rest, but two cards are not whole tricks of three
    assert d.screen == "variant_camera" and s.state.pending is None
    d.tap("correct")  # the rest of Anna's and Pere's tricks by hand
    assert d.screen == "variant_cards" and s.state.draft.piles[:2] == (("1O", "9C"), ("12B",))
    d.tap("seat_0", shot=False)
    d.tap("6O", shot=False)
    d.tap("seat_1", shot=False)
    d.tap("11C", shot=False)
    d.tap("10E", shot=False)
    d.tap("ok")  # Joan takes the rest of the 36
    assert d.screen == "variant_confirm"
    result = s.state.pending.result
    assert result.source == "camera" and result.evidence and result.evidence.endswith(".jpg")
    got = result.event["piles"]
    assert got[:2] == [["1O", "9C", "6O"], ["12B", "11C", "10E"]] and len(got[2]) == 30
    assert {c.rank for c in map(Card.parse, got[2])}.isdisjoint({2, 3, 4})  # the deck of three
    d.tap("confirm")
    assert s.state.game.rows[-1].kind == "played" and d.screen == "variant_board"
    points = s.state.game.rows[-1].points
    assert sum(points) == 72 and points[:2] == (10, 7)  # card points and one per trick
    d.finish()
