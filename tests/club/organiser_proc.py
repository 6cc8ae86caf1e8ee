"""The organiser's app as a real process (``botifarra-club serve``) for the club tests."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

from tests.club.broker import ORGANISER_PASSWORD, ChildProcess, free_port


class Organiser(ChildProcess):
    stop_grace_s = 10.0

    def __init__(self, db: Path, broker_url: str, *, log: Path, token: str | None = None,
                 ca_file: Path | None = None) -> None:
        self.token = token
        self.ca_file = ca_file
        self.db = db
        self.broker_url = broker_url
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = log
        self.proc: subprocess.Popen | None = None

    def start(self) -> "Organiser":
        out = open(self.log, "ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "organiser.cli", "serve", "--broker", self.broker_url,
             "--db", str(self.db), "--http", f"127.0.0.1:{self.port}", "--password", ORGANISER_PASSWORD,
             *(["--admin-token", self.token] if self.token else []),
             *(["--ca-file", str(self.ca_file)] if self.ca_file else [])],
            stdout=out, stderr=subprocess.STDOUT)
        out.close()
        self.wait_ready(lambda: self.get("/api/tables"), what="organiser", within_s=20,
                        log_tail=lambda: self.log.read_text()[-1500:])
        return self

    def get(self, path: str):
        with urllib.request.urlopen(self.base + path, timeout=60) as r:
            return json.load(r)

    def post(self, path: str, body: dict, *, token: str | None = None):
        headers = {"Content-Type": "application/json"}
        token = token if token is not None else self.token
        if token:
            headers["Authorization"] = f"Bearer {token}"
        req = urllib.request.Request(self.base + path, data=json.dumps(body).encode(), headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return r.status, json.load(r)
        except urllib.error.HTTPError as exc:
            return exc.code, json.load(exc)
