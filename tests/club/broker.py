"""A real Mosquitto for the club tests: the shipped deploy/mosquitto config and ACL, a
password file made with mosquitto_passwd, a temporary persistence folder and a free
loopback port. ``kill()`` is SIGKILL (no chance to save), ``start()`` brings it back on
the same port with the same store."""

from __future__ import annotations

import getpass
import os
import re
import signal
import socket
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy" / "mosquitto"
ORGANISER_PASSWORD = "org-pw"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def table_password(table: str) -> str:
    return f"pw-{table}"


def make_certificates(folder: Path) -> tuple[Path, Path, Path]:
    """A small CA of the test's own and a server certificate it signed for localhost and
    127.0.0.1, made by openssl (Debian's; `make test` installs it): (ca, cert, key)."""
    folder.mkdir(parents=True, exist_ok=True)
    ca, ca_key, cert, key = (folder / n for n in ("ca.crt", "ca.key", "server.crt", "server.key"))
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    run = lambda *args: subprocess.run(["openssl", *args], check=True, capture_output=True)  # noqa: E731
    run("req", "-x509", *ec, "-keyout", str(ca_key), "-out", str(ca), "-days", "2", "-subj", "/CN=Botifarra test CA")
    run("req", *ec, "-keyout", str(key), "-out", str(folder / "server.csr"), "-subj", "/CN=localhost")
    (folder / "san.ext").write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\n")
    run("x509", "-req", "-in", str(folder / "server.csr"), "-CA", str(ca), "-CAkey", str(ca_key),
        "-CAcreateserial", "-out", str(cert), "-days", "2", "-extfile", str(folder / "san.ext"))
    return ca, cert, key


class ChildProcess:
    """A real process a test starts, waits for, kills (SIGKILL, like a power cut) or stops."""

    proc: subprocess.Popen | None = None
    stop_grace_s = 5.0

    def wait_ready(self, ready, *, what: str, within_s: float, log_tail) -> None:
        """Until ``ready()`` stops raising OSError; a process that exits says its log's tail."""
        deadline = time.monotonic() + within_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{what} exited: " + log_tail())
            try:
                ready()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"{what} did not answer within {within_s:g} s")

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=self.stop_grace_s)
            except subprocess.TimeoutExpired:
                self.kill()


class Broker(ChildProcess):
    """``tls=True`` adds the mqtts listener docs/club.md describes, on ``tls_port``, with a
    certificate of ``ca_file``'s CA (the plain listener stays, as on a bar's network)."""

    def __init__(self, workdir: Path, tables: list[str], *, tls: bool = False) -> None:
        self.dir = Path(workdir)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.url = f"mqtt://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None
        self.ca_file: Path | None = None
        self.tls_port: int | None = None
        passwd = self.dir / "passwd"
        passwd.write_text("")
        subprocess.run(["mosquitto_passwd", "-b", str(passwd), "organiser", ORGANISER_PASSWORD], check=True)
        # one call per user is slow (each hashes with many rounds): write the lines in one go
        for table in tables:
            subprocess.run(["mosquitto_passwd", "-b", str(passwd), table, table_password(table)], check=True)
        (self.dir / "acl").write_text((DEPLOY / "acl").read_text())
        conf = (DEPLOY / "botifarra.conf").read_text()
        conf = re.sub(r"(?m)^listener 1883$", f"listener {self.port} 127.0.0.1", conf)
        conf = conf.replace("/etc/mosquitto/botifarra/passwd", str(passwd))
        conf = conf.replace("/etc/mosquitto/botifarra/acl", str(self.dir / "acl"))
        (self.dir / "store").mkdir(exist_ok=True)
        conf += f"\npersistence true\npersistence_location {self.dir / 'store'}/\n"
        if tls:
            self.ca_file, cert, key = make_certificates(self.dir / "certs")
            self.tls_port = free_port()
            self.tls_url = f"mqtts://localhost:{self.tls_port}"
            conf += (f"\nlistener {self.tls_port} 127.0.0.1\ncafile {self.ca_file}\ncertfile {cert}\n"
                     f"keyfile {key}\n")
        if os.geteuid() == 0:  # as root mosquitto would switch to the 'mosquitto' user
            conf += f"user {getpass.getuser()}\n"
        (self.dir / "mosquitto.conf").write_text(conf)

    def start(self) -> "Broker":
        log = open(self.dir / "mosquitto.log", "ab")
        self.proc = subprocess.Popen(["mosquitto", "-c", str(self.dir / "mosquitto.conf")],
                                     stdout=log, stderr=subprocess.STDOUT)
        log.close()
        self.wait_ready(lambda: socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close(),
                        what="mosquitto", within_s=10,
                        log_tail=lambda: (self.dir / "mosquitto.log").read_text()[-800:])
        return self
