"""The kiosk's three cues through the screen's speaker (HDMI or USB audio), for tables with
no GPIO buzzer: ``tick`` (a card read by the camera), ``chord`` (a hand saved), ``error``.

The cues are drawn by the kiosk itself (standard library: ``wave``, ``math``, ``struct``)
and written once as WAV files into the cache folder (``kiosk.paths.cache_dir()/sounds``),
whole or not at all (a temporary name, then ``os.replace``). ``SoundPlayer`` loads each
file once through Kivy's audio (SDL2 mixer) and replays it; playing never raises: with no
audio device (or no provider) it logs one line and stays silent.

Importing this module does not import Kivy; ``SoundPlayer.prepare()`` does.
"""

from __future__ import annotations

import io
import logging
import math
import struct
import wave
from collections.abc import Iterable
from pathlib import Path

from kiosk.files import write_whole

log = logging.getLogger("kiosk.ui.sound")

CUES = ("tick", "chord", "error")
RATE = 44100  # the SDL2 mixer's own rate in Kivy: no resampling
PEAK = 0.5  # of full scale (-6 dBFS) in the file
VOLUME = 0.7  # the mixer's volume for every cue (fixed; the room's level is the speaker's knob)
VERSION = 1  # in the file names: a change of the sounds writes new files


def _envelope(t: float, length: float, *, attack: float, release: float) -> float:
    """Soft start and end (no click at either edge)."""
    if t < attack:
        return t / attack
    if t > length - release:
        return max(0.0, (length - t) / release)
    return 1.0


def _tick() -> list[float]:
    """~40 ms: a short 2 kHz click with a hint of its octave, decaying fast."""
    length = 0.040
    out = []
    for i in range(int(RATE * length)):
        t = i / RATE
        tone = math.sin(2 * math.pi * 2000 * t) + 0.25 * math.sin(2 * math.pi * 4000 * t)
        out.append(tone * math.exp(-t / 0.010) * _envelope(t, length, attack=0.001, release=0.004))
    return out


def _chord() -> list[float]:
    """~320 ms: C major rising (C5, E5, G5, 60 ms apart), each note ringing to the end."""
    length = 0.320
    notes = ((523.25, 0.000), (659.26, 0.060), (783.99, 0.120))
    out = []
    for i in range(int(RATE * length)):
        t = i / RATE
        value = 0.0
        for frequency, start in notes:
            if t >= start:
                u = t - start
                ring = math.exp(-u / 0.180) * min(1.0, u / 0.004)
                value += ring * (math.sin(2 * math.pi * frequency * u)
                                 + 0.2 * math.sin(4 * math.pi * frequency * u))
        out.append(value * _envelope(t, length, attack=0.002, release=0.030))
    return out


def _error() -> list[float]:
    """~250 ms: a low buzz falling from 233 Hz to 175 Hz (a soft square: odd harmonics)."""
    length = 0.250
    out = []
    for i in range(int(RATE * length)):
        t = i / RATE
        frequency, start = (233.08, 0.0) if t < 0.120 else (174.61, 0.120)
        u = t - start
        tone = sum(math.sin(2 * math.pi * frequency * k * u) / k for k in (1, 3, 5, 7))
        gap = _envelope(u, 0.120 if start == 0.0 else length - start, attack=0.004, release=0.008)
        out.append(tone * gap)
    return out


_DRAW = {"tick": _tick, "chord": _chord, "error": _error}


def cue_samples(name: str) -> list[float]:
    """The cue ``name`` as mono samples in [-PEAK, PEAK] at ``RATE``."""
    samples = _DRAW[name]()
    top = max(abs(s) for s in samples) or 1.0
    return [s * PEAK / top for s in samples]


def write_wav(path: Path, samples: Iterable[float], *, rate: int = RATE) -> Path:
    """Write mono 16-bit PCM, whole or not at all: a temporary file in the same folder,
    then ``os.replace`` (a power cut or an error never leaves half a WAV under ``path``)."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)  # the folder is there even if drawing fails
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(b"".join(struct.pack("<h", int(max(-1.0, min(1.0, s)) * 32767)) for s in samples))
    return write_whole(path, buffer.getvalue())


def _readable(path: Path) -> bool:
    try:
        with wave.open(str(path), "rb") as w:
            return w.getnframes() > 0
    except (OSError, EOFError, wave.Error):
        return False


def cue_files(folder: Path) -> dict[str, Path]:
    """The three cue files in ``folder``: those already there are reused, the others
    (or an unreadable one) are drawn and written."""
    folder = Path(folder)
    files = {}
    for name in CUES:
        path = folder / f"{name}-v{VERSION}.wav"
        if not _readable(path):
            write_wav(path, cue_samples(name))
        files[name] = path
    return files


class SoundPlayer:
    """Plays the cues through Kivy's audio, on the UI thread (``tick()``, ``chord()``,
    ``error()`` like the GPIO buzzer). ``prepare()`` writes and loads the files (the first
    play does it if nobody did); a later play replays the loaded sound (a cue already
    sounding starts again). Never raises: without an audio device it logs once and is silent.
    """

    def __init__(self, folder: Path, *, volume: float = VOLUME) -> None:
        self.folder = Path(folder)
        self.volume = volume
        self._sounds: dict[str, object] = {}
        self._ready: bool | None = None  # None = not prepared yet

    @property
    def available(self) -> bool | None:
        """True: the cues can sound; False: silent (said once in the log); None: not tried."""
        return self._ready

    def write_files(self) -> dict[str, Path]:
        """Write the cue files if they are not there yet (standard library only, no Kivy:
        safe on a worker thread). ``prepare()`` then only reads them."""
        return cue_files(self.folder)

    def prepare(self) -> bool:
        """Write the files if needed and load each once (a few ms; the audio device opens on
        the first load). Returns whether the cues can sound."""
        if self._ready is not None:
            return self._ready
        try:
            files = cue_files(self.folder)
            from kivy.core.audio import SoundLoader
            for name in CUES:
                sound = SoundLoader.load(str(files[name]))
                # Kivy's SDL2 mixer gives an empty sound (length 0) when no audio device opened.
                if sound is None or not sound.length:
                    raise OSError(f"{files[name].name} could not be loaded (no audio device?)")
                sound.volume = self.volume
                self._sounds[name] = sound
        except Exception as exc:
            self._silence(exc)
            return False
        self._ready = True
        return True

    def play(self, name: str) -> None:
        if name not in CUES:
            log.warning("kiosk: no sound called %r", name)
            return
        if not self.prepare():
            return
        try:
            self._sounds[name].play()
        except Exception as exc:
            self._silence(exc)

    def tick(self) -> None:
        self.play("tick")

    def chord(self) -> None:
        self.play("chord")

    def error(self) -> None:
        self.play("error")

    def sound(self, name: str):
        """The cue's loaded Kivy ``Sound`` (events ``on_play`` / ``on_stop``), or None before
        ``prepare()`` and when silent."""
        return self._sounds.get(name)

    def playing(self, name: str) -> bool:
        """Whether the cue ``name`` is sounding now."""
        sound = self._sounds.get(name)
        return sound is not None and getattr(sound, "state", "stop") == "play"

    def close(self) -> None:
        """Stop and unload every cue (the player stays silent afterwards)."""
        sounds, self._sounds = self._sounds, {}
        self._ready = False
        for sound in sounds.values():
            try:
                sound.unload()
            except Exception:
                pass

    def _silence(self, exc: BaseException) -> None:
        if self._ready is not False:
            log.warning("kiosk: no sound from the speaker (%s); the kiosk carries on silently", exc)
        self._ready = False
        self._sounds = {}
