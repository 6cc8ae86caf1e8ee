"""Nothing truncated, on every screen a table reaches, at every size, in Catalan and Spanish.

One walk per size (lean: the journey is paid once) through every screen: the new match
form, bidding, the scoreboard in play, tap-the-cards with its warning, the confirmation,
the points pad, penalty, misdeal, the camera and deal screens, editing a past hand with its
preview, History (list and a match's sheet), the PIN and the settings, learning a deck, and
the match won with its sheet. On each, every shown label is checked in Catalan and then in
Spanish (the longer words), and a screenshot of each is written for a person to look at.
"""

from __future__ import annotations

import time

import pytest

from kiosk.game import Card
from kiosk.settings import Settings
from kiosk.ui.navigation import Overlay
from kiosk.ui.screens import SCREEN_MODULES
from tests.ui.flows import bid, pile
from tests.ui.harness import PRESSED_S, SHOTS, SIZES
from tests.ui.readable import seat_label_overlaps, seat_total_heights, total_digits_height, truncated
from tests.ui.ui2steps import type_pin, wait_for
from vision.deck.events import DealEvent

pytestmark = pytest.mark.ui
# Long, real names: the seats and the sheet must hold them.
PLAYERS = ("Maria Montserrat", "Bartomeu", "Encarnació", "Maximilià")


class Walk:
    def __init__(self, d, size) -> None:
        self.d, self.tag = d, f"{size[0]}x{size[1]}"
        self.problems: list[str] = []
        self.seen: set[str] = set()

    def check(self, name: str = "") -> None:
        """The current screen in Catalan, then in Spanish (the longer words): every label
        whole; a screenshot of the Spanish one (the harder to fit) for a person to look at."""
        d = self.d
        name = name or d.screen
        self.problems += [f"[ca] {p}" for p in truncated(d) + self.overlaps()]
        d.app.set_language("es")
        d.pump(3)
        self.problems += [f"[es] {p}" for p in truncated(d) + self.overlaps()]
        time.sleep(PRESSED_S)  # the button just tapped let go (not shot mid-press)
        d.pump(1)  # (the grab paints the frame it reads back, as the loop would: not twice)
        d.grab(SHOTS / self.tag / f"readable-{name}.png")
        d.app.set_language("ca")
        d.pump(1)  # the words change the layout: settled before the next touch is aimed
        self.seen.add(d.screen)

    def overlaps(self) -> list[str]:
        """The seat labels' text, no two overlapping, at every size (in portrait the stacked
        totals leave the seats at least three bands of labels at the smallest text)."""
        return seat_label_overlaps(self.d)


def wait_for_screen(d, name: str, frames: int = 30) -> bool:
    for _ in range(frames):
        if d.screen == name:
            return True
        d.pump(1)
        time.sleep(0.02)
    return d.screen == name


def _points(d, team: str, points: int, walk: Walk | None = None) -> None:
    d.tap("score_points", shot=False)
    d.tap(f"team_{team}", shot=False)
    for ch in str(points):
        d.tap(ch, shot=False)
    if walk is not None:
        walk.check()
    d.tap("ok", shot=False)


# Every game's totals at their widest: a player at -100 and worse (rector i vicari cannot go
# below 0: a hundred and more), each hand botifarra (x2) with the points given by seat.
VARIANT_HANDS = {"four_individual": [0, 24, 24, 24], "three": [0, 36, 36], "two": [60, 12]}


