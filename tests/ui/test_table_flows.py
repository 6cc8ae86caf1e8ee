"""The taps that used to lose or misplace data, driven with touches at every supported
size (one flow per size, to keep the suite lean): the seats land on the right pair, the
card grid never moves under a finger, the pile owner is shown big, an undone hand is said
and can be redone, a match in play is left only on a second touch and History resumes it.
The screenshots are measured: the totals' glyph height, and no label cut off."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from tests.ui.flows import bid, pile
from tests.ui.harness import SHOTS, SIZES

pytestmark = pytest.mark.ui


def _grid(d) -> list[tuple]:
    """Where every card button is, in window coordinates."""
    return [tuple(int(v) for v in b.to_window(*b.pos)) + tuple(int(v) for v in b.size)
            for b in d.current._buttons.values()]


def _pair_of(widget) -> str:
    while widget is not None and not hasattr(widget, "team"):
        widget = widget.parent
    return widget.team


def _truncated(d) -> list[str]:
    """Labels on the screen whose text does not fit: shortened with an ellipsis, or a
    texture wider than the label."""
    from kivy.core.text import Label as CoreLabel
    from kivy.uix.label import Label
    out = []
    for w in d.current.walk(restrict=True):
        if not isinstance(w, Label) or not w.text or w.opacity == 0 or w.width <= 1:
            continue
        w.texture_update()
        if w.shorten:
            core = CoreLabel(text=w.text, font_size=w.font_size, bold=w.bold, font_name=w.font_name)
            need = core.get_extents(w.text)[0] + 2 * w.padding_x
            room = (w.text_size[0] or w.width) if w.text_size else w.width
            if need > room + 1:
                out.append(f"{d.screen}: {w.text!r} needs {need:.0f}px, has {room:.0f}px")
        elif w.texture_size[0] > w.width + 2:
            out.append(f"{d.screen}: {w.text!r} is {w.texture_size[0]:.0f}px in {w.width:.0f}px")
    return out


def _glyph_height(path, box) -> int:
    """The height in pixels of the total's digits, measured on the screenshot: the rows of
    the total's box holding pixels of the pair's colour (the name line excluded)."""
    from kiosk.ui import theme
    image = np.asarray(Image.open(path).convert("RGB")).astype(int)
    height = image.shape[0]
    x, y, w, h = box
    region = image[height - (y + h):height - y, x:x + w]
    colour = np.array([int(c * 255) for c in theme.TEAM["A"][:3]])
    rows = np.where((np.abs(region - colour).sum(axis=2) < 60).sum(axis=1) > 2)[0]
    return int(rows.max() - rows.min() + 1) if len(rows) else 0


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_a_hand_undone_redone_abandoned_and_resumed(kiosk, size, request):
    d = kiosk.start()
    d.shots = False  # this flow takes its own screenshots, at its own size
    d.resize(size)
    tag = f"{size[0]}x{size[1]}"

    def shot(name):
        path = SHOTS / tag / f"flows-{name}.png"
        d.pump(2, draw=True)  # a whole frame painted before it is read back
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
    assert d.app.vm.state.players == ("Anna", "Pere", "Joan", "Núria")
    first = d.app.vm.state.match_id

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
    assert not _truncated(d), _truncated(d)
    d.tap("confirm", shot=False)
    totals = d.app.vm.state.totals
    assert totals["A"] > 0

    # Undo a scored hand: a second, deliberate touch; then it says what was undone; Redo.
    d.tap("undo", shot=False)  # the scored hand: asks
    assert d.app.vm.state.totals == totals and d.has("undo_yes")
    shot("undo-ask")
    d.tap("undo_yes", shot=False)
    assert d.app.vm.state.totals == {"A": 0, "B": 0}
    text = " ".join(w.text for w in d.current.ids.actions.walk() if getattr(w, "text", ""))
    assert f"+{totals['A']} Nosaltres" in text, text
    shot("undone")
    d.tap("redo", shot=False)
    assert d.app.vm.state.totals == totals

    # Readable from across the table: the totals' digits, measured on the screenshot.
    bid(d, "copes", levels=("contro",))  # "Copes ×2" shows big while the hand is played
    assert d.current.contract_text.endswith("×2")
    path = shot("scoreboard")
    box = d.current.ids.total_a
    x, y = box.to_window(*box.pos)
    glyph = _glyph_height(path, (int(x), int(y), int(box.width), int(box.height - d.app.u * 30)))
    landscape = size[0] > size[1]
    assert glyph >= size[1] * (0.25 if landscape else 0.12), (glyph, size)
    assert not _truncated(d), _truncated(d)

    # "Nova partida" asks before leaving a match in play; History resumes it.
    d.tap("new_match", shot=False)
    assert d.screen == "scoreboard" and d.has("abandon_yes")
    shot("abandon-ask")
    d.tap("abandon_yes", shot=False)
    assert d.screen == "new_match"
    d.tap("start", shot=False)
    assert d.app.vm.state.match_id != first and d.app.vm.state.totals == {"A": 0, "B": 0}
    d.tap("history", shot=False)
    d.tap(f"match_{first}", shot=False)
    shot("history-resume")
    d.tap("resume", shot=False)
    assert d.screen == "scoreboard"
    assert d.app.vm.state.match_id == first and d.app.vm.state.totals == totals
