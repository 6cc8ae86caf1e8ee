"""View-models: plain Python (no Kivy) that the screens bind to; tested without a window."""

from kiosk.ui.viewmodels.match import MatchViewModel, SCREENS  # noqa: F401
from kiosk.ui.viewmodels.cards import CardPicker  # noqa: F401
from kiosk.ui.viewmodels.points import PointsPad  # noqa: F401
