"""Games without pairs at the table (issue 24), driven by touches: three players and four
each for himself, each a whole match to the target with a contro, a misdeal and an undo,
a restart in the middle, single and double taps; the totals measured at 800x480. Four each
for himself then scores one hand by each path: points, the cards tapped, the camera."""

from __future__ import annotations

import time

import pytest

from kiosk.commands.run import camera_factory
from kiosk.settings import Settings
from kiosk.ui.i18n import _
from tests.ui.harness import SHOTS, SIZES
from tests.ui.readable import seat_total_heights, truncated

pytestmark = pytest.mark.ui


def new_game(d, count: str, names: list[str], *, each: bool = False, seen: set | None = None) -> None:
    d.tap("new_match")
    assert d.screen == "new_match"
    d.tap(f"players_{count}")
    if each:
        d.tap("game")  # four: in pairs -> each for himself
    for seat, name in enumerate(names):
        d.current.ids[f"player_{seat}"].text = name
    while d.current.target != 51:
        d.tap("target", shot=False)
    if seen is not None:  # (a language switch reads the form as last published: not here)
        readable(d, seen, languages=())
    d.tap("start")


def points(d, values: list[int | None]) -> None:
    """The points pad: tap a player, type his points (None: left for the rest)."""
    d.tap("points")
    assert d.screen == "variant_points"
    for seat, value in enumerate(values):
        if value is None:
            continue
        d.tap(f"seat_{seat}", shot=False)
        for digit in str(value):
            d.tap(digit, shot=False)
    d.tap("ok")
    assert d.screen == "variant_confirm"


def read_pile(d, seat: int, want: int = 16, timeout: float = 30.0) -> list[str]:
    """Wait for the camera screen to have read ``want`` cards of ``seat``'s pile."""
    end = time.monotonic() + timeout
    while time.monotonic() < end and len(d.current._piles()[seat]) < want:
        d.pump(1)
        time.sleep(0.02)
    return d.current._piles()[seat]


def double_tap(d, action: str) -> None:
    """Two touches 0.06 s apart on the same button (a nervous finger)."""
    widget = d.find(action)
    x, y = widget.to_window(*widget.center)
    d.touch_at(x, y)
    d.touch_at(x, y, after=0.06)


def misdeal_undone(d, *, dealer: int, next_dealer: int) -> None:
    """A misdeal confirmed with a double tap (saved once: the deal passes on), then undone."""
    s = d.app.session
    d.tap("misdeal")
    before = s.state.events
    double_tap(d, "confirm")
    assert s.state.events == before + 1 and s.state.roles["dealer"] == next_dealer
    double_tap(d, "undo")  # asks first, as the pair game does: a double tap undoes nothing
    assert s.state.events == before + 1 and d.current.asking == "undo"
    assert _("the misdeal of hand {n}").split("{n}")[0] in d.current.question
    d.shot(state="undo_asked")
    d.tap("undo_no")
    assert s.state.events == before + 1 and not d.current.question
    d.tap("undo")
    d.tap("undo_yes")
    assert s.state.roles["dealer"] == dealer and s.state.game.rows == ()
    assert _("the misdeal of hand {n}").split("{n}")[0] in d.current.undone_text  # not just "hand 1"


def readable(d, seen: set[str], languages=("es", "ca")) -> None:
    """The current screen whole at every size, in Catalan and in Spanish (the longer words):
    no label cut (tests/ui/readable.py), every button inside the window; back to 800x480."""
    problems = []
    for size in SIZES[1:] + SIZES[:1]:
        d.resize(size)
        for language in languages or (d.app.language,):
            if languages:
                d.app.set_language(language)
            d.pump(3)
            problems += [f"{size} [{language}] {p}" for p in truncated(d)]
            for w in d.current.walk(restrict=True):
                if getattr(w, "action", "") and not w.disabled and w.opacity > 0:
                    x, y = w.to_window(*w.center)
                    if not (0 <= x <= size[0] and 0 <= y <= size[1]):
                        problems.append(f"{size} {d.screen}: {w.action} outside the window")
    seen.add(d.screen)
    assert problems == [], problems


