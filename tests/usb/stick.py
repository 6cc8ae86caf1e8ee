"""A real USB stick for tests: a file system image on a loop device (needs root, as CI is).

The kernel mounts, writes and unmounts it for real. Only the question "is this disk
removable?" is answered by a sysfs tree drawn in a temporary folder, where the loop device
appears as a removable disk (a loop device's own sysfs says removable=0, which is right).

FAT is what sticks come formatted with; a kernel without vfat (some containers) gets an
ext4 image instead, and :data:`FILESYSTEMS` says which ones this kernel can do.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from kiosk.usb import SystemMounter, UsbSticks


def kernel_filesystems() -> set[str]:
    return {line.split()[-1] for line in Path("/proc/filesystems").read_text().splitlines() if line.strip()}


FILESYSTEMS = [fs for fs in ("vfat", "ext4") if fs in kernel_filesystems()]
MKFS = {"vfat": ["mkfs.vfat", "-n"], "ext4": ["mkfs.ext4", "-q", "-L"]}


def _run(*args: str) -> str:
    return subprocess.run(args, check=True, capture_output=True, text=True, timeout=60).stdout


@dataclass
class LoopStick:
    image: Path
    device: Path
    sys_root: Path
    usb: UsbSticks
    mount_root: Path

    def files(self) -> dict[str, bytes]:
        """What is on the stick, read by mounting it again (read-only) after the export."""
        folder = self.mount_root.parent / "check"
        folder.mkdir(parents=True, exist_ok=True)
        _run("mount", "-o", "ro", str(self.device), str(folder))
        try:
            return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
        finally:
            _run("umount", str(folder))

    def is_mounted(self) -> bool:
        real = os.path.realpath(self.device)
        return any(line.split()[0] == real for line in Path("/proc/mounts").read_text().splitlines())

    def pull(self) -> None:
        """The stick is taken out: the kernel forgets the disk."""
        shutil.rmtree(self.sys_root / "block" / self.device.name)


@contextmanager
def loop_stick(tmp_path: Path, *, fs: str = "vfat", label: str = "STICK", size_mb: int = 16,
               removable: bool = True) -> Iterator[LoopStick]:
    assert os.geteuid() == 0, "a loop-device stick needs root (CI runs as root)"
    image = tmp_path / "stick.img"
    with open(image, "wb") as fh:
        fh.truncate(size_mb << 20)
    _run(*MKFS[fs], label, str(image))
    device = Path(_run("losetup", "--find", "--show", str(image)).strip())
    try:
        sys_root = tmp_path / "sys"
        disk = sys_root / "block" / device.name
        disk.mkdir(parents=True)
        (disk / "removable").write_text("1\n" if removable else "0\n")
        mount_root = tmp_path / "run" / "usb"
        usb = UsbSticks(sys_root=sys_root, mounter=SystemMounter(mount_root),
                        media_roots=(tmp_path / "media",))
        yield LoopStick(image, device, sys_root, usb, mount_root)
    finally:
        for line in Path("/proc/mounts").read_text().splitlines():
            if line.split()[0] == str(device):
                subprocess.run(["umount", line.split()[1]], timeout=60)
        subprocess.run(["losetup", "--detach", str(device)], timeout=60)
