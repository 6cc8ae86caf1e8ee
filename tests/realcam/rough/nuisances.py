"""What goes wrong at a real table while a pile is dealt (issue 21), each with its strength.

``realistic_nuisances(rng)`` draws every phenomenon at a random strength, harsher and more
varied than the issue's independent set; ``neat()`` is the project's old tidy table; ``pushed(name,
level)`` is the neat table with ONE phenomenon at ``level`` (the robustness sweep).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from tests.realcam.rough.surfaces import DEALING


@dataclass(frozen=True)
class Nuisances:
    """One dealing sequence's nuisances.

    Dealing: each card lands within ``offset_cm`` of the stack's centre (uniform over that
    disc) and turned up to ``rotation_deg`` either way from the dealer's line; ``either_way``:
    half the cards lie head down (turned 180 degrees more).
    Card shadows: each card, lifted a little at its edges, takes ``shadow`` of the light off
    the card below, 2-6 mm off its edge away from the lamp and blurred by ``shadow_softness_mm``
    (Gaussian sigma): a soft strip up to 2-3 sigma wide (the one in the air: further, softer).
    The lamp's reflection: its peak ``reflection`` (linear, 1 = a white card; times each
    surface's gloss: 0.6-1.3 on cards, 0.3 on the mat), ``reflection_sigma_mm`` wide, lying
    within ``reflection_near_mm`` of the pile; it moves up to ``reflection_move_mm`` (a swaying
    lamp, people leaning over) and its peak flickers by ``reflection_flicker`` (relative sd) from
    frame to frame.
    Light: analogue ``gain`` (noise: shot + read noise at that gain); ``jitter``: relative sd of
    exposure and of gain, each frame, plus rolling-shutter flicker bands of half that.
    ``at_once``: dealing starts at once, no empty frame. ``linger``: 0 none, 1 the dealer's hand
    reaches 120 mm into the view at the frame's edge while the cards lie still (it twitches a
    few mm). ``background``: what the pile is dealt on (:data:`surfaces.DEALING`).
    Camera: ``height_cm`` above the table, ``tilt_deg``.
    Timing, at 10 fps: each card in flight ``flight_frames`` (the range, motion-blurred, partly
    in the hand) and lying alone ``lying_frames``; 3 empty frames first unless ``at_once``.
    """

    offset_cm: float = 0.3
    rotation_deg: float = 3.0
    either_way: bool = False
    shadow: float = 0.05
    shadow_softness_mm: float = 2.0
    reflection: float = 0.2
    reflection_sigma_mm: float = 40.0
    reflection_near_mm: float = 150.0
    reflection_move_mm: float = 0.0
    reflection_flicker: float = 0.0
    gain: float = 2.0
    jitter: float = 0.0
    at_once: bool = False
    linger: float = 0.0
    background: str = "mat"
    height_cm: float = 57.0
    tilt_deg: float = 3.0
    flight_frames: tuple[int, int] = (0, 2)
    lying_frames: tuple[int, int] = (3, 7)
    empty_frames: int = 3

    def __post_init__(self) -> None:
        if self.background not in DEALING:
            raise ValueError(f"unknown background {self.background!r}: use one of {DEALING}")
        if self.lying_frames[0] < 1 or self.flight_frames[0] < 0:
            raise ValueError("a card lies still at least one frame; flight frames are 0 or more")


def neat(*, background: str = "mat", height_cm: float = 57.0) -> Nuisances:
    """The project's old tidy table: squared cards, no shadow to speak of, a faint still
    reflection, good light, the empty mat seen first, nobody's hand in view."""
    return Nuisances(background=background, height_cm=height_cm)


def realistic_nuisances(rng: np.random.Generator) -> Nuisances:
    """Every phenomenon at a random strength, at least as harsh as the issue's realistic set."""
    def some(p: float, lo: float, hi: float) -> float:
        return float(rng.uniform(lo, hi)) if rng.random() < p else 0.0

    return Nuisances(
        offset_cm=float(rng.uniform(0.5, 4.0)),
        rotation_deg=float(rng.uniform(3, 25)),
        either_way=bool(rng.random() < 0.75),
        shadow=float(rng.uniform(0.1, 0.6)),
        shadow_softness_mm=float(rng.uniform(1.0, 8.0)),
        reflection=some(0.85, 0.2, 1.6),
        reflection_sigma_mm=float(rng.uniform(15, 60)),
        reflection_near_mm=float(rng.uniform(20, 150)),
        reflection_move_mm=some(0.8, 3, 40),
        reflection_flicker=some(0.7, 0.03, 0.3),
        gain=float(np.exp(rng.uniform(0, np.log(8)))) if rng.random() < 0.5 else float(rng.uniform(4, 8)),
        jitter=float(rng.uniform(0.0, 0.06)),
        at_once=bool(rng.random() < 0.35),
        linger=some(0.5, 0.2, 1.0),
        background=DEALING[int(rng.integers(len(DEALING)))],
        height_cm=float(rng.uniform(50, 65)),
        tilt_deg=float(rng.uniform(0, 8)),
    )


# the sweep: each phenomenon alone, from nothing to past the worst (Nuisances field(s), levels)
SWEEP: dict[str, tuple[float, ...]] = {
    "offset_cm": (0.0, 1.0, 2.0, 3.0, 4.0, 5.0),
    "rotation_deg": (0.0, 5.0, 10.0, 15.0, 20.0, 30.0),
    "either_way": (0.0, 1.0),
    "shadow": (0.0, 0.15, 0.3, 0.45, 0.6, 0.8),
    "reflection": (0.0, 0.4, 0.8, 1.2, 1.6, 2.0),
    "reflection_move_mm": (0.0, 5.0, 10.0, 20.0, 40.0, 60.0),
    "gain": (1.0, 2.0, 4.0, 6.0, 8.0, 10.0),
    "jitter": (0.0, 0.02, 0.05, 0.08, 0.12, 0.15),
    "at_once": (0.0, 1.0),
    "linger": (0.0, 0.25, 0.5, 0.75, 1.0),
    "background": (0.0, 1.0, 2.0, 3.0),  # index into surfaces.DEALING
}


def pushed(name: str, level: float, *, height_cm: float = 57.0) -> Nuisances:
    """The neat table with only ``name`` (a key of :data:`SWEEP`) at ``level``. A moving
    reflection is a visible one (peak 1.0, flickering 0.2); a darker shadow is a softer one."""
    base = neat(height_cm=height_cm)
    if name not in SWEEP:
        raise ValueError(f"unknown phenomenon {name!r}: use one of {tuple(SWEEP)}")
    if name in ("either_way", "at_once"):
        return dataclasses.replace(base, **{name: bool(level)})
    if name == "background":
        return dataclasses.replace(base, background=DEALING[int(level)])
    if name == "reflection_move_mm":
        return dataclasses.replace(base, reflection=1.0, reflection_near_mm=40.0, reflection_move_mm=level,
                                   reflection_flicker=0.2 if level else 0.0)
    if name == "reflection":
        return dataclasses.replace(base, reflection=level, reflection_near_mm=30.0)
    if name == "shadow":  # darker and softer together: at 0.8 a strip of 2-3 cm beside the card
        return dataclasses.replace(base, shadow=level, shadow_softness_mm=2.0 + 8.0 * level)
    return dataclasses.replace(base, **{name: level})
