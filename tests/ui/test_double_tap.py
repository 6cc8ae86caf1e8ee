"""A double tap never records what nobody chose: every button of every screen, at every
layout's size, tapped twice (60 ms or 300 ms apart, in turn, at 800x480, 1280x720 and
720x1280, so that each button meets both intervals over the three; ``doubletap.intervals_at``;
1920x1080 is 1280x720's layout magnified: ``doubletap.WALK_SIZES``). The journal must hold exactly the one event the first
tap meant (or none), and the screen must be the one that first tap led to.

The walk finds the buttons itself (tests/ui/doubletap.py), on places taken along a table's
flow, every screen of the kiosk included (the evidence photo of a hand read by the demo camera,
History's replay of a hand played card by card, every screen of a three-player game): a new
button on any of these screens is walked without touching this file, and a new screen the
walk does not reach fails it. The touches
go through Kivy's input queue; the time between them is the tap guard's clock (a person's
pace of 0.6 s before each first tap, then the interval), so the walk does not wait for real.
tests/ui/test_tap_guard.py repeats the M1-M4 double taps waiting for real.
"""

from __future__ import annotations

import pytest

from kiosk.commands.run import camera_factory
from kiosk.ui.screens import SCREEN_MODULES
from tests.ui.doubletap import INTERVALS, WALK_SIZES, Table, Walker, intervals_at
from tests.ui.flows import pile
from tests.ui.harness import ROOT
from tests.table.trickplay import play_hand
from tests.ui.test_score_camera import read_pile
from tests.ui.test_tricks import lay

pytestmark = pytest.mark.ui
DECK = (("camera.marks", "deck:nostra"),)
TRICKS = (("camera.mode", "tricks"),)
THREE = ("Anna", "Pere", "Marta")


def _places(w: Walker) -> None:
    """The table's flow, keeping a place at every screen (and every state of one)."""
    w.start()
    w.keep("no-match")
    w.also("new-match", taps=("new_match",))
    w.also("history-empty", taps=("history",))
    w.also("pin", taps=("settings",))
    unlock = ("settings", "pin_1", "pin_2", "pin_3", "pin_4", "pin_ok")
    w.also("settings", taps=unlock)
    w.also("learn-deck", taps=unlock + ("learn_deck",))
    w.also("seats", taps=unlock + ("seats",))
    w.also("diagnostics", taps=unlock + ("diagnostics",))
    d = w.d
    d.tap("new_match", shot=False)
    d.current.ids.team_a.text = "Els Avis"
    d.tap("dealer_1", shot=False)
    w.keep("new-match-typed")
    d = w.d
    d.tap("start", shot=False)
    w.keep("choose-trump")
    w.also("abandon-question", taps=("new_match",))
    w.also("bidding", taps=("bidding",))
    d = w.d
    d.tap("misdeal", shot=False)
    w.keep("misdeal")
    d = w.d
    d.tap("back", shot=False)
    d.tap("bidding", shot=False)
    d.tap("delegate", shot=False)
    w.keep("delegated")
    d = w.d
    d.tap("espases", shot=False)
    w.keep("doubling")
    d = w.d
    d.tap("contro", shot=False)
    w.keep("contro")
    d = w.d
    d.tap("play", shot=False)
    w.keep("playing")
    playing = w.places[-1]
    w.also("camera", taps=("score_camera",))
    w.also("deal", taps=("score_camera",), settings=DECK)
    w.also("penalty", taps=("penalty",))
    w.also("penalty-chosen", taps=("penalty", "offender_B"))
    w.also("tricks", taps=(), settings=TRICKS)  # trick mode: the hand played card by card
    d = w.d
    d.tap("score_cards", shot=False)
    d.tap("team_A", shot=False)
    for code in pile(40)[:3]:
        d.tap(code, shot=False)
    w.keep("cards")
    d = w.d
    d.tap("back", shot=False)  # asks first: cards were tapped
    d.tap("back", shot=False)
    d.tap("score_points", shot=False)
    d.tap("team_A", shot=False)
    d.tap("4", shot=False)
    d.tap("5", shot=False)
    w.keep("points")
    d = w.d
    d.tap("ok", shot=False)
    w.keep("confirm")
    d = w.d
    d.tap("confirm", shot=False)
    w.keep("scored")
    w.also("undo-question", taps=("undo",))
    w.also("undone", taps=("undo", "undo_yes"))
    w.also("history", taps=("history",))
    w.also("history-sheet", taps=("history", "match_1"))
    d = w.d
    row = [r for r in d.current.ids.sheet.children if getattr(r, "number", "") == "1"][0]
    d.current.ids.sheet_scroll.scroll_y = 1
    d.pump(2)
    d.touch_at(*row.to_window(*row.center))
    for _ in range(20):
        d.pump(1)
    assert d.screen == "edit_hand", d.screen
    w.keep("edit-hand")
    d = w.d
    d.tap("cancel", shot=False)
    d.tap("bidding", shot=False)
    d.tap("oros", shot=False)
    d.tap("contro", shot=False)
    d.tap("recontro", shot=False)
    d.tap("play", shot=False)
    d.tap("score_points", shot=False)
    d.tap("team_A", shot=False)
    d.tap("7", shot=False)
    d.tap("2", shot=False)
    d.tap("ok", shot=False)
    d.tap("confirm", shot=False)
    assert d.screen == "match_won", d.screen
    w.keep("match-won")
    d = w.d
    d.tap("scoreboard", shot=False)
    w.keep("finished-sheet")
    # A hand read by the camera (the demo source), its photo kept: the evidence screen
    w.camera = camera_factory("demo", "aruco")
    d = w.restore(playing)
    d.tap("score_camera", shot=False)
    # the demo camera draws its loop on its first start: slow on a loaded machine, so wait longer
    assert len(read_pile(d, timeout=120.0)) == 16, d.current.pile.status
    d.tap("team_A", shot=False)
    d.tap("ok", shot=False)
    assert d.screen == "confirm" and d.app.session.state.pending.result.evidence, d.screen
    w.camera = None
    w.keep("confirm-camera")
    w.also("evidence", taps=("evidence",))
    _replay(w, next(p for p in w.places if p.name == "tricks"))
    _three_players(w, w.places[0])


