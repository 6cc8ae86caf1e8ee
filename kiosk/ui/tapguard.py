"""One tap guard for the whole kiosk (not one per button).

People at a bar table double-tap, tap with a wet finger and tap again when nothing seems to
happen. Two rules keep a tap from acting on something nobody chose:

- **A control that appeared, moved or changed meaning takes no touch for ``SETTLE_S``** after
  it did. The guard looks at the kiosk's buttons each frame (where each one is on the window,
  what it says and does, whether it is enabled) and remembers since when each looked as it
  does; a touch that comes down on a button younger than that is swallowed whole (down, moves
  and up), so the second tap of a double tap never reaches "Recontro!" where "Contro!" was.
- **An action a touch made the table write holds that touch's place for ``SETTLE_S``.** The
  buttons under it take no touch for the while, as if they had just appeared: the second
  touch of a double tap on Undo (Redo already shown, nothing under the finger moved) never
  undoes a second thing. Typing (a pad's digits, a card tapped) writes only the draft and
  is not held: "44" tapped quickly is two fours.
- **Taps that go on coming on the same spot are refused while they come.** A touch refused
  near the last touch let act, within ``SETTLE_S`` of the touch before it, holds the
  buttons under it again: three or four taps a third of a second apart on Confirm are
  one "Confirm" and nothing on the screen it led to (the third would otherwise meet
  "Triar triomf", settled by then). A person who reads the new screen pauses first.
- **A touch that began before the screen changed never acts on the new one.** Every change
  the guard sees (a button appears, moves, changes or goes, or the screen is replaced) counts
  as a new content version; a touch lifted on a later version than it came down on is
  cancelled: whatever it had pressed is released without acting.

The guard sits in front of the Window's touch events (bound before the widgets get them), so
every button of every screen, present or to come, is covered without knowing about it. The
keyboard and GPIO buttons are not touches and are not guarded.
"""

from __future__ import annotations

import time
from typing import Callable, NamedTuple

from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.stencilview import StencilView
from kivy.uix.widget import Widget

# 400 ms: a double tap (60-300 ms between touches) and a quick "again, it did nothing" tap
# (about a third of a second) both fall inside it; a deliberate next tap on a new screen
# (a person reads it first: well over half a second) does not.
SETTLE_S = 0.4
# A button that moves by this much or less has not moved (a finger is ~10 mm: 50 px or more).
NUDGE_PX = 3
# A touch this near the last one let act is the same finger on the same spot (half a finger).
SAME_SPOT_PX = 25

Rect = tuple[float, float, float, float]
# How the walk treats a widget of each class: a button (its insides are the button), a
# scroll view's stencil (it clips), a widget whose children are placed in its own coordinates
# (``to_parent`` overridden: a screen, a relative layout, a scroll view), else a plain one.
_BUTTON, _CLIPS, _OWN_ORIGIN = 1, 2, 4
_KINDS: dict[type, int] = {}


def _kind(cls: type) -> int:
    kind = _KINDS.get(cls)
    if kind is None:
        kind = 0
        if issubclass(cls, ButtonBehavior):
            kind |= _BUTTON
        if issubclass(cls, StencilView):
            kind |= _CLIPS
        if cls.to_parent is not Widget.to_parent:
            kind |= _OWN_ORIGIN
        _KINDS[cls] = kind
    return kind


class Look(NamedTuple):
    """How a button looks to a finger: where it is on the window and what it means. (A
    typed tuple, not a dataclass: every shown button's look is made, hashed and compared
    each frame, and a tuple's are done in C.)"""
    rect: tuple[int, int, int, int]
    text: str
    action: str
    disabled: bool


def _look(widget: Widget, origin: tuple[float, float] = (0.0, 0.0)) -> Look:
    """``origin``: where its parent's (0, 0) is on the window (its parent's children are
    placed in the parent's own coordinates: a screen, a scroll view)."""
    x, y = origin[0] + widget.x, origin[1] + widget.y
    text = getattr(widget, "text", None)
    if not isinstance(text, str):
        text = ""
    number = getattr(widget, "number", "")  # a sheet row means its hand
    return Look((round(x), round(y), round(widget.width), round(widget.height)),
                text + (f"#{number}" if isinstance(number, str) and number else ""),
                str(getattr(widget, "action", "") or ""), bool(widget.disabled))


def _intersect(a: Rect, b: Rect) -> Rect:
    x0, y0 = max(a[0], b[0]), max(a[1], b[1])
    x1, y1 = min(a[0] + a[2], b[0] + b[2]), min(a[1] + a[3], b[1] + b[3])
    return (x0, y0, max(0.0, x1 - x0), max(0.0, y1 - y0))


