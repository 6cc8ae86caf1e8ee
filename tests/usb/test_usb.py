"""A real stick (a file system image on a loop device): found only as a removable disk,
mounted for the export, written, synced and unmounted; then the files are on it."""

from __future__ import annotations

import json
import subprocess

import pytest

from kiosk.game import score_match_json
from kiosk.journal import Journal
from kiosk.ui import i18n
from kiosk.ui.viewmodels.history import HistoryViewModel
from kiosk.ui.viewmodels.stickexport import NoStick
from kiosk.usb import NoStickFound, Stick, UsbSticks, mount_point
from tests.usb.stick import FILESYSTEMS, loop_stick

pytestmark = pytest.mark.parametrize("fs", FILESYSTEMS)


@pytest.fixture
def journal(tmp_path):
    j = Journal(tmp_path / "journal.sqlite")
    yield j
    j.close()


@pytest.fixture(autouse=True)
def english():
    i18n.set_language("en")


def _match(journal, points=72):
    mid = journal.create_match({"type": "match_created", "rules": {"preset": "reglament"},
                                "first_dealer": 0, "players": [None] * 4,
                                "team_names": {"A": "Nosaltres", "B": "Vosaltres"}})
    journal.append(mid, {"type": "trump", "seat": 0, "trump": "oros"})
    journal.append(mid, {"type": "play"})
    journal.append(mid, {"type": "hand_scored", "points": {"A": points}, "source": "points", "evidence": None})
    return mid


def test_a_removable_disk_with_a_file_system_is_a_stick(tmp_path, fs):
    with loop_stick(tmp_path, fs=fs, label="TAULA7") as stick:
        assert stick.usb.find() == [Stick(stick.device, stick.device.name, fs, "TAULA7")]


def test_a_disk_that_is_not_removable_is_not_a_stick(tmp_path, fs):
    (tmp_path / "mnt" / "backup").mkdir(parents=True)  # a writable folder is never a stick
    with loop_stick(tmp_path, fs=fs, removable=False) as stick:
        assert stick.usb.find() == []
        with pytest.raises(NoStickFound):
            with stick.usb.opened():
                pass
        assert not stick.is_mounted()


def test_opened_mounts_then_syncs_and_unmounts(tmp_path, fs):
    with loop_stick(tmp_path, fs=fs) as stick:
        with stick.usb.opened() as folder:
            assert stick.is_mounted() and mount_point(stick.device) == folder
            (folder / "hello.txt").write_text("hola")
        assert not stick.is_mounted()
        assert stick.files()["hello.txt"] == b"hola"


def test_a_stick_mounted_already_is_used_where_it_is_and_unmounted(tmp_path, fs):
    with loop_stick(tmp_path, fs=fs) as stick:
        elsewhere = tmp_path / "media" / "pi" / "STICK"
        elsewhere.mkdir(parents=True)
        subprocess.run(["mount", str(stick.device), str(elsewhere)], check=True, timeout=60)
        with stick.usb.opened() as folder:
            assert folder == elsewhere
            (folder / "a.txt").write_text("a")
        assert not stick.is_mounted()
        assert stick.files()["a.txt"] == b"a"


def test_a_removable_disk_mounted_as_the_systems_is_never_a_stick(tmp_path, fs):
    """The kiosk's data partition on a USB disk (docs/deploy.md): not written, not unmounted."""
    with loop_stick(tmp_path, fs=fs) as stick:
        data = tmp_path / "var" / "lib" / "botifarra-kiosk"
        data.mkdir(parents=True)
        subprocess.run(["mount", str(stick.device), str(data)], check=True, timeout=60)
        try:
            assert stick.usb.find() == []
            with pytest.raises(NoStickFound):
                with stick.usb.opened():
                    pass
            assert mount_point(stick.device) == data
        finally:
            subprocess.run(["umount", str(data)], check=True, timeout=60)


def test_the_export_writes_both_files_unmounts_and_says_it_is_safe(tmp_path, fs, journal):
    mid = _match(journal)
    with loop_stick(tmp_path, fs=fs) as stick:
        vm = HistoryViewModel(journal, usb=stick.usb)
        vm.reload()
        result = vm.sticks.export(vm.export_payload(mid))
        assert result.safe_to_pull and not stick.is_mounted()
        files = stick.files()
        assert sorted(files) == sorted([result.json_path.name, result.pdf_path.name])
        assert score_match_json(json.loads(files[result.json_path.name]))["totals"] == journal.load(mid).totals
        assert files[result.pdf_path.name].startswith(b"%PDF")
        # and once the stick is pulled out, the next export says so
        stick.pull()
        with pytest.raises(NoStick) as info:
            vm.sticks.export(vm.export_payload(mid))
        assert str(info.value) == "No USB stick found. Plug one in and try again."


def test_exporting_many_mounts_once_and_says_when_to_pull(tmp_path, fs, journal):
    mids = [_match(journal, points) for points in (40, 50, 60)]
    with loop_stick(tmp_path, fs=fs) as stick:
        vm = HistoryViewModel(journal, usb=stick.usb)
        vm.reload()
        result = vm.sticks.export_many([vm.export_payload(mid) for mid in mids])
        assert result.problem is None and len(result.written) == 3 and result.safe_to_pull
        assert not stick.is_mounted() and len(stick.files()) == 6
        assert vm.sticks.many_message(result) == (
            "3 matches saved on the USB stick. You can take the USB stick out now.", True)


def test_a_full_stick_is_unmounted_too_and_leaves_no_half_file(tmp_path, fs, journal):
    mid = _match(journal)
    with loop_stick(tmp_path, fs=fs, size_mb=8 if fs == "ext4" else 1) as stick:
        with stick.usb.opened() as folder:  # fill it up, leaving too little for a sheet
            with open(folder / "filler.bin", "wb") as fh:
                try:
                    for _block in range(100_000):  # at most 6 GB: the image is far smaller
                        fh.write(b"\0" * 65536)
                        fh.flush()
                except OSError:
                    pass
        vm = HistoryViewModel(journal, usb=stick.usb)
        vm.reload()
        with pytest.raises(Exception) as info:
            vm.sticks.export(vm.export_payload(mid))
        assert "full" in str(info.value)
        assert not stick.is_mounted()
        assert sorted(stick.files()) == ["filler.bin"]


def test_without_sysfs_entries_there_is_no_stick(tmp_path, fs):
    assert UsbSticks(sys_root=tmp_path / "sys").find() == []
