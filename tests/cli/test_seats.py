"""``botifarra-kiosk seats``: trick mode's set-up learns each seat's place from four cards
dealt under the overhead camera, keeps it in the settings, and the kiosk checks it at start."""

from __future__ import annotations

import json

import pytest

from kiosk.cli import main
from kiosk.commands.run import trick_camera_factory
from kiosk.settings import Settings
from tests.overhead.frames import _version
from tests.realcam.dataset import cache_dir
from tests.vision.test_tricks import one_trick


def test_the_seats_are_learnt_from_four_cards_kept_and_checked_at_start(tmp_path, capsys):
    seq, frames = one_trick()  # the first trick's four cards, dealt from seat first_lead on
    folder = cache_dir() / f"overhead-{_version()}-{seq.key}"
    files = [str(folder / f"{n:05d}.jpg") for n in range(len(frames))]  # (as rendered, kept on disk)
    ini = tmp_path / "settings.ini"
    first = seq.plan.doc["first_lead"]
    assert main(["seats", "--frames", *files, "--first-seat", str(first), "--settings", str(ini)]) == 0
    printed = {int(k): v for k, v in json.loads(capsys.readouterr().out).items()}
    for seat, (x, y) in seq.seats_px.items():  # laid a few centimetres off its place at most
        assert abs(printed[seat][0] - x) < 60 and abs(printed[seat][1] - y) < 60, (seat, printed[seat], (x, y))
    settings = Settings.load(ini)
    assert settings["camera.seats"].places == {s: tuple(map(float, p)) for s, p in printed.items()}
    assert (settings["camera.width"], settings["camera.height"]) == seq.size
    settings.set("camera.mode", "tricks")
    settings.set("camera.marks", "deck:fournier")
    make = trick_camera_factory("demo", settings)
    assert make is not None
    settings.set("camera.width", 320)  # another camera mode: the places are off the frame
    with pytest.raises(ValueError, match="outside the camera's frame"):
        make(None)  # the trick camera does not start (the table names the cards by touch)
    settings.set("camera.mode", "piles")
    assert trick_camera_factory("demo", settings) is None
    assert main(["seats", "--frames", files[0], "--settings", str(ini)]) == 1
    assert "four cards were not seen" in capsys.readouterr().err
