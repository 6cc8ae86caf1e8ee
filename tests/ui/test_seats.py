"""Trick mode's set-up on the screen (Settings, Seats), as ``botifarra-kiosk seats`` does it:
four cards dealt one per seat under the overhead camera (the first trick of a rough table's
hand, rendered and kept on disk: tests/ui/recording.py, the footage test_tricks reads too)
through the kiosk's frames-only camera (in lockstep with the learner, as a camera gives its
frames whatever the machine's load); each seat lights up as its card lies still, Save keeps
the places in the settings."""

from __future__ import annotations

import pytest

from tests.ui.flows import wait_for
from tests.ui.ui2steps import open_settings

pytestmark = pytest.mark.ui


def test_the_seats_are_learnt_on_the_screen_and_kept(kiosk, tmp_path, monkeypatch):
    from tests.ui.recording import first_trick, record

    seq = first_trick()
    # the four cards come in turn from the hand's leader on: the screen takes the first for
    # seat 1 ("Seient 1"), the next for seat 2 ...
    dealt = [p.seat for p in seq.plan.plays]
    assert dealt == [(dealt[0] + k) % 4 for k in range(4)]
    frames = tmp_path / "frames"
    record(seq, frames, lying=10)  # and the trick lying there a second more

    def camera(*, frames_only=False, on_frame=None, on_status=None, **_):
        """camera_factory's frames-only camera, the recording in lockstep with the learner
        (a busy test machine must not make it skip frames the kiosk's camera would give: the
        learner, missing the second card's still frames, took the third card for seat 2)."""
        from tests.overhead.lockstep import LockstepSource
        from vision.deck.service import DealService

        assert frames_only
        return DealService(LockstepSource(frames), None, on_frame=on_frame, on_status=on_status)

    monkeypatch.setenv("BOTIFARRA_CONFIG_DIR", str(tmp_path / "config"))  # where Save writes
    d = kiosk.start(camera_factory=camera)
    open_settings(d)
    d.tap("seats")
    assert d.screen == "seats"
    screen = d.current
    assert screen.learnt == [False] * 4 and not d.has("save") and "Seient 1" in screen.prompt
    assert wait_for(d, lambda: screen.learnt[1], timeout=90), screen.prompt
    assert "Seient 3" in screen.prompt and not d.has("save")
    d.shot(state="two")
    d.tap("start_again")  # forget them: the next cards count from seat 1 again
    assert screen.learnt == [False] * 4
    d.tap("back")
    d.tap("seats")  # the file starts again with the camera: the four cards from the first
    assert wait_for(d, lambda: screen.complete, timeout=120), screen.prompt
    d.shot(state="learnt")
    d.tap("save")
    assert d.screen == "settings"
    places = d.app.settings["camera.seats"].places
    for seat, at in enumerate(dealt):  # each laid a few centimetres off its place at most
        x, y = seq.seats_px[at]
        assert abs(places[seat][0] - x) < 60 and abs(places[seat][1] - y) < 60, (seat, places[seat], (x, y))
    assert (d.app.settings["camera.width"], d.app.settings["camera.height"]) == seq.size
    from kiosk.settings import Settings
    assert Settings.load()["camera.seats"].places == places  # kept for the next start
