"""The message strip: a message coming or going moves no control and covers none, and its
text is read whole at every size (a long one in smaller letters, down to the kiosk's
smallest, or shortened with its whole text one tap away).

The flaky failure this replaces: a banner that took its strip only while it showed pushed
every screen down; a tap aimed just as it timed out met a moved button, which the tap
guard (rightly) refused, and the tap did nothing.
"""

from __future__ import annotations

import pytest

from kiosk.ui import theme
from tests.ui.doubletap import button_keys, find_button
from tests.ui.flows import bid
from tests.ui.harness import SHOTS, SIZES
from tests.ui.readable import label_problems

pytestmark = pytest.mark.ui

SHORT = "Prova"
# A fault of two sentences (a damaged journal and a bad settings file at once, as at start)
LONG = ("El registre estava malmès i s'ha apartat a journal.sqlite.damaged-2026-11-26. "
        "La puntuació nova comença de zero.\n"
        "El fitxer de configuració té un problema: es fan servir els valors de sempre. "
        "La puntuació està guardada. Aviseu el personal del bar.")


def _controls(d) -> dict[str, tuple]:
    """Where every shown button of the screen is on the window, and its size."""
    out = {}
    for key in button_keys(d):
        w = find_button(d, key)
        out[key] = (*map(round, w.to_window(w.x, w.y)), round(w.width), round(w.height))
    return out


def _strip_is_whole(d, where: str) -> list[str]:
    banner = d.app.banner
    out = []
    if banner.font_size < theme.MIN_FONT * d.app.u - 0.01:
        out.append(f"{where}: the strip's letters are {banner.font_size:.1f} px")
    if not banner.shortened:
        return out + label_problems(banner, f"{where}: ")
    # shortened: the whole text is one tap away, in the panel, at the strip's largest letters
    d.touch_at(*banner.center)
    panel = d.app.messages.panel
    assert panel.parent is not None, f"{where}: a tap on a shortened message shows no panel"
    d.pump(2)
    out += label_problems(panel, f"{where} (panel): ")
    if panel.font_size < 20 * d.app.u - 0.01 or panel.texture_size[1] > panel.height:
        out.append(f"{where}: the panel's text is {panel.font_size:.0f} px, {panel.texture_size[1]} px high "
                   f"in {panel.height:.0f}")
    d.touch_at(*panel.center, after=0.06)  # a double tap: the panel's second touch is held
    assert panel.parent is not None and banner.text, f"{where}: the second touch closed the panel"
    d.pump(1, draw=True)
    d.grab(SHOTS / f"{d.window.size[0]}x{d.window.size[1]}" / f"{d.test_name}-{d.screen}-panel.png")
    d.touch_at(*panel.center)  # read: a tap closes it with the message
    assert panel.parent is None and not banner.text, f"{where}: a tap left the panel"
    return out


def test_a_message_moves_no_control_and_is_read_whole(kiosk):
    d = kiosk.start()
    d.shots = False  # its own screenshots: the strip with each message, at each size
    d.tap("new_match", shot=False)
    d.tap("dealer_0", shot=False)
    d.tap("start", shot=False)
    bid(d, "oros")
    problems: list[str] = []
    for size in SIZES:
        d.resize(size)
        where = f"{size[0]}x{size[1]} {d.screen}"
        before = _controls(d)
        assert before, where
        for text, name in ((SHORT, "short"), (LONG, "long")):
            d.app.show_message(text)
            d.pump(3)
            if _controls(d) != before:
                problems.append(f"{where}: the {name} message moved {set(before.items()) ^ set(_controls(d).items())}")
            d.pump(1, draw=True)
            d.grab(SHOTS / f"{size[0]}x{size[1]}" / f"{d.test_name}-{d.screen}-{name}.png")
            problems += _strip_is_whole(d, f"{where} {name}")
            d.app.show_message("")
            d.pump(3)
            if _controls(d) != before:
                problems.append(f"{where}: hiding the {name} message moved a control")
        # the short message whole at the strip's largest letters
        d.app.show_message(SHORT)
        assert d.app.banner.font_size == 20 * d.app.u and not d.app.banner.shortened, where
        d.app.show_message("")
    d.resize(SIZES[0])
    d.finish()
    assert not problems, "\n".join(problems)
