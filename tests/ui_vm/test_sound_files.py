"""The speaker's cues as files: drawn by the kiosk, written once as WAV (whole or nothing),
read back with the standard library's ``wave``; no Kivy here."""

from __future__ import annotations

import os
import struct
import wave

import numpy as np
import pytest

from kiosk.ui import sound
from kiosk.ui.sound import CUES, PEAK, RATE, cue_files, write_wav

# name: (shortest, longest) in seconds
LENGTHS = {"tick": (0.030, 0.060), "chord": (0.250, 0.400), "error": (0.200, 0.300)}


def samples_of(path) -> tuple[wave._wave_params, np.ndarray]:
    with wave.open(str(path), "rb") as w:
        params = w.getparams()
        frames = w.readframes(w.getnframes())
    data = np.array(struct.unpack(f"<{len(frames) // 2}h", frames), dtype=float) / 32767
    return params, data


def main_frequency(data: np.ndarray, rate: int) -> float:
    spectrum = np.abs(np.fft.rfft(data * np.hanning(len(data)), n=1 << 16))
    return float(np.argmax(spectrum) * rate / (1 << 16))


def test_the_three_cues_are_valid_wavs_of_the_right_length_and_pitch(tmp_path):
    files = cue_files(tmp_path / "sounds")
    assert sorted(files) == sorted(CUES)
    pitch = {}
    for name, path in files.items():
        params, data = samples_of(path)
        assert (params.nchannels, params.sampwidth, params.framerate) == (1, 2, RATE)
        low, high = LENGTHS[name]
        assert low <= params.nframes / params.framerate <= high, name
        assert 0.8 * PEAK <= np.abs(data).max() <= PEAK + 1e-3, name  # -6 dBFS, no clipping
        assert np.abs(data[:3]).max() < 0.1 and np.abs(data[-3:]).max() < 0.02, name  # no click
        pitch[name] = main_frequency(data, params.framerate)
    assert 1900 <= pitch["tick"] <= 2100             # a click around 2 kHz
    assert 500 <= pitch["chord"] <= 800              # C5 E5 G5
    assert pitch["error"] < 300                      # a low buzz
    assert [p.name for p in (tmp_path / "sounds").iterdir() if p.suffix != ".wav"] == []


def test_cue_files_are_written_once_and_reused(tmp_path):
    folder = tmp_path / "sounds"
    first = cue_files(folder)
    before = {name: (p.stat().st_ino, p.stat().st_mtime_ns) for name, p in first.items()}
    again = cue_files(folder)
    assert again == first
    assert {name: (p.stat().st_ino, p.stat().st_mtime_ns) for name, p in again.items()} == before
    # a file already there is used as it is, even one the kiosk would not have drawn
    custom = write_wav(first["tick"], [0.1, -0.1] * 100)
    cue_files(folder)
    assert samples_of(custom)[0].nframes == 200


def test_a_damaged_cue_file_is_drawn_again(tmp_path):
    folder = tmp_path / "sounds"
    files = cue_files(folder)
    files["chord"].write_bytes(b"RIFF....not a wave")
    files["error"].write_bytes(b"")
    cue_files(folder)
    assert samples_of(files["chord"])[0].nframes > 0 and samples_of(files["error"])[0].nframes > 0


def test_writing_a_wav_is_whole_or_nothing(tmp_path):
    def broken():
        yield from [0.2] * 1000
        raise RuntimeError("the drawing failed half way")

    path = tmp_path / "sounds" / "tick-v1.wav"
    with pytest.raises(RuntimeError):
        write_wav(path, broken())
    assert not path.exists() and list(path.parent.iterdir()) == []  # no half file, no temporary

    write_wav(path, [0.3] * 500)
    with pytest.raises(RuntimeError):
        write_wav(path, broken())
    assert samples_of(path)[0].nframes == 500  # the good file is still whole
    assert list(path.parent.iterdir()) == [path]


def test_samples_are_clamped_to_full_scale(tmp_path):
    path = write_wav(tmp_path / "loud.wav", [2.0, -2.0, 0.0])
    _, data = samples_of(path)
    assert data.tolist() == pytest.approx([1.0, -1.0, 0.0], abs=1e-4)


def test_the_file_names_carry_the_drawings_version(tmp_path):
    files = cue_files(tmp_path)
    assert {p.name for p in files.values()} == {f"{n}-v{sound.VERSION}.wav" for n in CUES}
    assert all(os.path.getsize(p) > 44 for p in files.values())