def variant_totals(d, walk: Walk, size) -> None:
    """Each game without pairs on its board with three-digit totals (the long names of the
    walk): every label whole in Catalan and Spanish, every total's digits measured on the
    screenshot: over 0.15 of the screen's height in landscape (the issue's figure at
    800x480), of its width in portrait (the shorter side, across the table)."""
    from kiosk.table.variants import created_event, points_result
    s = d.app.session
    for game, points in VARIANT_HANDS.items():
        seats = len(points)
        s.new_match_from(created_event(game, players=list(PLAYERS[:seats]), preset="reglament",
                                       target=201, first_dealer=0))
        for _ in range(3):
            s.choose_trump("botifarra")
            s.begin_score("points")
            s.propose(points_result(points))
            s.confirm()
        d.pump(3)
        assert d.screen == "variant_board" and (min(s.state.game.totals) <= -100 or game == "two")
        walk.check(f"variant_board-{game}")
        d.finish()
        heights = seat_total_heights(d, SHOTS / walk.tag / f"readable-variant_board-{game}.png")
        side = min(size)
        print(f"{walk.tag} {game}: totals {s.state.game.totals} drawn {heights} px, "
              f"{min(heights) / size[1]:.3f} of the height")
        assert len(heights) == seats and min(heights) >= 0.15 * side, (game, heights, size)


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_every_screen_whole_in_catalan_and_spanish(kiosk, size):
    settings = Settings()
    settings.set("match.target", 151)
    d = kiosk.start(settings=settings)
    d.shots = False  # this walk takes its own screenshots, at its own size, per language
    d.resize(size)
    walk = Walk(d, size)

    d.tap("new_match", shot=False)
    for seat, name in enumerate(PLAYERS):
        d.current.ids[f"player_{seat}"].text = name
    walk.check()
    d.tap("dealer_1", shot=False)
    d.tap("start", shot=False)
    walk.check("scoreboard-new")

    d.tap("bidding", shot=False)
    walk.check("bidding-trump")
    d.tap("delegate", shot=False)
    d.tap("espases", shot=False)
    d.tap("contro", shot=False)
    walk.check("bidding-doubling")
    d.tap("play", shot=False)
    walk.check("scoreboard-playing")

    # Tap the cards, with the whole-tricks warning shown.
    d.tap("score_cards", shot=False)
    d.tap("team_A", shot=False)
    cards = pile(60)
    for code in cards[:5]:
        d.tap(code, shot=False)
    d.tap("ok", shot=False)
    walk.check("score_cards-warning")
    for code in cards[5:]:
        d.tap(code, shot=False)
    d.tap("ok", shot=False)
    assert d.screen == "confirm"
    walk.check()
    d.tap("confirm", shot=False)

    bid(d, "botifarra", levels=("contro", "recontro"))
    d.tap("penalty", shot=False)
    walk.check()
    d.tap("back", shot=False)
    d.tap("misdeal", shot=False)
    walk.check()
    d.tap("back", shot=False)
    assert d.screen == "scoreboard"  # Back leaves the misdeal (it used to come back to itself)
    _points(d, "B", 47, walk)
    walk.check("confirm-points")
    d.tap("confirm", shot=False)

    bid(d, "copes")
    d.tap("score_camera", shot=False)
    walk.check()
    d.tap("back", shot=False)
    d.app.settings.set("camera.marks", "deck:nostra")
    d.tap("score_camera", shot=False)
    assert d.screen == "deal"
    d.current.deal.show(DealEvent("already_counted", Card.parse("12O")))  # what the reader's thread hands over
    walk.check()
    d.current.deal.show(DealEvent("card_under", Card.parse("12O")))  # the longest ask, with a card named
    walk.check("deal-card-under")
    d.tap("back", shot=False)
    d.app.settings.set("camera.marks", "aruco")
    _points(d, "A", 39)
    d.tap("confirm", shot=False)

    # Edit a past hand, with the preview of the new totals.
    row = [w for w in d.current.ids.sheet.children if getattr(w, "number", "") == "1"][0]
    # the sheet shows the latest rows: bring the first in
    d.current.ids.sheet_scroll.scroll_y = 1
    d.pump(2)
    d.touch_at(*row.to_window(*row.center))
    # a sheet longer than its box scrolls: the ScrollView hands a short touch on to the row
    # only once it knows the touch is not a scroll
    assert wait_for_screen(d, "edit_hand"), d.screen
    d.tap("oros", shot=False)
    walk.check()
    d.tap("cancel", shot=False)
    walk.check("scoreboard-sheet")

    d.tap("history", shot=False)
    walk.check("history-list")
    d.tap(f"match_{d.app.session.state.match_id}", shot=False)
    walk.check("history-sheet")
    d.tap("back", shot=False)

    d.tap("settings", shot=False)
    walk.check("settings-pin")
    type_pin(d, "1234")
    walk.check("settings-options")
    d.tap("learn_deck", shot=False)
    walk.check()
    d.tap("back", shot=False)
    d.tap("seats", shot=False)
    walk.check()
    d.tap("back", shot=False)
    d.tap("diagnostics", shot=False)
    wait_for(d, lambda: not d.current.running, timeout=30, what="the diagnostics")
    walk.check()
    d.tap("back", shot=False)
    d.tap("close", shot=False)

    # Trick mode: the four seats with cards on the table, then History's replay of a hand.
    from tests.table.trickplay import play_hand
    d.app.settings.set("camera.mode", "tricks")
    bid(d, "copes", play=False)
    d.tap("play", shot=False)
    assert d.screen == "tricks"
    first = d.app.session.state.roles["first_lead"]
    plays = play_hand(7, trump="copes", first_lead=first)
    for trick, seat, card in plays[:6]:
        d.app.session.trick_play.play_card(seat, card)
    d.pump(3)
    walk.check()
    for _ in range(8):  # the six cards, Juguem and the trump taken back
        d.app.act(d.app.session.undo)
    d.app.settings.set("camera.mode", "piles")
    d.app.close_overlay()  # the state's step
    d.pump(3)
    from kiosk.game.handrecord import CardPlayed, HandInPlay
    hand = HandInPlay("copes", first_lead=first)
    for trick, seat, card in plays:
        hand = hand.play(CardPlayed(trick, seat, Card.parse(card)))
    d.app.sm.get_screen("replay").show(hand, number=5, team_names=d.app.session.state.team_names)
    d.app.open_overlay(Overlay.REPLAY)
    d.pump(3)
    walk.check()
    d.app.close_overlay()
    d.app.session.forget_undone()
    d.pump(3)
    assert d.app.session.state.phase == "choose_trump", d.app.session.state.phase

    # Three digits read from across the table: a total of 100 and more, measured on the
    # screenshot, at a quarter of the height in landscape (over a fifth in portrait, stacked).
    # (a penalty: "Renunci" whole on the sheet's row, beside the 100+ total)
    bid(d, "copes")
    d.tap("penalty", shot=False)
    d.tap("offender_A", shot=False)
    d.tap("confirm", shot=False)
    total = d.app.session.state.totals["B"]
    assert 100 <= total < 151 and d.screen == "scoreboard", total
    walk.check("scoreboard-hundred")
    d.finish()  # the screenshot written before it is read
    glyph = total_digits_height(d, SHOTS / walk.tag / "readable-scoreboard-hundred.png", "B")
    ratio = glyph / size[1]
    print(f"{walk.tag}: {total} drawn {glyph} px high, {ratio:.3f} of the height")
    assert ratio >= (0.25 if size[0] > size[1] else 0.22), (total, glyph, size)
    if size[0] > size[1]:  # under the totals, two whole hands of the sheet in view
        scroll, rows = d.current.ids.sheet_scroll, d.current.ids.sheet.children
        assert len(rows) >= 2 and scroll.height >= rows[0].height + rows[1].height + d.app.u, scroll.height

    # The match won, with the hand that won it in the sheet.
    bid(d, "oros", levels=("contro", "recontro"))
    _points(d, "A", 72)
    d.tap("confirm", shot=False)
    assert d.screen == "match_won"
    walk.check()
    d.finish()
    if size in (SIZES[0], SIZES[-1]):  # the narrowest landscape and the portrait (CPU budget:
        variant_totals(d, walk, size)  # the wider landscapes are the same boards, larger)
    # every screen but the evidence photo (there is none without a camera; its own test
    # shows it) and those of a game without pairs (tests/ui/test_variants.py walks them at
    # every size, in Catalan and Spanish)
    variant_screens = {name for name in SCREEN_MODULES if name.startswith("variant_")} - (
        {"variant_board"} if size in (SIZES[0], SIZES[-1]) else set())
    assert walk.seen == set(SCREEN_MODULES) - {"evidence"} - variant_screens, \
        set(SCREEN_MODULES) - walk.seen
    assert not walk.problems, "\n".join(walk.problems)
