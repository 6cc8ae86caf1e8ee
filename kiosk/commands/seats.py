"""``botifarra-kiosk seats [--camera SPEC | --frames FRAME...] [--first-seat S] [--settings PATH]``:
trick mode's set-up step. Deal one card face up in front of each player, in seat order
(seat S first, then S+1...), and leave them until the fourth lies still: each card's place
is where that seat plays. The places are checked (``vision.tricks.check_seats``), written to
the settings with the frames' size (``camera.seats``) and printed as ``{"0": [x, y], ...}`` (the ``read --tricks
--seats`` form). Exit 1 when four places were not seen (timeout, frames ended); 2 for bad
input, one line on stderr.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from kiosk.commands import fail


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--camera", help="camera source (default: the settings' camera.source)")
    parser.add_argument("--frames", nargs="+", metavar="FRAME", help="frames in time order instead of a camera")
    parser.add_argument("--first-seat", type=int, default=0, choices=range(4),
                        help="the seat whose card is dealt first (default 0)")
    parser.add_argument("--settings", type=Path, help="settings.ini to write (default: the kiosk's)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds to wait for the camera")


def run(args: argparse.Namespace) -> int:
    from kiosk.settings import SeatPlaces, Settings
    from vision.tricks import SeatLearner, check_seats

    settings = Settings.load(args.settings)
    frames = _frames(args, settings)
    learner = size = None
    for image in frames:
        if learner is None:
            size = (image.shape[1], image.shape[0])
            learner = SeatLearner(frame_size=size)
        learner.feed(image)
        if learner.seats is not None:
            break
    if learner is None or learner.seats is None:
        return fail("seats", "four cards were not seen lying still, one in front of each player", 1)
    places = {(args.first_seat + k) % 4: p for k, p in learner.seats.items()}
    problem = check_seats(places, size)
    if problem:
        return fail("seats", problem, 1)
    settings.set("camera.seats", SeatPlaces.of(places))
    settings.set("camera.width", size[0])  # the places are in pixels of frames of this size
    settings.set("camera.height", size[1])
    settings.save()
    print(json.dumps({str(s): [round(places[s][0]), round(places[s][1])] for s in range(4)}))
    return 0


def _frames(args, settings):
    import cv2
    if args.frames:
        for name in args.frames:
            image = cv2.imread(name, cv2.IMREAD_COLOR)
            if image is None:
                raise SystemExit(fail("seats", f"{name} is not an image", 2))
            yield image
        return
    from kiosk import paths
    from vision.sources import open_source
    source = open_source(args.camera or settings["camera.source"], width=settings["camera.width"],
                         height=settings["camera.height"], exposure=settings["camera.exposure"],
                         cache_dir=paths.cache_dir())
    source.start()
    try:
        end, last = time.monotonic() + args.timeout, 0
        while time.monotonic() < end:
            frame = source.latest(0.5, after=last)
            if frame is not None:
                last = frame.number
                yield frame.image
    finally:
        source.stop()
