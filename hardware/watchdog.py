"""systemd notifications (``sd_notify``) with the standard library only.

Under systemd with ``Type=notify`` the service manager sets ``$NOTIFY_SOCKET`` (a unix
datagram socket; a leading ``@`` means the abstract namespace) and, with ``WatchdogSec=``,
``$WATCHDOG_USEC``. Outside systemd every function is a no-op returning False.

The kiosk pets the watchdog from its UI loop (Kivy's Clock), so a blocked UI stops the
pets and systemd restarts the kiosk (the match resumes from the journal)::

    every = watchdog.interval()          # half of WatchdogSec, or None
    if every:
        Clock.schedule_interval(lambda dt: watchdog.pet(), every)
    watchdog.ready()

Never raises and never blocks: a failed notification (no socket, a full queue) is logged
at debug level and reported as False.
"""

from __future__ import annotations

import logging
import os
import socket
from typing import Mapping

log = logging.getLogger("hardware.watchdog")


def _address(environ: Mapping[str, str]) -> str | bytes | None:
    path = environ.get("NOTIFY_SOCKET")
    if not path:
        return None
    if path.startswith("@"):
        return b"\0" + path[1:].encode()
    if path.startswith("/"):
        return path
    return None  # vsock: and other transports are not supported here


def notify(message: str, *, environ: Mapping[str, str] | None = None) -> bool:
    """Send one sd_notify datagram (``"READY=1"``, ``"WATCHDOG=1\\nSTATUS=..."``)."""
    environ = os.environ if environ is None else environ
    address = _address(environ)
    if address is None:
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            # Never block the UI loop: if the receiver's queue is full, this pet is dropped
            # (BlockingIOError) rather than freezing the kiosk until systemd reads.
            sock.sendto(message.encode("utf-8"), socket.MSG_DONTWAIT, address)
        return True
    except OSError as exc:
        log.debug("sd_notify %r failed: %s", message, exc)
        return False


def ready(status: str | None = None) -> bool:
    """The kiosk is up (the UI is showing): systemd considers the start complete."""
    return notify("READY=1" + (f"\nSTATUS={status}" if status else ""))


def status(text: str) -> bool:
    """A one-line status shown by ``systemctl status``."""
    return notify("STATUS=" + text.replace("\n", " "))


def pet() -> bool:
    """Tell systemd the UI loop is alive (``WATCHDOG=1``)."""
    return notify("WATCHDOG=1")


def stopping() -> bool:
    return notify("STOPPING=1")


def interval(environ: Mapping[str, str] | None = None) -> float | None:
    """Seconds between pets (half of ``WatchdogSec``), or None when no watchdog is set
    for this process."""
    environ = os.environ if environ is None else environ
    usec = environ.get("WATCHDOG_USEC")
    pid = environ.get("WATCHDOG_PID")
    if not usec:
        return None
    if pid and pid.strip() != str(os.getpid()):
        return None
    try:
        value = int(usec)
    except ValueError:
        return None
    if value <= 0:
        return None
    return value / 2 / 1_000_000
