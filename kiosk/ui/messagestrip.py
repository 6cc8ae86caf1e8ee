"""The message strip: what the kiosk has to say, across the top of every screen.

The strip (``widgets.Banner``) is always there, above the screen, empty when there is
nothing to say: no control moves when a message comes or goes, and none lies under it. A
message takes the largest letters that hold it on one line (down to ``theme.MIN_FONT``),
else it is shortened, and its whole text is one tap away in a panel laid over the screen
(``widgets.MessagePanel``). A message hides itself after its time, kept on the monotonic
clock. What a message means for the table (the error cue, the status LED) is the app's.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from kivy.clock import Clock

from kiosk.ui import theme
from kiosk.ui.widgets import Banner, MessagePanel


class MessageStrip:
    """The banner, its timer and the whole-message panel. ``over`` is the layout the panel
    is laid on; ``unit()`` the app's size unit; ``dismissed()`` is called when a tap or the
    timer hides the message (the app then clears what it told the table)."""

    def __init__(self, over, *, unit: Callable[[], float], dismissed: Callable[[], None]) -> None:
        self.over = over
        self.unit = unit
        self.banner = Banner(text="")
        self.panel = MessagePanel(size_hint=(1, None))
        self._event = None
        self._dismissed = dismissed
        self.banner.bind(size=lambda *args: self.fit(), on_dismiss=lambda banner: dismissed(),
                         on_expand=lambda banner: self.show_whole())
        self.panel.bind(on_release=lambda panel: dismissed())

    @property
    def text(self) -> str:
        return self.banner.text

    def show(self, text: str, seconds: float) -> None:
        """``text`` in the strip for ``seconds`` ("" empties it)."""
        self.banner.show(text)
        self.fit()
        self._close_whole()
        self._cancel()
        if text:
            self._hide_at(time.monotonic() + seconds)

    def fit(self) -> None:
        """The strip keeps its height; the message takes the largest letters that hold it
        on one line (20 u down to theme.MIN_FONT), else it is shortened (also after a resize)."""
        u = self.unit()
        self.banner.fit(u * 20, u * theme.MIN_FONT)
        if self.panel.parent is not None:
            self.show_whole()

    def show_whole(self) -> None:
        """A shortened message, whole, over the screen below the strip, for a while (a tap
        on it hides it with the message)."""
        panel, banner = self.panel, self.banner
        panel.text = banner.message
        panel.width, panel.height = banner.width, banner.y
        panel.pos = (0, 0)
        if panel.parent is None:
            self.over.add_widget(panel)
        self._cancel()
        self._hide_at(time.monotonic() + 60)

    @property
    def pending(self) -> bool:
        """A timer is waiting to hide the message."""
        return self._event is not None and self._event.is_triggered

    def _close_whole(self) -> None:
        if self.panel.parent is not None:
            self.panel.parent.remove_widget(self.panel)

    def _cancel(self) -> None:
        if self._event is not None:
            self._event.cancel()

    def _hide_at(self, deadline: float) -> None:
        """Kivy's clock counts a timeout from its last tick, which is stale when the kiosk
        worked for a while between frames (a slow start on the Pi): the deadline is kept on
        the monotonic clock, and a timeout that fires early waits again for the rest."""
        def hide(dt):
            if deadline - time.monotonic() > 0.05:
                self._hide_at(deadline)
            else:
                self._dismissed()
        self._event = Clock.schedule_once(hide, max(0.0, deadline - time.monotonic()))