def totals_readable(d, seats: int) -> list[int]:
    """The digits' height of every total at 800x480 (on a screenshot), and no cut text."""
    d.resize(SIZES[0])
    d.pump(3, draw=True)  # the layout settles as a person would see it
    path = SHOTS / "800x480" / f"{d.test_name}-readable.png"
    d.grab(path)
    d.finish()
    assert truncated(d) == []
    heights = seat_total_heights(d, path)
    assert len(heights) == seats and min(heights) >= 0.15 * 480, heights
    return heights


def test_three_players_a_whole_match(kiosk):
    d = kiosk.start()
    new_game(d, "3", ["Anna", "Pere", "Marta"])
    s = d.app.session
    assert d.screen == "variant_board" and s.state.game.key == "three"
    seen: set[str] = set()
    readable(d, seen)
    assert d.has("trump_botifarra") and not d.has("delegate")  # three: botifarra, no delegating
    misdeal_undone(d, dealer=0, next_dealer=1)
    # hand 1: copes, points typed for two, the third is what is left
    d.tap("trump_copes")
    assert d.has("double_contro_1") and d.has("double_contro_2") and not d.has("double_contro_0")
    points(d, [40, 20, None])
    d.tap("confirm")
    assert s.state.game.totals == (16, -4, -12)
    assert [b.total for b in reversed(d.current.ids.totals.children)] == ["16", "\u22124", "\u221212"]
    # hand 2 by tapping the cards (36: no 2, 3 or 4), a restart in the middle
    d.tap("trump_oros")
    d.tap("double_contro_2")
    assert s.state.contract.multiplier == 2
    d.tap("cards")
    assert d.screen == "variant_cards" and d.has("1O") and not any(
        d.has(f"{rank}{suit}") for rank in (2, 3, 4) for suit in "OCEB")
    d.tap("seat_1", shot=False)
    d.taps("9O", "9C", "9E")
    d = kiosk.start()
    s = d.app.session
    assert d.screen == "variant_cards" and s.state.draft.piles[1] == ("9O", "9C", "9E")
    readable(d, seen)
    d.tap("seat_2", shot=False)
    for code in ("1O", "1C", "1E"):
        d.tap(code, shot=False)
    d.tap("ok")  # Anna takes the 30 cards left
    assert s.state.game.result.scored == (38, -16, -22)
    readable(d, seen)
    d.tap("confirm")
    assert d.screen == "variant_won" and s.state.game.winner == 0
    assert s.state.game.totals == (54, -20, -34)
    d.shot()
    readable(d, seen)
    assert seen == {"variant_board", "variant_cards", "variant_confirm", "variant_won"}
    d.tap("undo")
    assert d.screen == "variant_board"
    heights = totals_readable(d, 3)
    d.tap("redo")
    assert d.screen == "variant_won"
    print("three: digits", heights)


