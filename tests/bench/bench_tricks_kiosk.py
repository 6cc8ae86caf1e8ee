"""Trick mode through the kiosk's own path, Kivy-free, on the whole hands filmed by the
realistic overhead camera (issue 23): a file source paced at 10 frames a second (the
camera), ``vision.tricks.TrickService`` (the reader on its thread), ``TrickFeed`` (the
hand-off to the UI loop, here a queue the main thread empties every 10 ms) and the table
session (each card one journal event, committed to SQLite). An ask is answered with the true
card, as the table would.

Per hand: cards recorded at the right seat, wrong, asked; the renunci shown against the
injected one; and the wall time from a card lying still (the first frame after the hand
left it) to the session's state holding it, which is what the screen draws next frame.

Run: ``python -m tests.bench tricks_kiosk`` (the frames must have been rendered once: ``python
-m tests.bench tricks`` does it; wall times on a shared machine count the others' turns).
"""

from __future__ import annotations

import queue
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

from kiosk.game.rules import Rules
from kiosk.journal import Journal
from kiosk.settings import Settings
from kiosk.table import TableSession
from kiosk.table.trickcamera import TrickFeed
from tests.bench.bench_tricks import HANDS, learnt_deck
from tests.overhead.frames import Sequence, _version, overhead
from tests.realcam.dataset import cache_dir
from vision.sources import FileSource
from vision.tricks import TrickReader, TrickService

WHOLE = [h for h in HANDS if len(h) > 5 and h[5] == 12]


def run_hand(model, seq: Sequence, folder: Path) -> dict:
    doc = seq.plan.doc
    settings = Settings()
    settings.set("camera.mode", "tricks")
    with tempfile.TemporaryDirectory() as tmp:
        session = TableSession(Journal(Path(tmp) / "j.sqlite"), settings=settings)
        session.new_match_from({"type": "match_created", "rules": Rules.from_dict(doc["rules"]).to_dict(),
                                "first_dealer": (doc["first_lead"] - 1) % 4, "players": [None] * 4,
                                "team_names": {"A": "Nosaltres", "B": "Vosaltres"}})
        session.choose_trump(doc["trump"])
        session.start_play()
        calls: queue.Queue = queue.Queue()
        feed = TrickFeed(session, to_ui=lambda f: (lambda *a: calls.put((f, a))))
        delivered: dict[int, float] = {}
        reader = TrickReader(model, seq.seats_px, session.trick_play.hand_in_play(), frame_size=seq.size)
        service = TrickService(FileSource(folder, loop=False, fps=10), reader, on_events=feed.on_events,
                               on_frame=lambda f: delivered.__setitem__(f.number, f.time))
        feed.attach(service)
        seen_at: dict[tuple[int, int], float] = {}
        asked = 0
        service.start()
        end = time.monotonic() + len(seq) / 10 + 60
        while time.monotonic() < end and session.state.tricks.played < 48:
            try:
                f, a = calls.get(timeout=0.01)
            except queue.Empty:
                if service.status in ("ended", "stopped") and calls.empty():
                    break
                continue
            f(*a)
            now = time.monotonic()
            for p in session.trick_play.hand_in_play().events:
                seen_at.setdefault((p.trick, p.seat), now)
            for seat, ask in list(feed.asks.items()):
                asked += 1
                truth = [p for p in seq.plan.plays if p.seat == seat and p.trick == ask.trick]
                if truth:
                    feed.answer(seat, truth[0].code)
        service.stop()
        hand = session.trick_play.hand_in_play()
        got = {(p.trick, p.seat): p.card.code for p in hand.events}
        right = sum(1 for p in seq.plan.plays if got.get((p.trick, p.seat)) == p.code)
        lat = []
        for p in seq.plan.plays:
            at = seen_at.get((p.trick, p.seat))
            n = seq.frame_of(p.still_s) + 1  # FileSource numbers frames from 1
            shown = [t for k, t in delivered.items() if k >= n]
            if at is not None and shown:
                lat.append(max(0.0, at - min(shown)) * 1000)
        want = seq.plan.check["renunci"]
        shown_r = session.state.tricks.renunci
        return {"cards": len(seq.plan.plays), "right": right, "wrong": len(got) - right, "asked": asked,
                "renunci": (shown_r is not None and want is not None and
                            (shown_r.trick, shown_r.seat, shown_r.card) == (want["trick"], want["seat"], want["card"])),
                "false": shown_r is not None and want is None, "latency": lat,
                "frames": len(delivered), "of": len(seq)}


def main(argv: list[str] | None = None) -> None:
    cv2.setNumThreads(1)
    model = learnt_deck()
    print("| hand | mode | height | cards | right seat+card | wrong | asked | renunci shown | frames read "
          "| still -> session median ms | p99 | max |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for seed, mode, height, renunci, lighting, tricks in WHOLE:
        seq = overhead(seed, mode=mode, height_cm=height, renunci=renunci, tricks=tricks, lighting=lighting)
        folder = cache_dir() / f"overhead-{_version()}-{seq.key}"
        if len(list(folder.glob("*.jpg"))) < len(seq):
            for _ in seq.frames():  # rendered once, kept on disk
                pass
        r = run_hand(model, seq, folder)
        lat = r["latency"] or [0.0]
        shown = "right" if r["renunci"] else ("FALSE" if r["false"] else ("none" if not renunci else "wrong"))
        print(f"| {seed} | {mode} | {height:.0f} cm | {r['cards']} | {r['right']} | {r['wrong']} | {r['asked']} "
              f"| {shown} | {r['frames']} / {r['of']} | {np.median(lat):.0f} | {np.percentile(lat, 99):.0f} "
              f"| {max(lat):.0f} |", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
