"""The walkthrough's minor items (issue 22), each with touches and screenshots."""

from __future__ import annotations

import pytest

from kiosk.table import sheet_of
from kiosk.ui.i18n import _
from tests.ui.flows import bid, start_match
from tests.ui.readable import truncated

pytestmark = pytest.mark.ui


def test_a_misdeal_row_is_not_blank_and_its_undo_says_misdeal(kiosk):
    d = kiosk.start()
    start_match(d)
    d.tap("misdeal")
    d.tap("confirm")
    assert sheet_of(d.app.session.match)[0].kind == "misdeal"
    row = [r for r in d.current.ids.sheet.children if getattr(r, "number", "") == "1"][0]
    assert row.misdeal
    for size in ((800, 480), (720, 1280)):  # the narrow sheets: no icon, so the word
        d.resize(size)
        cells = [w for w in row.walk(restrict=True) if getattr(w, "text", "")]
        assert _("Misdeal") in [w.text for w in cells], (size, cells)
        head = d.current.ids.sheet_head.children[0]
        for cell, heading in zip(row.children[:2], head.children[:2]):  # the totals under their pair
            assert abs(cell.x - heading.x) <= 3 * row.spacing and cell.right <= row.right + 1
        assert not truncated(d), truncated(d)
    d.resize((800, 480))
    d.tap("undo")
    question = [w.text for w in d.current.ids.actions.children if not hasattr(w, "action")]
    assert question and _("the misdeal of hand {n}").format(n=1) in question[0]
    d.shot(state="undo-misdeal")


def test_back_in_the_middle_of_scoring_asks_first(kiosk):
    d = kiosk.start()
    start_match(d)
    bid(d, "oros")
    d.tap("score_cards")
    d.tap("team_A")
    d.tap("1O", shot=False)
    d.tap("back")
    assert d.screen == "score_cards" and d.current.asking_back  # "Descartar?"
    d.shot(state="asking")
    d.tap("back")
    assert d.screen == "scoreboard"
    d.tap("score_points")
    d.tap("back")  # nothing typed: leaves at once
    assert d.screen == "scoreboard"


def test_an_unreachable_target_is_refused(kiosk):
    d = kiosk.start()
    d.tap("new_match")
    while d.current.preset != "butinet":
        d.tap("preset", shot=False)
    seen = set()
    for _i in range(8):
        d.tap("target", shot=False)
        seen.add(d.current.target)
    assert max(seen) <= 121  # Butinet counts at most 121: 151, 200, 201 are not offered
    d.current.target = 151  # as a form restored from an older kiosk could have it
    d.tap("start")
    assert d.screen == "new_match" and "151" in d.app.banner.text
    d.shot()


def test_return_moves_to_the_next_name(kiosk):
    d = kiosk.start()
    d.tap("new_match")
    team_a = d.current.ids.team_a
    team_a.focus = True
    d.pump(2)
    team_a.dispatch("on_text_validate")
    d.pump(2)
    assert not team_a.focus and d.current.ids.player_0.focus


def test_the_pile_of_a_team_with_an_article_is_contracted(kiosk):
    d = kiosk.start()
    d.tap("new_match")
    d.current.ids.team_a.text = "Els Avis"
    d.tap("start")
    bid(d, "copes")
    d.tap("score_points")
    d.tap("team_A")
    d.taps("5", "0")
    d.tap("ok")
    assert d.current.owner == "Munt dels Avis"
    d.shot()


def test_learn_deck_cells_show_the_number_and_the_suit_icon(kiosk):
    from tests.ui.ui2steps import open_settings
    d = kiosk.start()
    open_settings(d)
    d.tap("learn_deck")
    cells = d.current._cells()
    ten = [c for c in cells if c.code == "10O"][0]
    label, icon = ten.children[1], ten.children[0]
    assert label.text == "10" and icon.suit == "oros"
    d.shot()


def test_history_items_hold_their_words_with_room_around(kiosk):
    from tests.ui.flows import confirm, score_points
    d = kiosk.start()
    d.shots = False  # the way there is shot by other tests: History only
    d.tap("new_match")
    d.current.ids.team_a.text = "Els Avis"
    d.tap("start")
    bid(d, "oros", levels=("contro", "recontro"))
    score_points(d, "A", 72)
    confirm(d)
    assert d.screen == "match_won"
    d.tap("scoreboard")
    d.tap("history")
    for size in ((800, 480), (720, 1280)):
        d.resize(size)
        d.pump(3)
        assert not truncated(d), truncated(d)  # "... · Han guanyat Els Avis" took a third line
        for item in d.current.ids.matches.children:
            item.texture_update()
            room = (item.height - item.texture_size[1]) / 2
            assert room >= 6 * d.app.u, (size, item.height, item.texture_size)
    d.shots = True

