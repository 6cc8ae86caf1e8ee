"""How the kiosk asks Kivy to draw: the same for the real kiosk and the UI tests.

Call :func:`configure_rendering` before Kivy is imported (it sets environment variables
Kivy reads at import) and before the window is made. Importing this module does not import
Kivy.

- ``multisamples = 0``: no multisample anti-aliasing. The kiosk draws flat panels and text
  (text is a texture either way); MSAA buffers cost 15 MB of the kiosk's memory under
  Mesa's software GL (docs/perf.md) and fill rate on the Pi's GPU.
- ``KIVY_IMAGE=sdl2``: images (PNG icons, JPEG evidence photos) through SDL2_image only, so
  Kivy does not import Pillow into the kiosk (Pillow stays for the printable sheet).
"""

from __future__ import annotations

import os

ENVIRONMENT = {"KIVY_IMAGE": "sdl2"}
GRAPHICS = {"multisamples": "0"}


def configure_rendering() -> None:
    """Set what Kivy reads at import (without overriding the environment) and the
    ``[graphics]`` options the window is made with."""
    for key, value in ENVIRONMENT.items():
        os.environ.setdefault(key, value)
    from kivy.config import Config
    for key, value in GRAPHICS.items():
        Config.set("graphics", key, value)
