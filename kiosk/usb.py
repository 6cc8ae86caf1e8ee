"""USB sticks on a kiosk with no desktop: find one, mount it, let the caller write, then sync
and unmount it so that it is safe to pull out.

Only a removable block device counts as a stick: a disk whose ``/sys/block/NAME/removable``
is 1, or that hangs off the USB bus (its sysfs path goes through ``/usb``). A folder under
``/mnt`` or ``/media`` is never taken for one: on an appliance nothing mounts sticks there,
and elsewhere those folders are often something else.

Mounting: the service runs as the unprivileged user ``botifarra``, so it asks udisks2 over
D-Bus (``udisksctl``; deploy/polkit allows that user to mount, unmount and power off
removable drives without a desktop session). Run as root (e.g. ``sudo botifarra-kiosk``),
it mounts with ``mount(8)`` under ``/run/botifarra-kiosk/usb``. A stick a desktop already
mounted (under ``/media`` or ``/run/media``) is used where it is, and unmounted when done.
A removable disk mounted anywhere else is the system's (the kiosk's data partition may be on
a USB disk: docs/deploy.md) and is never offered, written or unmounted.

Example::

    with UsbSticks().opened() as folder:
        (folder / "match.json").write_text("{}")
    # here the stick is synced and unmounted: safe to pull
"""

from __future__ import annotations

import os
import re
import subprocess
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Protocol

# What a FAT/exFAT/NTFS/ext stick is formatted with; anything else (swap, LUKS, a bare
# disk with no file system) is not offered as a stick.
FILESYSTEMS = ("vfat", "exfat", "ntfs", "ntfs3", "ext2", "ext3", "ext4")
TIMEOUT_S = 60  # mounting a large stick or unmounting with much to flush takes seconds
# Where desktops and udisks2 mount sticks, and where SystemMounter does.
MEDIA_ROOTS = (Path("/media"), Path("/run/media"), Path("/run/botifarra-kiosk/usb"))


class StickError(OSError):
    """A stick was found but could not be mounted or unmounted."""


class NoStickFound(StickError):
    """No removable block device with a file system is plugged in."""


@dataclass(frozen=True)
class Stick:
    """One file system on a removable disk: ``device`` is ``/dev/sda1`` (or ``/dev/sda``
    for a stick formatted without a partition table), ``disk`` the disk's name (``sda``)."""

    device: Path
    disk: str
    fstype: str
    label: str


class Mounter(Protocol):
    def mount(self, stick: Stick) -> Path: ...

    def unmount(self, stick: Stick, folder: Path) -> None: ...


def _run(args: list[str]) -> str:
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise StickError(f"{args[0]}: {exc}") from exc
    if done.returncode != 0:
        raise StickError(f"{' '.join(args)}: {(done.stderr or done.stdout).strip()}")
    return done.stdout


class UdisksMounter:
    """Mounts through udisks2 (``udisksctl``), as the unprivileged service user may."""

    def mount(self, stick: Stick) -> Path:
        out = _run(["udisksctl", "mount", "--block-device", str(stick.device), "--no-user-interaction"])
        match = re.search(r" at (/.*?)\.?\s*$", out)
        if match is None:
            raise StickError(f"udisksctl said where it mounted {stick.device} in an unknown way: {out!r}")
        return Path(match.group(1))

    def unmount(self, stick: Stick, folder: Path) -> None:
        _run(["udisksctl", "unmount", "--block-device", str(stick.device), "--no-user-interaction"])
        # Switching the stick off (its light goes out) is a courtesy: some readers refuse.
        try:
            _run(["udisksctl", "power-off", "--block-device", f"/dev/{stick.disk}", "--no-user-interaction"])
        except StickError:
            pass


class SystemMounter:
    """Mounts with mount(8) under ``mount_root`` (needs root)."""

    def __init__(self, mount_root: Path = Path("/run/botifarra-kiosk/usb")) -> None:
        self.mount_root = Path(mount_root)

    def mount(self, stick: Stick) -> Path:
        folder = self.mount_root / (re.sub(r"[^A-Za-z0-9_-]+", "_", stick.label) or stick.device.name)
        folder.mkdir(parents=True, exist_ok=True)
        _run(["mount", "-t", stick.fstype, "-o", "noatime,nosuid,nodev,noexec", str(stick.device), str(folder)])
        return folder

    def unmount(self, stick: Stick, folder: Path) -> None:
        _run(["umount", str(folder)])
        if folder.parent == self.mount_root:
            try:
                folder.rmdir()
            except OSError:
                pass


