"""The organiser's install role and the password generator."""

from __future__ import annotations

import subprocess
import threading

import paho.mqtt.client as mqtt

from tests.club.broker import ROOT


def test_install_organiser_dry_run_through_install_sh():
    r = subprocess.run(["bash", str(ROOT / "deploy" / "install.sh"), "--organiser", "--dry-run", "--tables", "12"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "/etc/mosquitto/conf.d/botifarra.conf" in r.stdout
    assert "botifarra-club serve --broker mqtt://127.0.0.1:1883" in r.stdout
    assert "tables 1..12" in r.stdout
    bad = subprocess.run(["bash", str(ROOT / "deploy" / "install.sh"), "--organiser", "--tables", "x"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


def test_generated_passwords_log_in_to_the_shipped_broker(tmp_path, broker_factory):
    broker = broker_factory([])
    out = subprocess.run(["bash", str(ROOT / "deploy" / "mosquitto" / "make-passwords.sh"),
                          str(broker.dir / "passwd"), "3"], capture_output=True, text=True, check=True).stdout
    logins = dict(line.split() for line in out.splitlines())
    assert set(logins) == {"organiser", "1", "2", "3"}
    broker.stop()
    broker.start()  # reads the new password file
    ok = threading.Event()
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="gen-3", protocol=mqtt.MQTTv5)
    client.username_pw_set("3", logins["3"])
    client.on_connect = lambda c, u, f, rc, p: ok.set() if not rc.is_failure else None
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    try:
        assert ok.wait(5)
    finally:
        client.disconnect()
        client.loop_stop()
