"""Trick mode with touches: a hand played by camera card by card (the trick reader's events
handed over from another thread through the app's to_ui), the last-trick review, a misread
asked again at its seat and named by a tap, a renunci shown and then confirmed, another
dismissed, a restart mid-hand resumed at the same trick, ending on the confirmation."""

from __future__ import annotations

import threading

import pytest

from kiosk.game import Card
from kiosk.settings import Settings
from tests.table.trickplay import play_hand
from tests.ui.flows import bid, start_match
from tests.ui.harness import SIZES
from vision.tricks import TrickAsk, TrickPlay

pytestmark = pytest.mark.ui


def tricks_settings() -> Settings:
    settings = Settings()
    settings.set("camera.mode", "tricks")
    return settings


def camera(d, *events) -> None:
    """The recognition thread's events of one frame, handed over as the camera does."""
    feed = d.current.feed
    t = threading.Thread(target=feed.on_events, args=(events,))
    t.start()
    t.join()
    d.pump(3)


def double(d, action: str, interval: float) -> None:
    """Two touches ``interval`` s apart where ``action`` is (a double tap at a bar table)."""
    w = d.find(action)
    point = w.to_window(*w.center)
    d.touch_at(*point)
    d.touch_at(*point, after=interval)
    d.pump(3)


def lay(d, plays) -> None:
    """The cards as the camera reads them, a trick's worth per frame at most."""
    for start in range(0, len(plays), 4):
        camera(d, *(TrickPlay(trick, seat, Card.parse(card), 0) for trick, seat, card in plays[start:start + 4]))


def test_a_hand_played_by_camera_with_a_misread_the_last_trick_and_a_restart(kiosk):
    d = kiosk.start(settings=tricks_settings())
    start_match(d, dealer=0)
    bid(d, "oros", play=False)
    d.tap("play")
    assert d.screen == "tricks"
    plays = play_hand(3, trump="oros", first_lead=1)
    lay(d, plays[:3])
    s = d.current
    assert s.seats[1]["card"] == plays[0][2] and s.seats[0]["card"] == ""
    assert s.header.startswith("Basa 1 · Nosaltres 0 – Vosaltres 0")
    assert s.match_line == "Partida: Nosaltres 0 – Vosaltres 0  ·  a 101"  # the match, toward 101
    d.shot(state="first-trick")
    # a card already played, read at seat 0's place: refused, asked again at that seat
    camera(d, TrickPlay(1, plays[3][1], Card.parse(plays[0][2]), 0))
    assert "Ja jugada" in s.seats[plays[3][1]]["ask"]
    assert d.app.session.state.tricks.played == 3  # nothing journalled
    d.shot(state="asked")
    d.tap(f"seat_{plays[3][1]}")
    d.tap(f"pick_{plays[3][2]}")  # the table names the card
    assert d.app.session.state.tricks.played == 4 and not s.seats[plays[3][1]]["ask"]
    camera(d, TrickAsk(2, plays[4][1], "unnamed", 0))  # the camera cannot name one
    assert s.seats[plays[4][1]]["ask"] == "Torneu a mostrar la carta"
    lay(d, plays[4:21])  # shown again: read
    view = d.app.session.state.tricks
    assert view.number == 6 and s.header.startswith(
        f"Basa 6 · Nosaltres {view.points['A']} – Vosaltres {view.points['B']}")
    d.tap("last_trick")
    assert s.panel == "last" and [s.seats[k]["card"] for k in range(4)] == list(view.last.cards)
    d.shot(state="last-trick")
    d.tap("back")
    assert s.panel == ""
    kiosk.stop()  # the power cut mid-hand
    d = kiosk.start(settings=tricks_settings())
    assert d.screen == "tricks" and d.app.session.state.tricks == view
    d.resize(SIZES[3])  # portrait: the four seats still apart
    seat = {k: d.current.ids.table.children[3 - k] for k in range(4)}
    assert seat[0].y < seat[1].y < seat[2].y and seat[3].x < seat[0].x < seat[1].x
    d.resize(SIZES[0])
    lay(d, plays[21:])
    assert d.screen == "confirm"
    points = {b.team: b.points for b in d.app.session.state.pending.breakdown}
    assert points == d.app.session.state.tricks.points and sum(points.values()) == 72
    d.tap("confirm")
    assert d.screen == "scoreboard" and d.app.session.match.hands[0].points == points
    # History replays the hand trick by trick
    d.tap("history")
    from kiosk.ui.widgets import SheetRow
    row = next(w for w in d.current.walk(restrict=True) if isinstance(w, SheetRow) and not w.header)
    d.touch_at(*row.to_window(*row.center))
    assert d.screen == "replay" and d.current.header.startswith("Mà 1 · Basa 1 ·")
    first = [d.current.ids[f"seat{k}"].info["card"] for k in range(4)]
    assert sorted(first) == sorted(c for _, _, c in plays[:4])
    d.shot(state="trick-1")
    events = d.app.session.state.events
    d.tap("replay_next")
    double(d, "replay_next", 0.06)  # a double tap walks on, and records nothing
    at = d.current.at
    assert at in (2, 3) and d.current.header.startswith(f"Mà 1 · Basa {at + 1} ·") and d.has("replay_prev")
    assert sorted(d.current.ids[f"seat{k}"].info["card"] for k in range(4)) == \
        sorted(c for _, _, c in plays[4 * at:4 * at + 4])
    double(d, "replay_prev", 0.3)
    double(d, "back", 0.3)
    assert d.screen == "history" and d.app.session.state.events == events


