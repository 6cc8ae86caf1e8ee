"""M5: the kiosk reopens what it last showed, after a restart (the files beside the journal
are written whole at each change, so a ``kill -9`` finds what a clean stop leaves): the match
won, a finished match's scoreboard, an edit not saved yet, a new match half typed, the
language chosen on the scoreboard. A match left for a new one never comes back uninvited."""

from __future__ import annotations

import pytest

from kiosk.settings import Settings
from kiosk.ui.i18n import _
from tests.ui.flows import bid, confirm, score_points, start_match
from tests.ui.readable import truncated

pytestmark = pytest.mark.ui


def _win(d) -> None:
    bid(d, "oros", levels=("contro", "recontro"))
    score_points(d, "A", 72)
    confirm(d)
    assert d.screen == "match_won"


def _leave_a_match_in_play_then_win_another(d) -> int:
    start_match(d)
    bid(d, "copes")  # match 1 in play...
    d.tap("new_match")
    d.tap("abandon_yes")  # ...left for a new one: it stays in History
    assert d.screen == "new_match"
    d.tap("start")
    second = d.app.session.match_id
    _win(d)
    return second


def test_the_match_won_comes_back_not_the_match_left_in_play(kiosk):
    d = kiosk.start()
    second = _leave_a_match_in_play_then_win_another(d)
    kiosk.stop()
    d = kiosk.start()
    assert d.screen == "match_won" and d.app.session.match_id == second
    d.shot()


def test_a_finished_match_scoreboard_comes_back(kiosk):
    d = kiosk.start()
    second = _leave_a_match_in_play_then_win_another(d)
    d.tap("scoreboard")
    assert d.screen == "scoreboard"
    kiosk.stop()
    d = kiosk.start()
    assert d.screen == "scoreboard" and d.app.session.match_id == second and d.app.session.state.is_over
    assert d.current.status == _("Match over")  # it used to say "No match yet"
    d.shot()
    d.tap("new_match")  # a finished match: straight to the form, and the form is kept
    assert d.screen == "new_match"


def test_the_next_hand_goes_into_the_match_on_screen(kiosk):
    d = kiosk.start()
    start_match(d)
    first = d.app.session.match_id
    kiosk.stop()
    d = kiosk.start()
    assert d.app.session.match_id == first and d.screen == "scoreboard"
    bid(d, "espases")
    assert d.app.session.match_id == first


def test_an_unsaved_edit_comes_back(kiosk):
    d = kiosk.start()
    start_match(d)
    bid(d, "oros")
    score_points(d, "A", 50)
    confirm(d)
    d.app.act(d.app.session.begin_action, "edit_hand", hand=0)
    assert d.screen == "edit_hand"
    d.tap("copes")
    d.tap("clear")  # the C key: the number shown goes, a new one is typed
    d.tap("4")
    d.tap("1")
    assert d.current.display == "41"
    kiosk.stop()
    d = kiosk.start()
    assert d.screen == "edit_hand" and d.current.trump == "copes" and d.current.display == "41"
    d.shot()
    d.tap("save")
    assert d.app.session.state.totals["A"] == 5  # 41 - 36


def test_a_half_typed_new_match_comes_back(kiosk):
    d = kiosk.start()
    d.tap("new_match")
    d.current.ids.team_a.text = "Els Avis"
    d.current.ids.player_1.text = "Montse"
    d.tap("dealer_2")
    d.tap("target")
    target = d.current.target
    kiosk.stop()
    d = kiosk.start()
    assert d.screen == "new_match"
    ids = d.current.ids
    assert ids.team_a.text == "Els Avis" and ids.player_1.text == "Montse"
    assert d.current.first_dealer == 2 and d.current.target == target
    d.shot()
    d.tap("back")  # Back: the form is dropped, the table shows what it had
    assert d.screen == "scoreboard"
    kiosk.stop()
    d = kiosk.start()
    assert d.screen == "scoreboard"


def test_the_language_chosen_on_the_scoreboard_survives_a_restart(kiosk, tmp_path):
    path = tmp_path / "settings.ini"
    d = kiosk.start(settings=Settings(path=path))
    d.tap("language")
    chosen = d.app.language
    assert chosen != "ca"
    kiosk.stop()
    d = kiosk.start(settings=Settings.load(path))
    assert d.app.language == chosen
    d.shot()
    # the longest question there is, in Spanish, in portrait: whole (it took four lines, cut)
    d.shots = False
    d.resize((720, 1280))
    start_match(d)
    bid(d, "botifarra")
    d.tap("new_match")
    assert d.has("abandon_yes") and not truncated(d), truncated(d)
    d.shots = True
