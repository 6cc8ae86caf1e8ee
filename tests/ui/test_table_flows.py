"""The taps that used to lose or misplace data, driven with touches at every supported
size (one flow per size, to keep the suite lean): the seats land on the right pair, the
card grid never moves under a finger, the pile owner is shown big, an undone hand is said
and can be redone, a match in play is left only on a second touch and History resumes it.
The screenshots are measured: the totals' glyph height, and no label cut off (every
screen, both languages: test_readable)."""

from __future__ import annotations

import time

import pytest

from tests.ui.flows import bid, pile
from tests.ui.harness import PRESSED_S, SHOTS, SIZES
from tests.ui.readable import total_digits_height, truncated

pytestmark = pytest.mark.ui


def _grid(d) -> list[tuple]:
    """Where every card button is, in window coordinates."""
    return [tuple(int(v) for v in b.to_window(*b.pos)) + tuple(int(v) for v in b.size)
            for b in d.current._buttons.values()]


def _pair_of(widget) -> str:
    while widget is not None and not hasattr(widget, "team"):
        widget = widget.parent
    return widget.team


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_a_hand_undone_redone_abandoned_and_resumed(kiosk, size, request):
    d = kiosk.start()
    d.shots = False  # this flow takes its own screenshots, at its own size
    d.resize(size)
    tag = f"{size[0]}x{size[1]}"

    def shot(name):
        path = SHOTS / tag / f"flows-{name}.png"
        time.sleep(PRESSED_S)  # the button just tapped let go (not shot mid-press)
        d.pump(2)  # (the grab paints the frame it reads back, as the loop would: not twice)
        d.grab(path)
        d.finish()
        return path

    # New match: the seat fields sit by pair (seats 1+3, 2+4) around a drawn table.
    d.tap("new_match", shot=False)
    ids = d.current.ids
    for seat, name in enumerate(("Anna", "Pere", "Joan", "Núria")):
        ids[f"player_{seat}"].text = name
    assert _pair_of(ids.player_0) == _pair_of(ids.player_2) == _pair_of(ids.team_a) == "A"
    assert _pair_of(ids.player_1) == _pair_of(ids.player_3) == _pair_of(ids.team_b) == "B"
    d.pump(2)
    shot("new_match")
    d.tap("dealer_0", shot=False)
    d.tap("start", shot=False)
    assert d.app.session.state.players == ("Anna", "Pere", "Joan", "Núria")
    first = d.app.session.state.match_id

    # The tap-the-cards grid never moves, and its whole-tricks warning waits for OK.
    bid(d, "oros", levels=("contro",))
    d.tap("score_cards", shot=False)
    where = _grid(d)
    d.tap("team_A", shot=False)
    cards = pile(60)
    for code in cards[:3]:
        d.tap(code, shot=False)
        assert _grid(d) == where
    assert not d.current.problem  # not yet: the table may still be tapping
    d.tap("ok", shot=False)
    assert d.screen == "score_cards" and d.current.problem and _grid(d) == where
    shot("score_cards-warning")
    for code in cards[3:]:
        d.tap(code, shot=False)
        assert _grid(d) == where
    assert not d.current.problem
    d.tap("ok", shot=False)

    # The confirmation says whose pile it is, big.
    assert d.screen == "confirm" and "Nosaltres" in d.current.ids.owner.text
    shot("confirm")
    assert not truncated(d), truncated(d)
    d.tap("confirm", shot=False)
    totals = d.app.session.state.totals
    assert totals["A"] > 0

    # Undo a scored hand: a second, deliberate touch; then it says what was undone; Redo.
    d.tap("undo", shot=False)  # the scored hand: asks
    assert d.app.session.state.totals == totals and d.has("undo_yes")
    assert not truncated(d), truncated(d)
    shot("undo-ask")
    d.tap("undo_yes", shot=False)
    assert d.app.session.state.totals == {"A": 0, "B": 0}
    text = " ".join(w.text for w in d.current.ids.actions.walk() if getattr(w, "text", ""))
    assert f"+{totals['A']} Nosaltres" in text, text
    assert not truncated(d), truncated(d)
    shot("undone")
    d.tap("redo", shot=False)
    assert d.app.session.state.totals == totals

    # Readable from across the table: the totals' digits, measured on the screenshot.
    bid(d, "copes", levels=("contro",))  # "Copes ×2" shows big while the hand is played
    assert d.current.contract_text.endswith("×2")
    path = shot("scoreboard")
    glyph = total_digits_height(d, path, "A")
    landscape = size[0] > size[1]
    # a quarter of the height in landscape; in portrait the totals stack, each more than a fifth
    assert glyph >= size[1] * (0.25 if landscape else 0.22), (glyph, size)
    assert not truncated(d), truncated(d)

    # "Nova partida" asks before leaving a match in play; History resumes it.
    d.tap("new_match", shot=False)
    assert d.screen == "scoreboard" and d.has("abandon_yes")
    assert not truncated(d), truncated(d)
    shot("abandon-ask")
    d.tap("abandon_yes", shot=False)
    assert d.screen == "new_match"
    d.tap("start", shot=False)
    assert d.app.session.state.match_id != first and d.app.session.state.totals == {"A": 0, "B": 0}
    d.tap("history", shot=False)
    d.tap(f"match_{first}", shot=False)
    shot("history-resume")
    d.tap("resume", shot=False)
    assert d.screen == "scoreboard"
    assert d.app.session.state.match_id == first and d.app.session.state.totals == totals
