"""sd_notify over a real unix datagram socket (filesystem path and abstract namespace)."""

from __future__ import annotations

import os
import socket

import pytest

from hardware import watchdog


@pytest.fixture
def listener(tmp_path, monkeypatch):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = tmp_path / "notify"
    sock.bind(str(path))
    sock.settimeout(1)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    yield sock
    sock.close()


def test_messages_arrive_on_the_notify_socket(listener):
    assert watchdog.ready("ui up")
    assert listener.recv(4096) == b"READY=1\nSTATUS=ui up"
    assert watchdog.pet()
    assert listener.recv(4096) == b"WATCHDOG=1"
    assert watchdog.status("reading\ncards")
    assert listener.recv(4096) == b"STATUS=reading cards"
    assert watchdog.stopping()
    assert listener.recv(4096) == b"STOPPING=1"


def test_abstract_namespace_socket(monkeypatch):
    name = f"botifarra-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(b"\0" + name.encode())
        sock.settimeout(1)
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        assert watchdog.pet()
        assert sock.recv(100) == b"WATCHDOG=1"


def test_no_systemd_means_no_op(monkeypatch, tmp_path):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert watchdog.pet() is False and watchdog.ready() is False
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "gone"))  # socket vanished
    assert watchdog.pet() is False
    monkeypatch.setenv("NOTIFY_SOCKET", "vsock:2:1234")
    assert watchdog.pet() is False


def test_interval_is_half_the_watchdog_and_only_for_this_process():
    assert watchdog.interval({}) is None
    assert watchdog.interval({"WATCHDOG_USEC": "30000000"}) == 15.0
    assert watchdog.interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())}) == 15.0
    assert watchdog.interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}) is None
    assert watchdog.interval({"WATCHDOG_USEC": "soon"}) is None
    assert watchdog.interval({"WATCHDOG_USEC": "0"}) is None


def test_a_full_socket_queue_drops_the_pet_instead_of_blocking(listener):
    sent = [watchdog.pet() for _ in range(500)]   # nobody reads: the queue fills up
    assert sent[0] is True and sent[-1] is False  # ...and pet() returned every time
    assert listener.recv(100) == b"WATCHDOG=1"
