"""Games without pairs at the table (issue 24), driven by touches: three players and four
each for himself, each a whole match to the target with a contro, a misdeal and an undo,
a restart in the middle, single and double taps; the totals measured at 800x480."""

from __future__ import annotations

import pytest

from kiosk.settings import Settings
from tests.ui.harness import SHOTS, SIZES
from tests.ui.readable import glyph_height, truncated

pytestmark = pytest.mark.ui


def new_game(d, count: str, names: list[str], *, each: bool = False) -> None:
    d.tap("new_match")
    assert d.screen == "new_match"
    d.tap(f"players_{count}")
    if each:
        d.tap("game")  # four: in pairs -> each for himself
    for seat, name in enumerate(names):
        d.current.ids[f"player_{seat}"].text = name
    while d.current.target != 51:
        d.tap("target", shot=False)
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


def double_tap(d, action: str) -> None:
    """Two touches 0.06 s apart on the same button (a nervous finger)."""
    widget = d.find(action)
    x, y = widget.to_window(*widget.center)
    d.touch_at(x, y)
    d.touch_at(x, y, after=0.06)


def totals_readable(d, seats: int) -> list[int]:
    """The digits' height of every total at 800x480 (on a screenshot), and no cut text."""
    from kiosk.ui.screens.variant_board import SEAT_COLOURS
    d.resize(SIZES[0])
    d.pump(3, draw=True)  # the layout settles as a person would see it
    path = SHOTS / "800x480" / f"{d.test_name}-readable.png"
    d.grab(path)
    d.finish()
    assert truncated(d) == []
    heights = []
    for seat, box in enumerate(reversed(d.current.ids.totals.children)):
        label = box.ids.total
        x, y = label.to_window(*label.pos)
        heights.append(glyph_height(path, (int(x), int(y), int(label.width), int(label.height)),
                                    SEAT_COLOURS[seat]))
    assert len(heights) == seats and min(heights) >= 0.15 * 480, heights
    return heights


def test_three_players_a_whole_match(kiosk):
    d = kiosk.start()
    new_game(d, "3", ["Anna", "Pere", "Marta"])
    s = d.app.session
    assert d.screen == "variant_board" and s.state.game.key == "three"
    assert d.has("trump_botifarra") and not d.has("delegate")  # three: botifarra, no delegating
    # a misdeal, confirmed with a double tap (saved once), then undone
    d.tap("misdeal")
    before = s.state.events
    double_tap(d, "confirm")
    assert s.state.events == before + 1 and s.state.roles["dealer"] == 1
    d.tap("undo")
    assert s.state.roles["dealer"] == 0 and s.state.game.rows == ()
    # hand 1: copes, points typed for two, the third is what is left
    d.tap("trump_copes")
    assert d.has("double_contro_1") and d.has("double_contro_2") and not d.has("double_contro_0")
    points(d, [40, 20, None])
    d.tap("confirm")
    assert s.state.game.totals == (16, -4, -12)
    assert [b.total for b in reversed(d.current.ids.totals.children)] == ["16", "\u22124", "\u221212"]
    # a restart in the middle of typing hand 2's points
    d.tap("trump_oros")
    d.tap("double_contro_2")
    assert s.state.contract.multiplier == 2
    d.tap("points")
    d.tap("seat_0", shot=False)
    d.tap("5", shot=False)
    d = kiosk.start()
    s = d.app.session
    assert d.screen == "variant_points" and s.state.draft.seat_points[0] == "5"
    d.tap("0", shot=False)
    d.tap("seat_1", shot=False)
    d.taps("1", "2")
    d.tap("ok")
    d.tap("confirm")
    assert d.screen == "variant_won" and s.state.game.winner == 0
    assert s.state.game.totals == (68, -28, -40)
    d.shot()
    d.tap("undo")
    assert d.screen == "variant_board"
    heights = totals_readable(d, 3)
    d.tap("redo")
    assert d.screen == "variant_won"
    print("three: digits", heights)


def test_four_each_for_himself_a_whole_match(kiosk):
    d = kiosk.start()
    new_game(d, "4", ["Anna", "Pere", "Marta", "Joan"], each=True)
    s = d.app.session
    assert s.state.game.key == "four_individual" and d.screen == "variant_board"
    d.tap("trump_oros")
    d.tap("double_contro_3")
    assert not d.has("double_contro_3")  # contro said once
    points(d, [36, 12, 12, None])
    d.tap("back")
    assert d.screen == "variant_points"
    d.tap("ok")
    d.tap("confirm")
    assert s.state.game.totals == (36, -12, -12, -12)
    heights = totals_readable(d, 4)
    # hand 2, dealer Pere: botifarra, no contro offered; a renunci proposed, then backed out
    d.tap("trump_botifarra")
    assert not any(d.has(f"double_contro_{seat}") for seat in range(4))
    d.tap("penalty")
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
    assert s.state.roles["dealer"] == 2
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
    d.tap("players_4")
    d.tap("start")
    assert d.screen == "scoreboard" and d.app.session.match.variant == "pairs"
