"""Rector i vicari (two players) at the table, driven by touches: a match to the end by
points (with a past hand edited from History, its new totals previewed) and the next match
to the end by tapping the cards; every screen whole at the four sizes, screenshots."""

from __future__ import annotations

import pytest

from kiosk.settings import Settings
from tests.ui.test_variants import new_game, points, readable

pytestmark = pytest.mark.ui


def cards(d, seat: int, codes: list[str]) -> None:
    """Tap the cards: ``codes`` in ``seat``'s pile, the other player takes the rest."""
    d.tap("cards")
    assert d.screen == "variant_cards"
    d.tap(f"seat_{seat}", shot=False)
    for code in codes:
        d.tap(code, shot=False)
    d.tap("ok")
    assert d.screen == "variant_confirm"


def test_rector_i_vicari_to_the_end_by_points_then_by_cards(kiosk):
    settings = Settings()
    settings.set("ui.language", "ca")
    d = kiosk.start(settings=settings)
    seen: set[str] = set()
    new_game(d, "2", ["Anna", "Pere"])
    s = d.app.session
    assert d.screen == "variant_board" and s.state.game.key == "two" and s.state.game.seats == 2
    # hand 1 (Anna deals): oros, contro by Pere; by points, Anna's 50 (Pere's is the rest)
    d.tap("trump_oros")
    assert d.has("double_contro_1") and not d.has("double_contro_0")
    d.tap("double_contro_1")
    points(d, [50, None])
    assert s.state.game.result.scored == (28, 0)
    d.tap("confirm")
    assert s.state.game.totals == (28, 0) and s.state.roles["dealer"] == 1
    # the hand was 60 for Anna: edited from History, the new totals shown before saving
    d.tap("history")
    d.tap("hand_1")
    assert d.screen == "variant_edit" and d.current.kind == "played"
    assert d.current.digits == ["50", "22"] and d.current.doubling == "contro"
    d.tap("seat_1", shot=False)
    d.tap("clear", shot=False)  # Pere left empty: he gets the rest
    d.tap("seat_0", shot=False)
    d.tap("6")  # a whole number shown: a digit starts a new one
    d.tap("0")
    assert d.current.digits == ["60", ""]
    assert "48" in d.current.preview and "Anna" in d.current.preview
    readable(d, seen)
    d = kiosk.start(settings=settings)  # a restart: the edit not saved yet comes back
    assert d.screen == "variant_edit" and d.current.digits == ["60", ""]
    d.tap("save")
    assert d.screen == "variant_board" and d.app.session.state.game.totals == (48, 0)
    s = d.app.session
    # hand 2 (Pere deals): copes; Anna 40 -> +4: 52 of 51, the match is won by points
    d.tap("trump_copes")
    points(d, [40, None])
    d.tap("confirm")
    assert d.screen == "variant_won" and s.state.game.winner == 0 and s.state.game.end_reason == "target"
    # the next match, by cards: Pere's pile the four aces and two kings (3 tricks: 1 point)
    d.tap("next_match")
    assert d.screen == "variant_board" and s.state.game.totals == (0, 0)
    d.tap("trump_botifarra")
    cards(d, 1, ["1O", "1C", "1E", "1B", "12O", "12C"])
    # Pere: 22 card points, 3 tricks of 24: one point, and the odd trick's point (fewer tricks)
    result = s.state.game.result
    assert result.points == (38 + 10, 22 + 2) and result.scored == ((48 - 36) * 2, 0)
    d.tap("confirm")
    d.tap("trump_espases")
    cards(d, 1, ["10O", "10C"])  # one trick, two sotas: Pere 3, Anna 69
    d.tap("confirm")
    game = s.state.game
    assert d.screen == "variant_won" and game.winner == 0 and game.totals[0] >= 51, game.totals
    assert game.totals == (24 + 33, 0) and [r.kind for r in game.rows] == ["played", "played"]
    # the match won, then its last hand edited into a renunci by Pere: Anna's 36, saved
    d.tap("history")
    d.tap("hand_2")
    d.tap("kind_penalty")
    d.tap("seat_1")
    assert "Anna 60" in d.current.preview and "Pere" in d.current.hint
    d.tap("save")
    assert d.screen == "variant_won" and s.state.game.totals == (60, 0)
    assert s.state.game.rows[1].kind == "penalty" and s.state.game.rows[1].offender == 1
    # (the board of two: test_readable.py; the confirmation, the match won and the cards with
    # three players: test_variants.py)
    assert seen == {"variant_edit"}
