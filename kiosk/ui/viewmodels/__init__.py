"""View-models: plain Python (no Kivy) that the screens bind to; tested without a window.
The match itself is the table session's (kiosk.table), not a view-model's."""

from kiosk.ui.viewmodels.cards import CardPicker  # noqa: F401
from kiosk.ui.viewmodels.points import PointsPad  # noqa: F401
