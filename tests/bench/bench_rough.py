"""Deal-through reading on rough tables (issue 21): ``python -m tests.bench rough``.

The tracker reads, frame by frame, dealing sequences of :mod:`tests.realcam.rough.dealing`:

1. the MIXED set: ``BENCH_ROUGH_SEQS`` sequences (16) of ``BENCH_ROUGH_CARDS`` cards (24),
   each with every phenomenon at a strength drawn for it (``realistic_nuisances``), 720p and
   1080p in turn, both deck styles, 50-65 cm; and ``BENCH_ROUGH_NEAT`` (4) neat sequences as
   ONE row among the others. Table: cards named right, wrong, sent back ("show again", "two
   cards", "move it"), "hand" and "ja comptada" answers, missed; CPU ms per frame (one core);
2. the SWEEP: each phenomenon ALONE on the neat table (``nuisances.pushed``), pushed in steps
   to past its extreme, ``BENCH_ROUGH_SWEEP_SEQS`` (2) sequences of 12 cards at 720p a step.

3. LEARNING photos on the mat, felt, glossy wood and marble (:mod:`tests.bench.deck_learning`):
   accepted at the first take, refusal reasons, and whether a refusal names its true cause.

``BENCH_ROUGH_QUICK=1`` (or ``--quick``): 2 mixed (720p, 1080p) + 1 neat sequence of 12 cards,
the sweep at each phenomenon's extreme only (1 sequence of 6 cards), 8 learning photos a
surface: about two minutes on a free core. ``BENCH_ROUGH_SWEEP_ONLY=1``, ``_MIXED_ONLY=1``, ``_LEARN=0``: parts.
``BENCH_ROUGH_LEARN_SEED`` (23000) and ``_LEARN_SPREAD=0``: the learning photos' seeds (see deck_learning).
``BENCH_ROUGH_SEED``: the mixed set's first seed (21000; the development set is 31000 with
``SEQS=12 CARDS=12 NEAT=0 MIXED_ONLY=1 LEARN=0``, the fresh sets 32000 and 33000 the same).
``BENCH_ROUGH_STYLES=fournier`` limits the deck styles; ``BENCH_ROUGH_VERBOSE=1`` prints every
event. ``BENCH_ROUGH_DARKER=0``: a camera without exposure control.

The decks are learnt from the realistic enrolment photos (``tests.realcam.deal.enrol_photo``:
1080p, even light, on the mat), kept on disk between runs (the realistic camera's cache).
Frames are rendered as they are read (about 0.1 s of CPU a 720p frame), not kept, unless
``BENCH_ROUGH_FRAMES=DIR`` keeps them there (lossless; a second run reads the very same frames
back: see ``tests/bench/deck_rough.py``). ``BENCH_ROUGH_ONLY=3,7``: those mixed sequences alone
(their numbers in the set, from 0). ``BENCH_ROUGH_AT_ONCE=1``: every mixed sequence starts dealing at
once (no empty frame: the camera never sees the bare table), every other nuisance as drawn.
``BENCH_ROUGH_HARD=1``: every nuisance's strength drawn from the upper half of its range (``hard``):
the offset, turn, shadow, reflection (always on, nearer), its sway and flicker, gain, exposure
jitter, lingering hand (always) and tilt; the table, the height and dealing at once as drawn.
"""

from __future__ import annotations

import dataclasses
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import sys  # noqa: E402
import time  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from tests.bench import deck_learning  # noqa: E402
from tests.bench.deck_rough import Tally, read  # noqa: E402
from tests.realcam.rough.dealing import deal_sequence  # noqa: E402
from tests.realcam.rough.nuisances import SWEEP, neat, pushed, realistic_nuisances  # noqa: E402
from tests.realcam.rough.surfaces import DEALING  # noqa: E402

ALL_STYLES = ("fournier", "moderna")
SEED_MIXED, SEED_NEAT, SEED_SWEEP = 21_000, 21_500, 22_000


def _env(name: str, default: str) -> str:
    return os.environ.get(f"BENCH_ROUGH_{name}", default)


