"""A history journal drawn in code for the history view-model tests."""

from __future__ import annotations

import pytest

from kiosk.journal import Journal
from kiosk.ui import i18n


def _match(journal, names=("Nosaltres", "Vosaltres"), hands=((("botifarra"), 72),) * 2):
    mid = journal.create_match({"type": "match_created", "rules": {"preset": "reglament"},
                                "first_dealer": 0, "players": [None] * 4,
                                "team_names": {"A": names[0], "B": names[1]}})
    for n, (trump, points) in enumerate(hands):
        journal.append(mid, {"type": "trump", "seat": n % 4, "trump": trump})
        journal.append(mid, {"type": "play"})
        journal.append(mid, {"type": "hand_scored", "points": {"A": points}, "source": "points",
                             "evidence": None})
    return mid


@pytest.fixture(name="journal")
def journal_fixture(tmp_path):
    j = Journal(tmp_path / "journal.sqlite")
    yield j
    j.close()


@pytest.fixture(name="catalan", autouse=True)
def catalan_fixture():
    """The history sheet's words in Catalan, English again afterwards."""
    i18n.set_language("ca")
    yield
    i18n.set_language("en")