class TapGuard:
    """The guard over the widget tree ``root`` (the kiosk's root widget).

    ``clock`` is a monotonic clock in seconds (``time.monotonic``). Call ``watch()`` once a
    frame; bind ``on_touch_down/move/up`` to the Window's events (they return True when the
    touch must go no further)."""

    def __init__(self, root: Widget, *, clock: Callable[[], float] = time.monotonic,
                 settle_s: float = SETTLE_S) -> None:
        self.root = root
        self.clock = clock
        self.settle_s = settle_s
        self.version = 0
        self._since: dict[Look, float] = {}
        self._shown: list[tuple[Look, Rect]] = []
        self._down_version: dict[object, int] = {}
        self._swallowed: set[object] = set()
        self._lifted: tuple[float, float, float] | None = None  # the last touch let act: x, y, when
        # taps on one spot: where the last touch let down was, and when the last touch there came
        self._spot: tuple[float, float, float] | None = None
        self.swallowed_count = 0  # touches refused so far (logged, for the diagnostics)

    # ------------------------------------------------------------------ watching
    def _buttons(self):
        """The buttons shown, each with where its parent's (0, 0) is on the window and the
        part of the window its scroll views let show. The way to the window is added up on
        the way down (a translation: ``to_parent`` of (0, 0)), not asked of every button."""
        infinite: Rect = (-1e9, -1e9, 2e9, 2e9)
        stack: list[tuple[Widget, tuple[float, float], Rect]] = [(self.root, (0.0, 0.0), infinite)]
        found = []
        while stack:
            widget, origin, clip = stack.pop()
            if widget.opacity <= 0 or widget.width <= 0 or widget.height <= 0:
                continue
            kind = _kind(type(widget))
            if kind & _BUTTON:
                found.append((widget, origin, clip))
                continue  # a button's insides are the button
            if kind & _CLIPS:  # a scroll view shows only its own box
                clip = _intersect(clip, (origin[0] + widget.x, origin[1] + widget.y, widget.width, widget.height))
            if kind & _OWN_ORIGIN:
                dx, dy = widget.to_parent(0, 0)
                inner = (origin[0] + dx, origin[1] + dy)
            else:  # (Widget.to_parent(0, 0) is (0, 0): the parent's origin is its own)
                inner = origin
            stack.extend([(child, inner, clip) for child in widget.children])
        return found

    def watch(self) -> None:
        """Note what every shown button looks like now and since when it does. A button
        built again the same (a screen's refresh) has not changed: it is its look that
        counts, not the widget."""
        now = self.clock()
        before = self._since
        shown: list[tuple[Look, Rect]] = []
        since: dict[Look, float] = {}
        for widget, origin, clip in self._buttons():
            look = _look(widget, origin)
            if look not in before:
                look = self._steady(look)
            shown.append((look, clip))
            since[look] = before.get(look, now)
        if since.keys() != before.keys():
            self.version += 1
        self._since, self._shown = since, shown

    def _steady(self, look: Look) -> Look:
        """A button that settles by a pixel or two (a scroll view's last step, a layout
        rounding) is where it was: no finger can tell, and counting it as moved would hold
        it, and cancel every touch in flight, for nothing. Its earlier look is kept."""
        if look in self._since:
            return look
        x, y, w, h = look.rect
        for old in self._since:
            ox, oy, ow, oh = old.rect
            if (old.text, old.action, old.disabled) == (look.text, look.action, look.disabled) \
                    and abs(ox - x) <= NUDGE_PX and abs(oy - y) <= NUDGE_PX \
                    and abs(ow - w) <= NUDGE_PX and abs(oh - h) <= NUDGE_PX:
                return old
        return look

    @property
    def looks(self) -> frozenset[Look]:
        """The buttons shown at the last look (what a finger could meet)."""
        return frozenset(self._since)

    def settled(self, x: float, y: float) -> bool:
        """True when every button at window point (x, y) has looked the same for the while."""
        now = self.clock()
        for look, clip in self._shown:
            bx, by, bw, bh = _intersect(look.rect, clip)
            if bx <= x <= bx + bw and by <= y <= by + bh and now - self._since[look] < self.settle_s:
                return False
        return True

    # ------------------------------------------------------------------ touches
    def on_touch_down(self, window, touch) -> bool:
        self.watch()
        now = self.clock()
        if not self.settled(touch.x, touch.y):
            self._swallowed.add(touch.uid)
            self.swallowed_count += 1
            self._tapping_on(touch.x, touch.y, now)
            return True
        self._spot = (touch.x, touch.y, now)
        self._down_version[touch.uid] = self.version
        return False

    def _tapping_on(self, x: float, y: float, now: float) -> None:
        """A refused touch that goes on a series on one spot holds the buttons under it."""
        if self._spot is None:
            return
        sx, sy, last = self._spot
        if abs(x - sx) > SAME_SPOT_PX or abs(y - sy) > SAME_SPOT_PX or now - last >= self.settle_s:
            return
        self._spot = (sx, sy, now)
        self._hold(x, y, now)

    def _hold(self, x: float, y: float, now: float) -> None:
        """The buttons at window point (x, y) held as if they had appeared at ``now``."""
        for look, clip in self._shown:
            bx, by, bw, bh = _intersect(look.rect, clip)
            if bx <= x <= bx + bw and by <= y <= by + bh:
                self._since[look] = now

    def on_touch_move(self, window, touch) -> bool:
        return touch.uid in self._swallowed

    def on_touch_up(self, window, touch) -> bool:
        if touch.uid in self._swallowed:
            self._swallowed.discard(touch.uid)
            return True
        self.watch()
        began = self._down_version.pop(touch.uid, self.version)
        if began == self.version:
            self._lifted = (touch.x, touch.y, self.clock())
            return False
        # The screen changed under a finger held down: release what it pressed, do nothing.
        for ref in touch.grab_list[:]:
            widget = ref()
            if widget is None:
                continue
            touch.ungrab(widget)
            if isinstance(widget, ButtonBehavior):
                widget.state = "normal"
        self.swallowed_count += 1
        return True

    def acted(self) -> None:
        """The table wrote to its journal: if a touch just lifted made it (its button's
        action ran as it lifted), the buttons under that touch are held as if they had just
        appeared. Called by the app after every action that wrote; one from the keyboard or
        a GPIO button has no touch just lifted, and holds nothing."""
        lifted, self._lifted = self._lifted, None
        if lifted is None:
            return
        x, y, at = lifted
        now = self.clock()
        if now - at > 0.1:
            return
        self._hold(x, y, now)
