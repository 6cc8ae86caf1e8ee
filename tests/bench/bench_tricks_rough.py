"""The trick reader on whole hands at rough tables (issue 23's Done means, at a sample size
that can say something about 99.9 %): 20 whole hands, 960 cards, half at 720p and half at
1080p, 70-100 cm up, every nuisance of tests/realcam/rough drawn per hand
(tests/overhead/rough.py: mat, felt, wood or marble; card shadows; a swaying, flickering lamp
reflection near a seat; gain noise; exposure jitter and flicker bands; hands resting in view),
the cards laid sloppily by four hands and swept off by the winner; half the hands hold one
injected renunci.

Run: ``taskset -c 1 python -m tests.bench tricks_rough`` (OMP_NUM_THREADS=1; cv2 one thread
is set here); ``python -m tests.bench.bench_tricks_rough 720p`` or ``1080p`` runs one half
(the two halves render on two cores at once the first time: ~0.1 s a 720p frame, ~0.2 s at
1080p, ~550 frames a hand; kept on disk after); ``rendered``: only the hands already on disk
(while the others render). The tables are bench_tricks's (the same
``run_hand``: an ask is answered with the true card; ms per frame is the reader's CPU time).
"""

from __future__ import annotations

import sys

import cv2
import numpy as np

from tests.bench.bench_tricks import learnt_deck, run_hand
from tests.overhead.rough import rough_overhead

HEIGHTS = (70.0, 74.0, 78.0, 82.0, 86.0, 90.0, 94.0, 97.0, 100.0, 85.0)
# (seed, mode, height cm, renunci): 10 hands at each resolution, every other one with a renunci
HANDS = [(401 + i + (0 if mode == "720p" else 100), mode, HEIGHTS[i], i % 2 == 1)
         for mode in ("720p", "1080p") for i in range(10)]


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    cv2.setNumThreads(1)
    modes = [a for a in argv if a in ("720p", "1080p")] or ["720p", "1080p"]
    hands = [h for h in HANDS if h[1] in modes]
    if "rendered" in argv:
        hands = [h for h in hands if _on_disk(rough_overhead(h[0], mode=h[1], height_cm=h[2], renunci=h[3]))]
    model = learnt_deck()
    print("| hand | mode | height | table | gain | reflection | resting hands | renunci | cards | right | wrong "
          "| asked | winners+points | renunci (trick, seat, card, proof) | CPU ms/frame median | p99 "
          "| still -> report median | max |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    results = []
    for seed, mode, height, renunci in hands:
        seq = rough_overhead(seed, mode=mode, height_cm=height, renunci=renunci)
        r = run_hand(model, seq)
        results.append(r)
        nu = seq.nuisances
        lat = r.latency or [0]
        rn = "right" if r.renunci_right else ("FALSE" if r.false_renunci else "wrong")
        print(f"| {seed} | {mode} | {height:.0f} cm | {nu.background} | {nu.gain:.1f} | {nu.reflection:.2f} "
              f"| {len(seq.resting)} | {'yes' if renunci else 'no'} | {r.cards} | {r.right} | {r.wrong} | {r.asked} "
              f"| {'right' if r.tricks_right else 'wrong'} | {rn} | {np.median(r.ms):.1f} "
              f"| {np.percentile(r.ms, 99):.1f} | {np.median(lat) * 100:.0f} ms | {max(lat) * 100} ms |", flush=True)
    print("\n| set | hands | cards | named at the right seat | wrong | asked | winners+points right "
          "| renuncis shown with the right proof | false accusations | CPU ms/frame median | p99 "
          "| still -> report median | p99 | max |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, rs in [(m, [r for r in results if r.seq.mode == m]) for m in modes] + [("all", results)]:
        if not rs:
            continue
        cards = sum(r.cards for r in rs)
        right, wrong, asked = (sum(getattr(r, k) for r in rs) for k in ("right", "wrong", "asked"))
        injected = [r for r in rs if r.seq.plan.injected is not None]
        ms = np.concatenate([r.ms for r in rs])
        lat = np.concatenate([r.latency for r in rs if r.latency]) * 100
        print(f"| {name} | {len(rs)} | {cards} | {right} ({100 * right / cards:.2f} %) | {wrong} "
              f"| {asked} ({100 * asked / cards:.2f} %) | {sum(r.tricks_right for r in rs)} / {len(rs)} "
              f"| {sum(r.renunci_right for r in injected)} / {len(injected)} | {sum(r.false_renunci for r in rs)} "
              f"| {np.median(ms):.1f} | {np.percentile(ms, 99):.1f} | {np.median(lat):.0f} ms "
              f"| {np.percentile(lat, 99):.0f} ms | {lat.max():.0f} ms |", flush=True)


def _on_disk(seq) -> bool:
    return seq.folder.is_dir() and len(list(seq.folder.glob("*.jpg"))) >= len(seq)


if __name__ == "__main__":
    main()
