"""High-contrast colours and the size unit.

``u`` (on the app) is one unit = the window's smaller side / 480, so the Pi 7" screen
(800x480) has u = 1 and everything scales with the window. A touch target is at least
``TOUCH`` units: 50 px on the Pi 7" screen (5.2 px/mm), i.e. 9.6 mm.
"""

BG = (0.06, 0.07, 0.09, 1)
PANEL = (0.13, 0.15, 0.19, 1)
TEXT = (1, 1, 1, 1)
MUTED = (0.78, 0.82, 0.88, 1)
TEAM = {"A": (1.0, 0.82, 0.25, 1), "B": (0.35, 0.80, 1.0, 1)}
BUTTON = (0.22, 0.26, 0.34, 1)
PRIMARY = (0.10, 0.55, 0.25, 1)
DANGER = (0.70, 0.16, 0.16, 1)
SELECTED = (0.98, 0.88, 0.30, 1)
SUIT = {
    "oros": (0.98, 0.78, 0.15, 1),
    "copes": (0.90, 0.22, 0.22, 1),
    "espases": (0.45, 0.70, 1.0, 1),
    "bastos": (0.35, 0.80, 0.35, 1),
    "botifarra": (0.80, 0.45, 0.35, 1),
}
TOUCH = 50
PI_PX_PER_MM = 800 / 154.2
# The smallest text the kiosk draws (in units: 15 px on the Pi 7" screen, 2.9 mm): the seat
# diagram's labels and the sheet's headings never go below it.
MIN_FONT = 15
