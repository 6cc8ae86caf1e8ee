"""What "readable" means, measured on the real window: no label's words cut off (shortened
with an ellipsis, lines dropped, a word broken across lines, text spilling out of its
widget), and the totals' digits measured on a screenshot."""

from __future__ import annotations

import re

import numpy as np
from PIL import Image

SLACK = 2  # px: antialiasing at a glyph's edge is not a cut
# A line's box holds room above the capitals (accents) and below the baseline (descenders):
# 0.46 em in Roboto. A single line may pass its widget by that much: the totals' digits
# (no accents, no descenders) fill their box on purpose.
LINE_ROOM = 0.46


def _shown(widget) -> bool:
    w = widget
    while w is not None and w.parent is not w:  # the Window is its own parent
        if w.opacity == 0 or w.width <= 1 or w.height <= 1:
            return False
        w = w.parent
    return True


def _core(label, text_width):
    """The label's text laid out with nothing cut: ``text_width`` wide (None: one line each)."""
    from kivy.core.text import Label as CoreLabel
    from kivy.core.text.markup import MarkupLabel
    options = {k: getattr(label, k) for k in label._font_properties}
    options.update(shorten=False, max_lines=0, text_size=(text_width, None))
    core = (MarkupLabel if label.markup else CoreLabel)(**options)
    core.refresh()
    return core


def _plain(label) -> str:
    return re.sub(r"\[/?[a-z_]+(=[^\]]*)?\]", "", label.text) if label.markup else label.text


def label_problems(label, where: str = "") -> list[str]:
    """What of this label's text a reader would not see whole."""
    label.texture_update()
    text = label.text
    tw, th = label.text_size if label.text_size else (None, None)
    px = label.padding[0] + label.padding[2] if hasattr(label, "padding") and len(label.padding) == 4 \
        else 2 * label.padding_x
    out = []
    if tw is None:  # one line per paragraph: the widget must hold the texture
        need_w, need_h = _core(label, None).content_size if label.shorten else label.texture_size
        if need_w > label.width + SLACK:
            out.append(f"{where}{text!r} is {need_w:.0f}px wide in {label.width:.0f}px")
        lines = max(1, len(text.split("\n")))
        if need_h > label.height + (LINE_ROOM * label.font_size if lines == 1 else SLACK):
            out.append(f"{where}{text!r} is {need_h:.0f}px high in {label.height:.0f}px")
        return out
    if label.shorten:  # shortened text is drawn on one line: it must fit the width
        need_w = _core(label, None).content_size[0]
        drawn = "".join(w.text for line in getattr(label._label, "_cached_lines", []) for w in line.words)
        if need_w > tw + SLACK or ("..." in drawn and "..." not in text):
            out.append(f"{where}{text!r} is shortened: needs {need_w:.0f}px, has {tw:.0f}px")
        return out
    core = _core(label, tw)
    need_h = core.content_size[1]
    room_h = th if th is not None else label.height
    lines = len(core._cached_lines) if getattr(core, "_cached_lines", None) else 1
    if label.max_lines and lines > label.max_lines:
        out.append(f"{where}{text!r} needs {lines} lines, may have {label.max_lines}")
    if need_h > room_h + (LINE_ROOM * label.font_size if lines == 1 else SLACK):
        out.append(f"{where}{text!r} needs {need_h:.0f}px high, has {room_h:.0f}px")
    # A word must stay whole on one line: Kivy breaks a word that does not fit its line.
    shown = ["".join(w.text for w in line.words) for line in getattr(core, "_cached_lines", [])]
    for word in _plain(label).split():
        if "/" in word:  # a file path (the technician's details) breaks at its slashes
            continue
        if shown and not any(word in line for line in shown):
            out.append(f"{where}the word {word!r} is broken across lines (line {tw - px:.0f}px)")
    return out


def truncated(d) -> list[str]:
    """Every label on the current screen (and the banner) whose text is not wholly seen."""
    from kivy.uix.label import Label
    out = []
    # a shortened message strip is whole one tap away (tests/ui/test_message_strip.py)
    widgets = list(d.current.walk(restrict=True)) + ([] if d.app.banner.shortened else [d.app.banner])
    for w in widgets:
        if isinstance(w, Label) and w.text.strip() and _shown(w):
            out += label_problems(w, f"{d.screen}: ")
    return out


def glyph_height(path, box, colour) -> int:
    """The height in pixels of the drawing in ``colour`` inside ``box`` (x, y, w, h in window
    coordinates, y up), measured on the screenshot at ``path``."""
    image = np.asarray(Image.open(path).convert("RGB")).astype(int)
    height = image.shape[0]
    x, y, w, h = box
    region = image[height - (y + h):height - y, x:x + w]
    rgb = np.array([int(c * 255) for c in colour[:3]])
    rows = np.where((np.abs(region - rgb).sum(axis=2) < 60).sum(axis=1) > 2)[0]
    return int(rows.max() - rows.min() + 1) if len(rows) else 0


def total_digits_height(d, path, team: str) -> int:
    """The height in pixels of pair ``team``'s total on the scoreboard, its digits only (not
    the pair's name above them, nor the progress bar below them), measured on the screenshot
    at ``path``."""
    from kiosk.ui import theme
    box = d.current.ids[f"total_{team.lower()}"]
    x, y = box.to_window(*box.pos)
    bar, name = d.app.u * 16, d.app.u * 30
    return glyph_height(path, (int(x), int(y + bar), int(box.width), int(box.height - bar - name)),
                        theme.TEAM[team])


def seat_total_heights(d, path) -> list[int]:
    """The height in pixels of every player's total on the board of a game without pairs,
    its digits only (not the name above them), measured on the screenshot at ``path``."""
    from kiosk.ui.screens.variant_board import SEAT_COLOURS
    heights = []
    for seat, box in enumerate(reversed(d.current.ids.totals.children)):
        label = box.ids.total
        x, y = label.to_window(*label.pos)
        heights.append(glyph_height(path, (int(x), int(y), int(label.width), int(label.height)),
                                    SEAT_COLOURS[seat]))
    return heights


def seat_label_overlaps(d) -> list[str]:
    """The scoreboard's seat labels whose text (not their boxes) overlap another's."""
    seats = d.current.ids.get("seats")
    if seats is None or seats.opacity == 0 or not _shown(seats):
        return []
    boxes = []
    for seat, label in enumerate(seats._labels):
        core = _core(label, label.text_size[0] if label.text_size else None)
        lines = core._cached_lines  # the laid-out lines: the text's own extent, not its box
        w, h = max(line.w for line in lines), sum(line.h for line in lines)
        x, y = label.to_window(*label.center)
        boxes.append((seat, x - w / 2, y - h / 2, x + w / 2, y + h / 2))
    out = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if min(a[3], b[3]) - max(a[1], b[1]) > SLACK and min(a[4], b[4]) - max(a[2], b[2]) > SLACK:
                out.append(f"{d.screen}: seat {a[0] + 1}'s label overlaps seat {b[0] + 1}'s")
    return out