def test_a_renunci_is_shown_confirmed_and_another_dismissed(kiosk):
    d = kiosk.start(settings=tricks_settings())
    start_match(d, dealer=0)
    bid(d, "oros", play=False)
    d.tap("play")
    plays = play_hand(5, trump="oros", first_lead=1, renunci_at=6)
    for trick, seat, card in plays:
        d.current.feed.on_events([TrickPlay(trick, seat, Card.parse(card), 0)])
        d.pump(1)
        if d.app.session.state.tricks.renunci is not None:
            break
    d.pump(3)
    r = d.app.session.state.tricks.renunci
    s = d.current
    assert s.panel == "renunci" and d.has(f"card_{r.card}") and d.has(f"card_{r.proof_card}")
    assert d.app.session.state.totals == {"A": 0, "B": 0}  # shown, never scored without a tap
    d.shot(state="renunci")
    events = d.app.session.state.events
    double(d, "renunci_confirm", 0.06)  # a double tap: the penalty screen, nothing scored yet
    assert d.screen == "penalty" and d.app.session.state.draft.result.offender == r.team
    assert d.app.session.state.events == events and d.app.session.state.totals == {"A": 0, "B": 0}
    d.tap(f"offender_{r.team}")
    d.tap("back")  # not this time: back at the trick, the renunci still shown
    assert d.screen == "tricks" and d.current.panel == "renunci"
    d.tap("renunci_dismiss")  # a misread: the table names the card that was played
    assert d.current.panel == "pick" and not d.has(f"pick_{r.proof_card}")  # played cards refused
    d.shot(state="pick")
    hand = d.app.session.trick_play.hand_in_play()
    played = {p.card.code for p in hand.events}
    right = next(f"{k}{r.proof_card[-1]}" for k in range(1, 13) if f"{k}{r.proof_card[-1]}" not in played)
    double(d, f"pick_{right}", 0.3)  # a double tap names the card once
    corrected = [e for e in d.app.session.match.events if e["type"] == "card_corrected"]
    assert corrected == [{"type": "card_corrected", "trick": r.trick, "seat": r.seat, "card": right}]
    assert d.app.session.state.tricks.renunci != r and d.current.panel in ("", "renunci")
    # a second renunci, this time confirmed: the penalty through its own screen
    d.app.session.trick_play.correct_card(r.trick, r.seat, r.card)  # the table's first reading again
    d.pump(3)
    assert d.current.panel == "renunci"
    d.tap("renunci_confirm")
    d.tap(f"offender_{r.team}")
    d.tap("confirm")
    assert d.screen == "scoreboard"
    assert d.app.session.match.hands[0].kind == "penalty"
    assert d.app.session.state.totals[("B" if r.team == "A" else "A")] == 36  # x1: no contro


LOST_EVERY = 12  # one frame in this many replaced by the next before the reader took it


def busy_source(folder):
    """The recording in lockstep with the reader (a busy test machine must not make it skip
    frames a camera would give), at 50 frames a second (the reader counts frames, not
    seconds: the same reading as at the camera's 10, in a fifth of the time), except that
    every ``LOST_EVERY``-th frame is replaced by the next one before the reader takes it,
    as a camera's newest-frame hand-off does on a busy kiosk: the reader never sees it."""
    from tests.overhead.lockstep import LockstepSource

    class Busy(LockstepSource):
        def _grab(self):
            image = super()._grab()
            if self._i % LOST_EVERY == 0 and self._i < len(self._files):
                self._i += 1  # the camera's next frame came, and replaced this one unseen
                self._number += 1
            return image

    return Busy(folder, fps=50.0)


