"""Hand hardware callbacks to the UI's own loop.

gpiozero calls ``when_*`` callbacks on its own threads; a UI toolkit must only be touched
from its main loop. ``call_on(scheduler)`` returns a wrapper that turns a callback into one
that does nothing but pass it to ``scheduler``. The Kivy UI passes Clock (this package
never imports Kivy)::

    to_ui = call_on(lambda f: Clock.schedule_once(lambda dt: f()))
    controls.when_scan = to_ui(self.scan)
"""

from __future__ import annotations

import functools
from typing import Any, Callable

Scheduler = Callable[[Callable[[], Any]], Any]


def call_on(scheduler: Scheduler) -> Callable[[Callable[..., Any]], Callable[..., None]]:
    """Return ``wrap(callback)``: a function that, when called on any thread with any
    arguments, hands ``callback(*args, **kwargs)`` to ``scheduler`` instead of running it."""

    def wrap(callback: Callable[..., Any]) -> Callable[..., None]:
        @functools.wraps(callback)
        def handed_over(*args: Any, **kwargs: Any) -> None:
            scheduler(functools.partial(callback, *args, **kwargs))

        return handed_over

    return wrap