def default_mounter() -> Mounter:
    return SystemMounter() if os.geteuid() == 0 else UdisksMounter()


def removable_disks(sys_root: Path = Path("/sys")) -> list[str]:
    """Names of the disks (``sda``) that are removable or on the USB bus, sorted."""
    found = []
    block = Path(sys_root) / "block"
    for disk in sorted(block.iterdir()) if block.is_dir() else ():
        try:
            removable = (disk / "removable").read_text().strip() == "1"
        except OSError:
            removable = False
        if removable or "/usb" in os.path.realpath(disk):
            found.append(disk.name)
    return found


def probe(device: Path) -> tuple[str, str] | None:
    """``(fstype, label)`` of the file system on ``device``, or None if it has none."""
    try:
        done = subprocess.run(["blkid", "-p", "-o", "export", str(device)], capture_output=True,
                              text=True, timeout=TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired):
        return None
    fields = dict(line.split("=", 1) for line in done.stdout.splitlines() if "=" in line)
    if done.returncode != 0 or fields.get("USAGE", "filesystem") != "filesystem" or "TYPE" not in fields:
        return None
    return fields["TYPE"], fields.get("LABEL", "")


def mount_point(device: Path, mountinfo: Path = Path("/proc/self/mountinfo")) -> Path | None:
    """Where ``device`` is mounted already (by a desktop, or a previous run), if it is."""
    real = os.path.realpath(device)
    try:
        lines = Path(mountinfo).read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        left, _sep, right = line.partition(" - ")
        fields, source = left.split(), right.split()
        if len(fields) > 4 and len(source) > 1 and os.path.realpath(source[1]) == real:
            return Path(fields[4].replace("\\040", " "))
    return None


class UsbSticks:
    """The USB sticks plugged into this machine.

    Args:
        sys_root: where sysfs is (``/sys``); the only place that decides what is removable.
        dev_root: where the device nodes are (``/dev``).
        mounter: how to mount (default: udisks2 as a user, mount(8) as root).
        mountinfo: the mount table, to find a stick already mounted.
        media_roots: where a mounted stick may be (a disk mounted elsewhere is the system's).
    Raises (from :meth:`opened`): :class:`NoStickFound`, :class:`StickError`.
    """

    def __init__(self, *, sys_root: Path = Path("/sys"), dev_root: Path = Path("/dev"),
                 mounter: Mounter | None = None,
                 mountinfo: Path = Path("/proc/self/mountinfo"),
                 media_roots: tuple[Path, ...] = MEDIA_ROOTS) -> None:
        self.sys_root = Path(sys_root)
        self.dev_root = Path(dev_root)
        self.mounter = mounter or default_mounter()
        self.mountinfo = Path(mountinfo)
        self.media_roots = tuple(Path(r) for r in media_roots)
        if isinstance(self.mounter, SystemMounter):
            self.media_roots += (self.mounter.mount_root,)

    def _is_media(self, folder: Path) -> bool:
        return any(folder == root or root in folder.parents for root in self.media_roots)

    def find(self) -> list[Stick]:
        """Every file system on a removable disk, disk by disk, partition by partition."""
        sticks = []
        for disk in removable_disks(self.sys_root):
            folder = self.sys_root / "block" / disk
            parts = sorted(p.name for p in folder.iterdir() if (p / "partition").exists())
            devices = [self.dev_root / name for name in parts or [disk]]
            if any((where := mount_point(d, self.mountinfo)) is not None and not self._is_media(where)
                   for d in devices):
                continue  # part of it is mounted as the system's: not a stick to write on
            for device in devices:
                found = probe(device)
                if found is not None and found[0] in FILESYSTEMS:
                    sticks.append(Stick(device, disk, *found))
        return sticks

    @contextmanager
    def opened(self) -> Iterator[Path]:
        """Mount the first stick found and give its folder; afterwards (also after an
        error in the caller) flush everything to it and unmount it: then it is safe to pull."""
        sticks = self.find()
        if not sticks:
            raise NoStickFound("no USB stick is plugged in")
        stick = sticks[0]
        folder = mount_point(stick.device, self.mountinfo) or self.mounter.mount(stick)
        try:
            yield folder
        finally:
            os.sync()
            self.mounter.unmount(stick, folder)
