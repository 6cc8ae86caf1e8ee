"""Is this camera set-up good enough to read the stickers? Measured on the mat's corners.

From one frame and its read (``check_setup(gray, result)``), using the mat's four printed
corner markers (30 mm, black on white paper: known size, known sharp edges):

- **scale**: pixels per mm on the mat, hence how many pixels a card's marker (9.6 mm) gets;
- **sharpness**: the width of the markers' black-to-white edges (10 % to 90 % of the step,
  px), compared with the size of one cell of a card's marker. Defocus, motion and a soft
  lens all widen it;
- **glare**: stickers (read or not) with burnt-out highlights and too little contrast left
  to read (the light's reflection on a glossy card).

Each finding is a :class:`Finding` with a plain Catalan message for the camera screen and
``diag``. The limits come from what the reader reads on the realistic camera
(docs/vision.md): below ``MIN_MARKER_PX`` nothing reliable, below ``WEAK_MARKER_PX``
video frames miss cards (take stills, or lower the camera), edges wider than
``MAX_EDGE_CELLS`` cells smear the cells together.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.highlights import glare_patches, in_glare
from vision.kit import MAT_CODE_MM, STICKER_MM, marker_side_mm, mat_marker_corners_mm
from vision.result import ReadResult

MIN_MARKER_PX = 12.0  # under 1.5 px per cell the realistic camera loses cards even in stills
WEAK_MARKER_PX = 20.0  # 20 px and up: video frames read >= 99 % (docs/vision.md)
MAX_EDGE_CELLS = 1.3  # an edge wider than 1.3 cells of a card's marker: cells run together

NO_MAT, TOO_HIGH, TOO_WEAK, OUT_OF_FOCUS, GLARE, GOOD = (
    "no_mat", "too_high", "too_weak", "out_of_focus", "glare", "good")


@dataclass(frozen=True)
class Finding:
    """One thing the set-up check says; ``blocking``: cards cannot be read reliably."""
    kind: str
    message: str
    blocking: bool = False


@dataclass(frozen=True)
class SetupCheck:
    """What was measured (None where the mat was not seen) and what to tell the player.
    ``glare_squares``: corners of stickers in glare, for the preview to mark."""
    px_per_mm: float | None
    marker_px: float | None
    edge_px: float | None
    edge_cells: float | None
    findings: tuple[Finding, ...]
    glare_squares: tuple[np.ndarray, ...] = field(default=())

    @property
    def ok(self) -> bool:
        return not any(f.blocking for f in self.findings)

    @property
    def messages(self) -> list[str]:
        return [f.message for f in self.findings]

    def lines(self) -> list[str]:
        """For ``diag``: the measures, then the findings."""
        out = []
        if self.px_per_mm is not None:
            out.append(f"scale: {self.px_per_mm:.2f} px/mm (card markers {self.marker_px:.1f} px)")
        if self.edge_px is not None:
            out.append(f"edge width: {self.edge_px:.1f} px ({self.edge_cells:.2f} cells of a card marker)")
        return out + [f"{f.kind}: {f.message}" for f in self.findings]


def _mat_markers_px(result: ReadResult) -> list[np.ndarray]:
    if result.homography is None or result.mat_size is None:
        return []
    inv = np.linalg.inv(result.homography)
    return [cv2.perspectiveTransform(c.reshape(1, 4, 2).astype(np.float32), inv)[0]
            for c in mat_marker_corners_mm(result.mat_size).values()]


def _edge_width(gray: np.ndarray, quad: np.ndarray, samples: int = 5) -> list[float]:
    """10-90 % widths of the step across each side of a marker's outer edge (px), from
    profiles sampled at sub-pixel steps along the side's normal."""
    widths = []
    centre = quad.mean(axis=0)
    side = float(np.linalg.norm(quad[1] - quad[0]))
    half = max(4.0, side / 8 * 0.8)  # most of a cell either side: only this edge in the profile
    t = np.linspace(-half, half, 41, dtype=np.float32)
    for k in range(4):
        a, b = quad[k], quad[(k + 1) % 4]
        along = (b - a) / max(np.linalg.norm(b - a), 1e-6)
        normal = np.float32([along[1], -along[0]])
        if np.dot(normal, (a + b) / 2 - centre) < 0:
            normal = -normal  # pointing out of the marker: black to white
        for s in np.linspace(0.3, 0.7, samples):
            p = a + (b - a) * s
            xy = (p[None, :] + t[:, None] * normal[None, :]).astype(np.float32)
            prof = cv2.remap(gray, xy[:, 0].reshape(1, -1), xy[:, 1].reshape(1, -1), cv2.INTER_LINEAR)[0]
            prof = prof.astype(np.float32)
            lo, hi = float(np.percentile(prof[:8], 50)), float(np.percentile(prof[-8:], 50))
            if hi - lo < 30:
                continue  # no clean step here (a shadow, a card over the edge)
            norm = np.maximum.accumulate((prof - lo) / (hi - lo))
            i10, i90 = np.searchsorted(norm, 0.1), np.searchsorted(norm, 0.9)
            if 0 < i10 <= i90 < len(t):
                widths.append(float(t[min(i90, len(t) - 1)] - t[i10]))
    return widths


