"""Hardware figures: button latency through the debounce, hold accuracy, the cost of a
watchdog pet and of a buzzer call, and how long `diag` takes.

``python -m tests.bench.bench_hardware`` (or ``make bench``); prints a markdown table.
Measured with gpiozero's MockFactory: the hold timer is gpiozero's own (its hold thread);
the debounce is the pin driver's (``bounce_time``; on a Pi lgpio's kernel debounce, whose
delay is the bounce time itself), which mock pins do not apply.
"""
from __future__ import annotations

import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from gpiozero.pins.mock import MockFactory, MockPWMPin

from hardware import watchdog
from hardware.controls import TableControls

ROOT = Path(__file__).resolve().parents[2]


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def _us(seconds: float) -> str:
    return f"{seconds * 1e6:.0f} µs"


def press_latency(bounce_ms: float, presses: int = 40) -> list[float]:
    factory = MockFactory(pin_class=MockPWMPin)
    got = threading.Event()
    latencies = []
    with TableControls(pin_factory=factory, bounce_ms=bounce_ms) as controls:
        controls.when_scan = got.set
        pin = factory.pin(17)
        for _ in range(presses):
            got.clear()
            start = time.perf_counter()
            pin.drive_low()
            got.wait(2)
            latencies.append(time.perf_counter() - start)
            time.sleep(bounce_ms / 1000 + 0.02)
            pin.drive_high()
            time.sleep(bounce_ms / 1000 + 0.02)
    factory.close()
    return sorted(latencies)


def hold_error(hold: float = 0.5, trials: int = 5) -> list[float]:
    factory = MockFactory(pin_class=MockPWMPin)
    got = threading.Event()
    errors = []
    with TableControls(pin_factory=factory, hold_seconds=hold, bounce_ms=30) as controls:
        controls.when_settings = got.set
        pin = factory.pin(22)
        for _ in range(trials):
            got.clear()
            start = time.perf_counter()
            pin.drive_low()
            got.wait(hold + 2)
            errors.append(time.perf_counter() - start - hold)
            pin.drive_high()
            time.sleep(0.1)
    factory.close()
    return sorted(errors)


def pet_cost(n: int = 2000) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "notify")
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(path)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
        old = os.environ.get("NOTIFY_SOCKET")
        os.environ["NOTIFY_SOCKET"] = path
        try:
            times = []
            for i in range(n):
                t = time.perf_counter()
                watchdog.pet()
                times.append(time.perf_counter() - t)
                if i % 5 == 0:  # keep the receive queue (10 datagrams) from filling
                    sock.setblocking(False)
                    try:
                        while True:
                            sock.recv(64)
                    except BlockingIOError:
                        pass
        finally:
            sock.close()
            if old is None:
                os.environ.pop("NOTIFY_SOCKET", None)
            else:
                os.environ["NOTIFY_SOCKET"] = old
    return statistics.median(times)


def main() -> None:
    rows = []
    for bounce in (0, 30):
        lat = press_latency(bounce)
        rows.append((f"SCAN press → when_scan, bounce_ms={bounce}, median",
                     _ms(statistics.median(lat))))
        rows.append((f"SCAN press → when_scan, bounce_ms={bounce}, slowest", _ms(lat[-1])))
    err = hold_error()
    rows.append(("UNDO hold → when_settings, lateness vs hold_seconds (median)",
                 _ms(statistics.median(err))))

    factory = MockFactory(pin_class=MockPWMPin)
    t = time.perf_counter()
    controls = TableControls(pin_factory=factory)
    built = time.perf_counter() - t
    t = time.perf_counter()
    for _ in range(100):
        controls.buzzer.tick()
    tick_call = (time.perf_counter() - t) / 100
    t = time.perf_counter()
    controls.close()
    closed = time.perf_counter() - t
    factory.close()
    rows += [("TableControls() with every part (mock pins)", _ms(built)),
             ("buzzer.tick() call (returns at once)", _us(tick_call)),
             ("TableControls.close()", _ms(closed)),
             ("watchdog.pet() (one sd_notify datagram), median", _us(pet_cost()))]

    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "kiosk", "diag"], cwd=ROOT, capture_output=True,
                   timeout=120, env=dict(os.environ, BOTIFARRA_DATA_DIR=tempfile.gettempdir()))
    rows.append(("botifarra-kiosk diag, whole report", _ms(time.perf_counter() - t)))

    print("| hardware | figure |")
    print("|---|---|")
    for name, value in rows:
        print(f"| {name} | {value} |")


if __name__ == "__main__":
    main()