def _replay(w: Walker, tricks) -> None:
    """The hand played card by card (the trick reader's events), saved: History replays it."""
    d = w.restore(tricks)
    state = d.app.session.state
    lay(d, play_hand(3, trump=state.contract.trump, first_lead=state.roles["first_lead"]))
    assert d.screen == "confirm", d.screen
    d.tap("confirm", shot=False)
    assert d.screen == "scoreboard", d.screen
    w.keep("tricks-scored", settings=TRICKS)
    w.also("replay", taps=("history", "row1"), settings=TRICKS)
    w.also("replay-trick-2", taps=("history", "row1", "replay_next"), settings=TRICKS)


def _three_players(w: Walker, no_match) -> None:
    """A game without pairs: three players, to 51, every screen of it (issue 24)."""
    d = w.restore(no_match)
    d.tap("new_match", shot=False)
    d.tap("players_3", shot=False)
    for seat, name in enumerate(THREE):
        d.current.ids[f"player_{seat}"].text = name
    while d.current.target != 51:
        d.tap("target", shot=False)
    d.tap("start", shot=False)
    assert d.screen == "variant_board", d.screen
    w.keep("three-trump")
    w.also("three-misdeal", taps=("misdeal",))
    d = w.d
    d.tap("trump_copes", shot=False)
    w.keep("three-doubling")
    w.also("three-cards", taps=("cards",))
    w.also("three-renunci", taps=("penalty",))
    d = w.d
    d.tap("points", shot=False)
    d.tap("seat_0", shot=False)
    d.tap("4", shot=False)
    w.keep("three-points")
    d = w.d
    d.tap("0", shot=False)
    d.tap("seat_1", shot=False)
    d.tap("2", shot=False)
    d.tap("0", shot=False)
    d.tap("ok", shot=False)
    assert d.screen == "variant_confirm", d.screen
    w.keep("three-confirm")
    d = w.d
    d.tap("confirm", shot=False)
    w.keep("three-scored")
    w.also("three-undo-question", taps=("undo",))  # the board asks before undoing a hand
    w.also("three-abandon-question", taps=("new_match",))  # and before leaving the game
    w.also("three-undone", taps=("undo", "undo_yes"), again=("undo",))  # Undo again, Redo shown
    w.also("three-edit", taps=("history", "hand_1"))  # a past hand edited from History
    d = w.d
    for _ in range(6):  # Anna takes 60 of 72 each hand: she wins within a few
        if d.screen != "variant_board":
            break
        d.tap(next(a for a in ("trump_oros", "trump_copes", "trump_espases") if d.has(a)), shot=False)
        d.tap("points", shot=False)
        for seat, digits in ((0, "60"), (1, "12")):
            d.tap(f"seat_{seat}", shot=False)
            for digit in digits:
                d.tap(digit, shot=False)
        d.tap("ok", shot=False)
        d.tap("confirm", shot=False)
    assert d.screen == "variant_won", d.screen
    w.keep("three-won")
    # every player's pile read by the camera (the demo source)
    w.camera = camera_factory("demo", "aruco")
    d = w.restore(next(p for p in w.places if p.name == "three-doubling"))
    d.tap("camera", shot=False)
    assert d.screen == "variant_camera", d.screen
    w.camera = None
    w.keep("three-camera")


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """One table's places for every size (per test worker): the flow is taken once."""
    return Table(tmp_path_factory.mktemp("double-tap-places"))


@pytest.mark.parametrize("size", WALK_SIZES, ids=[f"{w}x{h}" for w, h in WALK_SIZES])
def test_double_tap_every_button_of_every_screen(kiosk, size, table):
    w = Walker(kiosk, size, table)
    if not table.places:
        _places(w)
    tally = w.walk()
    runs = (f"{tally.buttons} buttons x 1 size x {len(intervals_at(size, 0))} interval(s) each "
            f"= {tally.runs} double taps")
    print(f"\n{size[0]}x{size[1]}: {runs} on {len(w.places)} places "
          f"({tally.restarts} restarts, {tally.warm} warm restores, "
          f"{tally.refused_place_taps} place taps refused by the guard)")
    out = ROOT / "artifacts" / "double-tap"
    out.mkdir(parents=True, exist_ok=True)
    (out / f"count-{size[0]}x{size[1]}.txt").write_text(runs + "\n")
    assert tally.screens >= set(SCREEN_MODULES), set(SCREEN_MODULES) - tally.screens
    assert tally.runs == tally.planned == tally.buttons * len(intervals_at(size, 0))
    # over the sizes each button meets every interval: the turns take both
    assert {intervals_at(s, 0)[0] for s in WALK_SIZES} == set(INTERVALS)
    assert {intervals_at(s, 1)[0] for s in WALK_SIZES} == set(INTERVALS)
    assert not tally.problems, "\n".join(tally.problems)