def glare_squares(image: np.ndarray, result: ReadResult) -> list[np.ndarray]:
    """Stickers (read or not) and patches of the mat in glare, as corner quads."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    quads = [q for q in [d.corners for d in result.detections] + list(result.unread) if in_glare(gray, q)]
    sides = [float(np.linalg.norm(d.corners[1] - d.corners[0])) for d in result.detections]
    marker_px = float(np.median(sides)) if sides else WEAK_MARKER_PX
    return quads + glare_patches(gray, result, 0.5 * marker_px)


def check_setup(gray: np.ndarray, result: ReadResult, *, sticker_mm: float = STICKER_MM,
                video: bool = True) -> SetupCheck:
    """Measure the set-up on one frame (grey, the image ``result`` was read from).
    ``video``: the frame is from the live video (a still of the same set-up reads smaller
    markers, so "too weak" applies to video only)."""
    if gray.ndim == 3:
        gray = cv2.cvtColor(gray, cv2.COLOR_BGR2GRAY)
    findings: list[Finding] = []
    markers = _mat_markers_px(result)
    glare = tuple(q for q in [d.corners for d in result.detections] + list(result.unread)
                  if in_glare(gray, q))
    if not markers or not result.mat_found:
        findings.append(Finding(NO_MAT, "No es veuen les cantonades del tapet: poseu el tapet sencer "
                                        "a la vista de la càmera.", True))
        if glare:
            findings.append(Finding(GLARE, "Hi ha una carta amb reflex: moveu-la una mica o gireu el llum."))
        return SetupCheck(None, None, None, None, tuple(findings), glare)
    sides = [float(np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1).mean()) for q in markers]
    px_per_mm = float(np.median(sides)) / MAT_CODE_MM
    marker_px = px_per_mm * marker_side_mm(sticker_mm)
    cell_px = marker_px / 8
    glare = glare + tuple(glare_patches(gray, result, 0.5 * marker_px))
    widths = [w for q in markers for w in _edge_width(gray, q)]
    edge_px = float(np.median(widths)) if widths else None
    edge_cells = edge_px / cell_px if edge_px is not None else None
    if marker_px < MIN_MARKER_PX:
        findings.append(Finding(TOO_HIGH, f"La càmera és massa alta: els codis fan {marker_px:.0f} px i en calen "
                                          f"{WEAK_MARKER_PX:.0f}. Baixeu-la.", True))
    elif video and marker_px < WEAK_MARKER_PX:
        findings.append(Finding(TOO_WEAK, f"Amb aquesta resolució els codis fan {marker_px:.0f} px: massa poc per "
                                          "llegir-los tots en vídeo. Es llegirà amb foto fixa; o baixeu la "
                                          "càmera."))
    if edge_cells is not None and edge_cells > MAX_EDGE_CELLS:
        findings.append(Finding(OUT_OF_FOCUS, "La imatge està desenfocada: enfoqueu la càmera (o no la moveu).",
                                True))
    if glare:
        findings.append(Finding(GLARE, "Hi ha una carta amb reflex: moveu-la una mica o gireu el llum."))
    if not findings:
        findings.append(Finding(GOOD, f"Muntatge correcte: codis de {marker_px:.0f} px, imatge nítida."))
    return SetupCheck(px_per_mm, marker_px, edge_px, edge_cells, tuple(findings), glare)


def probe_setup(spec: str = "auto", *, timeout_s: float = 5.0) -> dict[str, object]:
    """Open the camera of the ``camera.source`` setting, read one frame and check the set-up:
    ``diag``'s "camera set-up" section. The demo and file sources have no set-up to measure;
    a camera that is busy (the kiosk has it) or in fault says so."""
    from vision.reader import PileReader
    from vision.sources import DemoSource, FileSource, open_source

    source = open_source(spec)
    if isinstance(source, (DemoSource, FileSource)):
        return {"camera": f"{source.name}: no camera, no set-up to measure"}
    source.start()
    try:
        frame = source.latest(timeout_s)
        if frame is None:
            return {"camera": f"{source.name}: no frame in {timeout_s:g} s ({source.status}"
                              + (f": {source.error}" if source.error else "") + ")"}
        image = frame.gray if frame.gray is not None else frame.image
        check = check_setup(image, PileReader().read(image), video=True)
    finally:
        source.stop()
    return {"camera": source.name, "frame": f"{image.shape[1]}x{image.shape[0]}",
            "verdict": "ok" if check.ok else "NOT OK", "check": check.lines()}
