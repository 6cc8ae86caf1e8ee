"""Harder naming sets for the ordinary-deck classifier (issue 21, Round 5), at the TRUE outline
as in :mod:`tests.bench.deck_naming` (whose tally and table this uses).

What the rough camera (``tests.realcam.rough``) does not push far enough is added on the
delivered frame (:class:`Camera`): a defocused lens, the camera or the table shaken during the
exposure (motion blur along a line), a second harsher JPEG, and an outline a few millimetres
off (the tracker's outline is not the truth). The rough camera's own phenomena are pushed
further too: gain up to 16, the lamp's reflection up to 3.0 and narrow (a partial glare on the
card), any turn, a camera tilted up to 25 degrees, and a camera up to 120 cm above the table
(720p: about 1 px/mm at 100 cm, a card 61 x 95 px).

``python -m tests.bench.deck_naming_hard [hard|sweep|all|NAME]``:

- ``hard``: 16 sequences of 12 cards, every phenomenon at a random strength together, 720p
  (three in four) and 1080p, both deck styles;
- ``sweep``: each phenomenon alone (the rest neat, 720p at 57 cm) pushed step by step to its
  extreme, 12 cards a step (6 of each style), so the step where naming breaks is visible;
  NAME: only the steps of that phenomenon.

Every table row counts wrong namings; "closest wrong lead" is the largest margin by which a
WRONG best card led its runner-up in a refused naming (how near a wrong name came; below the
classifier's margins it is refused).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import cv2
import numpy as np

from tests.bench.deck_naming import HEAD, STYLES, Tally, row, run_sequence, start
from tests.realcam.rough.dealing import DealSequence, deal_sequence
from tests.realcam.rough.nuisances import Nuisances, neat, realistic_nuisances


@dataclass(frozen=True)
class Camera:
    """What the delivered frame goes through on top of the rough camera."""

    defocus_px: float = 0.0  # Gaussian sigma, delivered pixels
    motion_px: float = 0.0  # a straight smear this long...
    motion_deg: float = 0.0  # ...in this direction
    jpeg: int = 0  # a second JPEG at this quality (0: none)
    outline_mm: float = 0.0  # each corner of the outline off by up to this (uniform in a disc)


def degrade(image: np.ndarray, cam: Camera) -> np.ndarray:
    out = image
    if cam.defocus_px > 0.3:
        out = cv2.GaussianBlur(out, (0, 0), cam.defocus_px)
    if cam.motion_px >= 1.5:
        n = int(np.ceil(cam.motion_px)) | 1
        k = np.zeros((n, n), np.float32)
        c = n // 2
        d = np.array([np.cos(np.radians(cam.motion_deg)), np.sin(np.radians(cam.motion_deg))]) * cam.motion_px / 2
        cv2.line(k, (int(round(c - d[0])), int(round(c - d[1]))), (int(round(c + d[0])), int(round(c + d[1]))), 1.0, 1,
                 cv2.LINE_AA)
        out = cv2.filter2D(out, -1, k / k.sum())
    if cam.jpeg:
        ok, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, cam.jpeg])
        out = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    return out


def _outline(seq: DealSequence, cam: Camera):
    if cam.outline_mm <= 0:
        return None
    ppm = seq._plan.pxmm  # noqa: SLF001 (the camera's scale, for millimetres in pixels)

    def moved(quad: np.ndarray, n: int) -> np.ndarray:
        rng = np.random.default_rng([seq.seed, 77, n])
        r = cam.outline_mm * ppm * np.sqrt(rng.random(4))
        a = rng.uniform(0, 2 * np.pi, 4)
        return (quad + np.stack([r * np.cos(a), r * np.sin(a)], axis=1)).astype(np.float32)
    return moved


def hard_case(seed: int) -> tuple[Nuisances, Camera, str, str]:
    """Every phenomenon at a random strength, harsher than ``realistic_nuisances``."""
    rng = np.random.default_rng([seed, 5])
    nu = realistic_nuisances(rng)

    def some(p: float, lo: float, hi: float) -> float:
        return float(rng.uniform(lo, hi)) if rng.random() < p else 0.0

    res = "1080p" if rng.random() < 0.25 else "720p"
    nu = dataclasses.replace(
        nu, height_cm=float(rng.uniform(50, 100)), tilt_deg=float(rng.uniform(0, 20)),
        rotation_deg=float(rng.uniform(0, 90)), gain=float(np.exp(rng.uniform(0, np.log(12)))),
        reflection=some(0.85, 0.2, 2.5), reflection_sigma_mm=float(rng.uniform(10, 60)),
        reflection_near_mm=float(rng.uniform(0, 80)))
    cam = Camera(defocus_px=some(0.6, 0.3, 2.0), motion_px=some(0.5, 1.5, 8.0), motion_deg=float(rng.uniform(0, 180)),
                 jpeg=int(rng.integers(35, 90)) if rng.random() < 0.6 else 0, outline_mm=float(rng.uniform(0, 2.5)))
    return nu, cam, res, STYLES[seed % 2]


# each phenomenon alone, up to past what a table gives (Nuisances or Camera field, levels)
SWEEP: dict[str, tuple[float, ...]] = {
    "defocus_px": (0.0, 1.0, 2.0, 3.0, 4.0),
    "motion_px": (0.0, 4.0, 8.0, 12.0, 16.0),
    "jpeg": (90.0, 50.0, 30.0, 20.0, 10.0),
    "outline_mm": (0.0, 1.0, 2.0, 3.0, 4.0),
    "gain": (1.0, 4.0, 8.0, 12.0, 16.0),
    "reflection": (0.0, 0.8, 1.2, 1.6, 2.0, 3.0),
    "rotation_deg": (0.0, 45.0, 90.0),
    "tilt_deg": (0.0, 10.0, 15.0, 20.0, 25.0),
    "height_cm": (50.0, 65.0, 80.0, 100.0, 120.0),
}


def pushed_case(name: str, level: float) -> tuple[Nuisances, Camera]:
    nu, cam = neat(), Camera()
    if name in {f.name for f in dataclasses.fields(Camera)}:
        return nu, dataclasses.replace(cam, **{name: int(level) if name == "jpeg" else level},
                                       motion_deg=30.0 if name == "motion_px" else 0.0)
    if name == "reflection":  # on the card, narrow: a partial glare
        return dataclasses.replace(nu, reflection=level, reflection_near_mm=15.0, reflection_sigma_mm=20.0), cam
    return dataclasses.replace(nu, **{name: level}), cam


def _run(seqs: list[tuple[DealSequence, Camera]], learnt: dict, verbose: bool) -> Tally:
    t = Tally()
    for seq, cam in seqs:
        run_sequence(seq, learnt[seq.deck_style], t, verbose, post=lambda im, c=cam: degrade(im, c),
                     outline=_outline(seq, cam))
    return t


def main(argv: list[str] | None = None) -> None:
    which, verbose, learnt = start(argv)
    print(HEAD, flush=True)
    everything = Tally()
    if which in ("hard", "all"):
        seqs = []
        for k in range(16):
            nu, cam, res, style = hard_case(33_000 + k)
            seqs.append((deal_sequence(33_000 + k, nu, resolution=res, cards=12, deck_style=style), cam))
        t = _run(seqs, learnt, verbose)
        print(row("hard, everything at random (33000-33015)", t), flush=True)
        everything.add(t)
    for name, levels in SWEEP.items():
        if which not in ("sweep", "all", name):
            continue
        for level in levels:
            nu, cam = pushed_case(name, level)
            seqs = [(deal_sequence(34_000 + 10 * k + int(level), nu, resolution="720p", cards=6,
                                   deck_style=STYLES[k]), cam) for k in range(2)]
            t = _run(seqs, learnt, verbose)
            print(row(f"{name} {level:g}", t), flush=True)
            everything.add(t)
    print(row("**all**", everything))


if __name__ == "__main__":
    main()