def models(styles: tuple[str, ...]) -> dict:
    """Each style learnt from its 48 enrolment photos (kept in the realistic camera's cache)."""
    from tests.bench.bench_deck import _learnt
    from tests.realcam.dataset import cache_dir, generator_version

    out = {}
    for style in styles:
        folder = cache_dir() / generator_version() / f"enrol-{style}"
        folder.mkdir(parents=True, exist_ok=True)
        out[style] = _learnt(style, folder)
    return out


def hard(nu, rng: np.random.Generator):
    """``nu`` with every strength drawn again from the upper half of its range in
    ``realistic_nuisances`` (a phenomenon drawn sometimes is always on here)."""
    u = lambda lo, hi: float(rng.uniform(lo, hi))  # noqa: E731
    return dataclasses.replace(
        nu, offset_cm=u(2.25, 4.0), rotation_deg=u(14, 25), shadow=u(0.35, 0.6), reflection=u(0.9, 1.6),
        reflection_near_mm=u(20, 85), reflection_move_mm=u(21.5, 40), reflection_flicker=u(0.165, 0.3),
        gain=u(4.5, 8), jitter=u(0.03, 0.06), linger=u(0.6, 1.0), tilt_deg=u(4, 8))


def mixed_args(n: int, n_neat: int, cards: int, styles: tuple[str, ...]) -> list[dict]:
    """The mixed set's sequences: (row names, deal_sequence arguments)."""
    out = []
    for k in range(n):
        seed = int(_env("SEED", str(SEED_MIXED))) + k
        nu = realistic_nuisances(np.random.default_rng([seed, 1]))
        if _env("AT_ONCE", "0") == "1":  # (every deal starts at once; every other nuisance as drawn)
            nu = dataclasses.replace(nu, at_once=True)
        if _env("HARD", "0") == "1":  # (every strength from the upper half of its range)
            nu = hard(nu, np.random.default_rng([seed, 2]))
        res = ("720p", "1080p")[k % 2]
        rows = [f"mixed, {res}", f"mixed, on {nu.background}"]
        if nu.gain >= 6:
            rows.append("mixed, gain 6 or more")
        if nu.at_once:
            rows.append("mixed, dealing at once")
        if _env("HARD", "0") == "1":
            rows.append("mixed, every nuisance harder")
        out.append(dict(rows=rows, seed=seed, nuisances=nu, resolution=res, cards=cards,
                        deck_style=styles[k // 2 % len(styles)]))
    for k in range(n_neat):
        res = ("720p", "1080p")[k % 2]
        out.append(dict(rows=["neat (the old tidy table)"], seed=SEED_NEAT + k,
                        nuisances=neat(height_cm=float(np.random.default_rng(SEED_NEAT + k).uniform(50, 65))),
                        resolution=res, cards=cards, deck_style=styles[k // 2 % len(styles)]))
    return out


def _pct(a: float, b: float) -> str:
    return f"{100 * a / b:.1f} %" if b else "—"


def _ms(xs: list[float]) -> str:
    if not xs:
        return "—"
    a = np.asarray(xs)
    return f"{np.median(a):.1f} / {np.percentile(a, 99):.1f}"


def _row(name: str, t: Tally) -> str:
    asks = ", ".join(f"{k} {v}" for k, v in sorted(t.asks.items())) or "—"
    return (f"| {name} | {t.seqs} | {t.cards} | {t.right} ({_pct(t.right, t.cards)}) | {t.wrong} "
            f"| {t.asked} ({_pct(t.asked, t.cards)}) | {t.asked_glare} of {t.glared} | {asks} | {t.asked_empty} | {t.hand} | {t.already} "
            f"| {t.missed} | {t.darker} |")


HEAD = ("| sequences | n | cards | named right | wrong | sent back (cards) | of them under a reflection, of cards "
        "under one | asks by kind | asks, no card on the table | \"hand\" | \"ja comptada\" | **silent misses** | darker frames "
        "|\n|---|---|---|---|---|---|---|---|---|---|---|---|---|")


def run_mixed(quick: bool, styles: tuple[str, ...], learnt: dict, darker: bool, verbose: bool) -> None:
    n = 2 if quick else int(_env("SEQS", "16"))
    n_neat = 1 if quick else int(_env("NEAT", "4"))
    cards = 12 if quick else int(_env("CARDS", "24"))
    rows: dict[str, Tally] = {}
    total = Tally()
    only = {int(k) for k in _env("ONLY", "").split(",") if k.strip()}  # e.g. "3,7": those sequences alone
    for k, args in enumerate(mixed_args(n, n_neat, cards, styles)):
        if only and k not in only:
            continue
        names = args.pop("rows")
        seq = deal_sequence(**args)
        t = read(seq, learnt[args["deck_style"]], darker=darker, verbose=verbose)
        print(f"<!-- seed {args['seed']} {args['resolution']} {args['nuisances'].background} "
              f"gain {args['nuisances'].gain:.1f}: {t.right}/{t.cards} right, {t.wrong} wrong, "
              f"{t.asked} sent back, {t.hand} hand -->", flush=True)
        for name in names:
            rows.setdefault(name, Tally()).add(t)
        if not names[0].startswith("neat"):
            total.add(t)
    print(f"### Mixed rough sequences ({'quick' if quick else 'full'}: {n} mixed + {n_neat} neat, {cards} cards "
          f"each; no answer to the asks)\n")
    print(HEAD)
    print(_row("**all mixed** (720p + 1080p, 50-65 cm)", total))
    for name in sorted(rows, key=lambda s: (s.startswith("neat"), s)):
        print(_row(name, rows[name]))
    everything = Tally()  # every frame read, the neat ones too
    everything.add(total)
    if "neat (the old tidy table)" in rows:
        everything.add(rows["neat (the old tidy table)"])
    print("\n| frames read | n | CPU ms/frame median / p99 (one core) |\n|---|---|---|")
    for res in ("720p", "1080p"):
        xs = everything.ms.get(res, [])
        print(f"| {res} | {len(xs)} | {_ms(xs)} |")
    print()


def run_sweep(quick: bool, styles: tuple[str, ...], learnt: dict, darker: bool, verbose: bool) -> None:
    seqs = 1 if quick else int(_env("SWEEP_SEQS", "2"))
    cards = 6 if quick else 12
    print(f"### Sweep: each phenomenon alone on the neat table ({seqs} sequence(s) of {cards} cards at 720p a "
          f"step; cell: named right · wrong · sent back)\n")
    print("| phenomenon | level | cards | named right | wrong | sent back (of them under a reflection, of cards "
          "under one) | \"hand\" | **silent misses** |")
    print("|---|---|---|---|---|---|---|---|")
    for p, (name, levels) in enumerate(SWEEP.items()):
        steps = levels[-1:] if quick else levels
        for level in steps:
            t = Tally()
            for k in range(seqs):
                seed = SEED_SWEEP + 1000 * p + 10 * levels.index(level) + k
                seq = deal_sequence(seed, pushed(name, level), resolution="720p", cards=cards,
                                    deck_style=styles[k % len(styles)])
                t.add(read(seq, learnt[seq.deck_style], darker=darker, verbose=verbose))
            shown = DEALING[int(level)] if name == "background" else f"{level:g}"
            print(f"| {name} | {shown} | {t.cards} | {_pct(t.right, t.cards)} | {t.wrong} | {_pct(t.asked, t.cards)} "
                  f"({t.asked_glare} of {t.glared}) | {t.hand} | {t.missed} |", flush=True)
    print()


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    quick = "--quick" in argv or _env("QUICK", "0") == "1"
    styles = tuple(_env("STYLES", "fournier" if quick else ",".join(ALL_STYLES)).split(","))
    darker = _env("DARKER", "1") != "0"
    verbose = _env("VERBOSE", "0") == "1"
    cv2.setNumThreads(1)
    start = time.monotonic()
    learnt = models(styles)
    print(f"_decks learnt in {time.monotonic() - start:.0f} s_\n")
    if _env("SWEEP_ONLY", "0") != "1":
        run_mixed(quick, styles, learnt, darker, verbose)
    if _env("MIXED_ONLY", "0") != "1":
        run_sweep(quick, styles, learnt, darker, verbose)
    if _env("LEARN", "1") != "0":
        deck_learning.run(quick, styles)
    print(f"_{time.monotonic() - start:.0f} s in all_\n")


if __name__ == "__main__":
    main()
