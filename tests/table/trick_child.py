"""Child of the trick-mode kill test: ``python -m tests.table.trick_child DIR`` starts a match
in trick mode and plays a drawn hand card by card through the table session, printing
``card N`` after each one the journal saved, until it is killed."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from kiosk.journal import Journal
from kiosk.settings import Settings
from kiosk.table import TableSession
from kiosk.table.drafts import DraftStore
from tests.table.trickplay import play_hand


def main(folder: Path) -> None:
    settings = Settings()
    settings.set("camera.mode", "tricks")
    session = TableSession(Journal(folder / "j.sqlite"), settings=settings, drafts=DraftStore(folder / "draft.json"))
    session.new_match(first_dealer=0)
    session.choose_trump("oros")
    for n, (trick, seat, card) in enumerate(play_hand(3, trump="oros", first_lead=1), start=1):
        assert session.trick_play.play_card(seat, card).saved
        print(f"card {n}", flush=True)
        time.sleep(0.03)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