def test_four_each_for_himself_a_whole_match(kiosk):
    d = kiosk.start()
    seen: set[str] = set()
    new_game(d, "4", ["Anna", "Pere", "Marta", "Joan"], each=True, seen=seen)
    s = d.app.session
    assert s.state.game.key == "four_individual" and d.screen == "variant_board"
    d.tap("trump_oros")
    readable(d, seen)  # four seats, three contro buttons
    d.tap("double_contro_3")
    assert not d.has("double_contro_3")  # contro said once
    points(d, [36, 12, 12, None])
    d.tap("back")
    assert d.screen == "variant_points"
    readable(d, seen)
    d.tap("ok")
    d.tap("confirm")
    assert s.state.game.totals == (36, -12, -12, -12)
    heights = totals_readable(d, 4)
    # hand 2, dealer Pere: botifarra, no contro offered; a renunci proposed, then backed out
    d.tap("trump_botifarra")
    assert not any(d.has(f"double_contro_{seat}") for seat in range(4))
    d.tap("penalty")
    readable(d, seen)
    d.tap("penalty_2")
    assert s.state.game.result.scored == (12, 12, -36, 12)  # renunci "share": -18 x2, shared
    d.tap("back")
    d.tap("back")
    assert d.screen == "variant_board"
    points(d, [30, 6, 18, None])
    d.tap("confirm")
    assert d.screen == "variant_won" and s.state.game.winner == 0
    assert s.state.game.totals == (60, -36, -12, -12)
    d.tap("next_match")
    assert d.screen == "variant_board" and s.state.game.totals == (0, 0, 0, 0)
    events = s.state.events
    double_tap(d, "new_match")  # the game in play is left only on a second touch, elsewhere
    assert d.screen == "variant_board" and d.current.asking == "abandon"
    d.shot(state="abandon_asked")
    readable(d, seen)  # the question and its Yes whole at every size, in Catalan and Spanish
    d.tap("abandon_no")
    assert d.screen == "variant_board" and not d.current.asking and s.state.events == events
    assert s.state.roles["dealer"] == 2
    misdeal_undone(d, dealer=2, next_dealer=3)  # match 2
    # a hand by tapping the cards, with a restart in the middle (the camera plugged in since)
    d.tap("trump_espases")
    d.tap("cards")
    assert d.screen == "variant_cards"
    d.tap("seat_1", shot=False)
    d.taps("9O", "9C", "9E", "9B")
    d = kiosk.start(camera_factory=camera_factory("demo", "aruco"))
    s = d.app.session
    assert d.screen == "variant_cards" and s.state.draft.piles[1] == ("9O", "9C", "9E", "9B")
    d.tap("seat_2", shot=False)
    d.taps("1O", "1C", "1E", "1B")
    d.tap("seat_3", shot=False)
    d.taps("5O", "5C", "5E", "5B")
    d.tap("ok")  # Anna takes the 36 cards left: 24 points and 9 tricks
    assert s.state.game.result.scored == (15, 3, -1, -17) and sum(s.state.game.result.scored) == 0
    d.tap("confirm")
    assert s.state.game.totals == (15, 3, -1, -17)
    # a hand by camera: Anna's marked pile read, the others' piles corrected on the card grid
    d.tap("trump_bastos")
    d.tap("camera")
    assert d.screen == "variant_camera"
    anna = read_pile(d, 0)
    assert len(anna) == 16
    d.tap("correct")
    assert d.screen == "variant_cards" and list(s.state.draft.piles[0]) == anna
    rest = [c.code for c in s.match.game.deck if c.code not in anna]
    for seat, cards in ((1, rest[0:4]), (2, rest[4:8])):
        d.tap(f"seat_{seat}", shot=False)
        for code in cards:
            d.tap(code, shot=False)
    d.tap("ok")  # Joan takes the 24 cards left
    result = s.state.pending.result
    assert result.source == "camera" and [len(p) for p in result.event["piles"]] == [16, 4, 4, 24]
    assert sum(s.state.game.result.scored) == 0
    d.tap("confirm")
    assert d.screen == "variant_board" and len(s.state.game.rows) == 2
    print("four: digits", heights)


def test_club_mode_stays_pairs_only(kiosk):
    """A club table (a publisher, not connected here) refuses a game without pairs and says
    why; its pair game starts as before."""
    from kiosk.club.publisher import Publisher
    from kiosk.journal import Journal
    Journal(kiosk.db).close()
    settings = Settings()
    settings.set("ui.language", "en")
    d = kiosk.start(club=Publisher(kiosk.db, "1", "mqtt://127.0.0.1:1", password="x"),
                    settings=settings)
    new_game(d, "3", ["Anna", "Pere", "Marta"])
    assert d.screen == "new_match" and d.app.session.match is None
    assert "pairs" in d.app.banner.text and "Three players" in d.app.banner.text
    d.shot(state="club_refuses")
    d.app.show_message("")  # the banner read: the screen moves back up under it
    d.pump(3)
    d.wait(1.0)
    d.tap("players_4")
    d.tap("start")
    assert d.screen == "scoreboard" and d.app.session.match.variant == "pairs"