def test_tricks_read_by_the_trick_camera_from_rendered_frames(kiosk, tmp_path, monkeypatch):
    """The first trick of a hand at a rough table, rendered (tests/overhead/rough.py: kept on
    disk after the first time), through the kiosk's camera path from the source on: the deck
    learnt on this kiosk and the seats' places in the settings (``trick_camera_factory``
    checks them), the trick reader on its own thread (``TrickService``), the feed, the app's
    to_ui, the session: every card at its seat in its trick, an ask answered by taps at its
    seat, never a wrong card, though the camera's hand-off lost one frame in twelve; the
    frames lost said on the screen, in the alarm colour (over 5 %)."""
    import time

    from kiosk.commands.run import trick_camera_factory
    from kiosk.decks import deck_store
    from kiosk.settings import SeatPlaces
    from tests.bench.bench_tricks import learnt_deck
    from tests.ui.recording import first_trick, record
    from vision.sources.base import ENDED
    from vision.tricks import TrickReader, TrickService

    # The first trick of a hand of the bench (tricks_rough): every frame of a whole hand is
    # about 550 frames, a minute and a half of rendering on a fresh machine, too much for the
    # suite (a second trick doubled this test's time for the same path); the whole hand from
    # rendered frames through this same path is the bench's (tests/bench/bench_tricks_kiosk.py),
    # test_a_hand_played_by_camera_... plays a whole hand to the confirmation from the reader's
    # events, and tests/vision/test_tricks.py reads a trick swept off and the next one.
    # (tests/ui/recording.py: hand 401's first trick, its frames until the fourth card is
    # read, rendered once and kept on disk, as the camera's recording; test_seats learns the
    # seats from the same frames)
    seq = first_trick()
    recording = tmp_path / "recording"
    frames = record(seq, recording)
    monkeypatch.setenv("BOTIFARRA_DATA_DIR", str(tmp_path / "data"))
    # the deck learnt on this kiosk, "fournier": the cards the recording shows (the
    # classifier among the 48 is the bench's and tests/vision/test_tricks.py's; the other
    # cards' enrolment photos cost renders this path never looks at)
    deck_store().save(learnt_deck(tuple(sorted(p.code for p in seq.plan.plays))))
    settings = tricks_settings()
    for key, value in (("camera.marks", "deck:fournier"), ("camera.seats", SeatPlaces.of(seq.seats_px)),
                       ("camera.width", seq.size[0]), ("camera.height", seq.size[1])):
        settings.set(key, value)
    doc = seq.plan.doc
    assert trick_camera_factory(f"file:{recording}", settings) is not None  # the kiosk would read

    def make(hand, **callbacks):  # as trick_camera_factory's, the recording in lockstep
        places, size = settings["camera.seats"].places, (settings["camera.width"], settings["camera.height"])
        reader = TrickReader(deck_store().load("fournier"), places, hand, frame_size=size)
        return TrickService(busy_source(recording), reader, **callbacks)

    d = kiosk.start(settings=settings, trick_camera=make)
    start_match(d, dealer=(doc["first_lead"] - 1) % 4)
    session = d.app.session
    assert session.match.rules.play_rule == doc["rules"]["play_rule"]
    bid(d, doc["trump"], play=False)
    d.tap("play")
    service = d.current.feed.service
    assert d.screen == "tricks" and service is not None
    truth = {(p.trick, p.seat): p.code for p in seq.plan.plays}
    asked = 0
    deadline = time.monotonic() + frames / 50 + 300  # in lockstep: slower on a busy machine
    while time.monotonic() < deadline:
        d.pump(2)
        time.sleep(0.05)
        if d.screen != "tricks" or len(session.trick_play.hand_in_play().events) == len(seq.plan.plays):
            break
        for seat, ask in list(d.current.feed.asks.items()):  # the table shows it: a tap names it
            asked += 1
            assert d.current.panel == "", (d.current.panel, ask, f"{service.frames} of {frames} frames read")
            d.tap(f"seat_{seat}")
            d.tap(f"pick_{truth[ask.trick, seat]}")
    assert d.screen == "tricks", d.screen
    played = [(p.trick, p.seat, p.card.code) for p in session.trick_play.hand_in_play().events]
    # every card at its seat in its trick: read, or asked and named by taps; never a wrong one
    assert played == [(p.trick, p.seat, p.code) for p in seq.plan.plays], (asked, service.frames)
    # the frames the reader never saw, said plainly (counted again every second)
    s = d.current
    while service.status != ENDED and time.monotonic() < deadline:  # the recording read to its end
        d.pump(2)
    time.sleep(1.1)
    d.pump(3)
    lost, total = service.dropped, service.frames + service.dropped
    assert total == frames and abs(lost - frames // LOST_EVERY) <= 1
    assert s.camera_note == f"Càmera: {lost} imatges perdudes de {total}" and s.camera_late
    assert s.ids.camera_note.text == s.camera_note and s.ids.camera_note.width > 0
    d.tap("last_trick")  # the last trick's review keeps it
    assert s.panel == "last" and s.ids.camera_note.text == s.camera_note
    d.tap("last_trick")
    d.shot(state="camera")  # the camera's reading, its lost frames, at the four sizes
    s.stop_camera()
    assert s.camera_note == ""
