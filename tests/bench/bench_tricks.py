"""The trick reader on whole hands filmed by the realistic overhead camera (issue 23).

Run: ``python -m tests.bench.bench_tricks [HANDS]`` (default: all of them) under ``taskset -c 1`` with
OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 (cv2.setNumThreads(1) is set here). Each hand is
played by four hands reaching in from the four sides (tests/overhead), 720p and 1080p at
70-100 cm, in a dim bar with the lamp's reflection; some hands hold one injected renunci.
The deck is learnt from the realistic camera's enrolment photos (tests/vision/realdeck.py).

An ask is answered with the true card (as the table would), so the hand goes on. Per hand:
cards named at the right seat, wrong, asked; trick winners and points against the truth;
the renunci of ``hand check`` on what was read against the true one (trick, seat, card,
proof); ms per frame; and the latency from a card lying still (no hand over it) to its
report, in frames of 100 ms. ms per frame is the reader's CPU time (``time.process_time``,
one thread): on a shared machine the wall clock also counts the other programs' turns (it is
printed too). Frames are rendered once and kept on disk (REALCAM_CACHE).
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from kiosk.game import DECK, Card
from kiosk.game.handrecord import HandInPlay
from kiosk.game.rules import Rules
from tests.overhead.frames import Sequence, overhead
from vision.tricks import TrickAsk, TrickPlay, TrickReader

# (seed, mode, height cm, renunci[, lighting[, tricks]]); a bar's dim lamp and TRICKS tricks
# unless said; the renunci seeds are ones whose forbidden card and its
# proof both fall in the first TRICKS tricks (tests/overhead/plan.py draws them)
HANDS = [(101, "720p", 70.0, False), (213, "720p", 100.0, True), (228, "1080p", 70.0, True),
         (104, "1080p", 100.0, False), (230, "720p", 85.0, True), (106, "1080p", 85.0, False),
         (247, "720p", 92.0, True), (259, "1080p", 78.0, True), (262, "720p", 78.0, True),
         (266, "1080p", 92.0, True), (270, "720p", 85.0, False, "harsh"), (271, "1080p", 85.0, False, "harsh"),
         (301, "720p", 88.0, True, "bar", 12), (302, "1080p", 82.0, True, "bar", 12)]  # two whole hands
TRICKS = 4  # of each hand: a whole hand is ~560 frames, 5-10 minutes of rendering each


@dataclass
class HandResult:
    seq: Sequence
    cards: int = 0
    right: int = 0
    wrong: int = 0
    asked: int = 0
    tricks_right: bool = False
    renunci_right: bool = False
    false_renunci: bool = False
    ms: list[float] | None = None  # CPU time (one thread): the machine's other load left out
    wall_ms: list[float] | None = None
    latency: list[int] | None = None  # frames from the hand gone off the card to its report
    from_laid: list[int] | None = None  # frames from the card let go of (the hand still over it)


def learnt_deck(codes: tuple[str, ...] | None = None):
    """The whole fournier deck (or only ``codes`` of it) learnt from the realistic camera's
    enrolment photos, kept on disk next to the frames (48 renders take a few minutes on a
    busy machine; even a trick's 8 cards take seconds, in every test that reads a trick)."""
    import hashlib

    from tests.realcam.dataset import cache_dir, generator_version
    from tests.vision.realdeck import learnt
    from vision.deck.store import load_model, save_model

    import vision.deck

    codes = tuple(c.code for c in DECK) if codes is None else tuple(codes)
    part = "" if len(codes) == len(DECK) else "-" + hashlib.sha1(",".join(codes).encode()).hexdigest()[:12]
    # learnt afresh when the learning itself changes (vision/deck), not only the photos
    learning = hashlib.sha1(b"".join(f.read_bytes() for f in sorted(Path(vision.deck.__file__).parent.glob("*.py"))))
    path = cache_dir() / f"overhead-deck-fournier{part}-{generator_version()}-{learning.hexdigest()[:10]}.npz"
    if path.exists():
        return load_model(path)
    model = learnt("fournier", codes)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        save_model(model, path)
    except OSError:
        pass
    return model


def run_hand(model, seq: Sequence) -> HandResult:
    doc = seq.plan.doc
    hand = HandInPlay(doc["trump"], first_lead=doc["first_lead"], rules=Rules.from_dict(doc["rules"]))
    reader = TrickReader(model, seq.seats_px, hand, frame_size=seq.size)
    truth = {(p.trick, p.seat): p for p in seq.plan.plays}
    out = HandResult(seq, cards=len(seq.plan.plays), ms=[], wall_ms=[], latency=[], from_laid=[])
    for f in seq.frames():
        t0, w0 = time.process_time(), time.perf_counter()
        events = reader.feed(f.image)
        out.ms.append((time.process_time() - t0) * 1000)
        out.wall_ms.append((time.perf_counter() - w0) * 1000)
        while events:
            e = events.pop(0)
            if isinstance(e, TrickAsk):
                out.asked += 1
                # the table names the card played at that seat in that trick
                p = truth.get((e.trick, e.seat))
                code = p.code if p is not None else _lying(seq, e.seat, f.t_s)
                events += reader.answer(e.seat, Card.parse(code))
                continue
            assert isinstance(e, TrickPlay)
            p = truth.get((e.trick, e.seat))
            if p is not None and p.code == e.card.code:
                out.right += 1
                out.latency.append(max(f.n - seq.frame_of(p.still_s), 0))
                out.from_laid.append(f.n - seq.frame_of(p.lands_s))
            else:
                out.wrong += 1
    want = seq.plan.check
    got = reader.hand.check().to_json()
    out.tricks_right = (got["winners"], got["points"]) == (want["winners"], want["points"])
    out.renunci_right = got["renunci"] == want["renunci"]
    out.false_renunci = got["renunci"] is not None and (want["renunci"] is None or
                                                        got["renunci"]["trick"] != want["renunci"]["trick"])
    return out


def _lying(seq: Sequence, seat: int, t: float) -> str:
    """The last card laid at ``seat`` by ``t``: what the players answer an ask with."""
    return [p for p in seq.plan.plays if p.seat == seat and p.lands_s <= t][-1].code


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    cv2.setNumThreads(1)
    # (run from ``python -m tests.bench tricks`` the arguments are the bench names)
    n = int(argv[0]) if argv and argv[0].isdigit() else len(HANDS)
    model = learnt_deck()
    results = []
    print("| hand | mode, light | height | renunci | cards | right seat+card | wrong | asked | winners+points "
          "| renunci (trick, seat, card, proof) | CPU ms/frame median | p99 | wall ms median "
          "| still -> report median | max |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for seed, mode, height, renunci, *extra in HANDS[:n]:
        lighting = extra[0] if extra else "bar"
        tricks = extra[1] if len(extra) > 1 else TRICKS
        r = run_hand(model, overhead(seed, mode=mode, height_cm=height, renunci=renunci, tricks=tricks,
                                     lighting=lighting))
        results.append(r)
        lat = r.latency or [0]
        rn = "right" if r.renunci_right else ("FALSE" if r.false_renunci else "wrong")
        print(f"| {seed} | {mode}, {lighting} | {height:.0f} cm | {'yes' if renunci else 'no'} | {r.cards} | {r.right} "
              f"| {r.wrong} | {r.asked} | {'right' if r.tricks_right else 'wrong'} | {rn} "
              f"| {np.median(r.ms):.1f} | {np.percentile(r.ms, 99):.1f} | {np.median(r.wall_ms):.1f} "
              f"| {np.median(lat) * 100:.0f} ms "
              f"| {max(lat) * 100} ms |", flush=True)
    cards = sum(r.cards for r in results)
    right, wrong, asked = (sum(getattr(r, k) for r in results) for k in ("right", "wrong", "asked"))
    injected = sum(1 for r in results if r.seq.plan.injected is not None)
    shown = sum(1 for r in results if r.seq.plan.injected is not None and r.renunci_right)
    false = sum(1 for r in results if r.false_renunci)
    ms = np.concatenate([r.ms for r in results])
    lat = np.concatenate([r.latency for r in results if r.latency])
    laid = np.concatenate([r.from_laid for r in results if r.from_laid])
    print(f"\n| all | cards | named at the right seat | wrong | asked | hands with winners+points right "
          f"| injected renuncis shown with the right proof | false accusations | CPU ms/frame median | p99 "
          f"| still -> report median | p99 | laid -> report median | p99 |\n"
          f"|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
          f"| {len(results)} hands | {cards} | {right} ({100 * right / cards:.2f} %) | {wrong} "
          f"| {asked} ({100 * asked / cards:.2f} %) | {sum(r.tricks_right for r in results)} | {shown} / {injected} "
          f"| {false} | {np.median(ms):.1f} | {np.percentile(ms, 99):.1f} | {np.median(lat) * 100:.0f} ms "
          f"| {np.percentile(lat, 99) * 100:.0f} ms | {np.median(laid) * 100:.0f} ms "
          f"| {np.percentile(laid, 99) * 100:.0f} ms |\n")


if __name__ == "__main__":
    main()
