#!/usr/bin/env bash
# Install the tournament organiser's side of club mode on a Pi or a Debian laptop:
# Debian's Mosquitto with the botifarra config, password file and ACL, and the organiser's
# app (`botifarra-club serve`) as a systemd service. Called by `install.sh --organiser`.
#
#   sudo deploy/install.sh --organiser --tables 20     install, 20 table logins
#   deploy/install.sh --organiser --dry-run            print every action, change nothing
#
# See docs/club.md (a tournament night step by step).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SOURCE=$(dirname "$HERE")
PREFIX=/opt/botifarra-club
DATA_DIR=/var/lib/botifarra-club
CONF_DIR=/etc/mosquitto/botifarra
ENV_FILE=/etc/botifarra-club.env
UNIT=/etc/systemd/system/botifarra-club.service
CLUB_USER=botifarra-club
TABLES=20
HTTP=0.0.0.0:8080
DRY_RUN=0

die() { echo "install-organiser.sh: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --tables) [ $# -ge 2 ] || die "--tables needs a number"; TABLES=$2; shift ;;
        --http) [ $# -ge 2 ] || die "--http needs HOST:PORT"; HTTP=$2; shift ;;
        --source) [ $# -ge 2 ] || die "--source needs a directory"; SOURCE=$2; shift ;;
        -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
        *) die "unknown option: $1 (see --help)" ;;
    esac
    shift
done
if ! [[ $TABLES =~ ^[0-9]+$ ]] || [ "$TABLES" -lt 1 ]; then
    die "--tables must be a number >= 1"
fi
if [ "$DRY_RUN" -eq 0 ] && [ "$(id -u)" -ne 0 ]; then
    die "run as root (sudo), or with --dry-run"
fi

run() {
    if [ "$DRY_RUN" -eq 1 ]; then
        printf '[dry-run]'; printf ' %q' "$@"; printf '\n'
    else
        "$@"
    fi
}

# write_file PATH MODE: standard input to PATH, or printed with --dry-run.
write_file() {
    local content
    content=$(cat)
    if [ "$DRY_RUN" -eq 1 ]; then
        echo "[dry-run] write $1 (mode $2):"
        printf '%s\n' "$content" | sed 's/^/[dry-run]   | /'
        return 0
    fi
    printf '%s\n' "$content" >"$1.tmp"
    chmod "$2" "$1.tmp"
    mv -f "$1.tmp" "$1"
}

echo "==> [1/5] Mosquitto and Python from Debian"
run env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    mosquitto python3-venv fonts-dejavu-core

echo "==> [2/5] the broker's config, ACL and logins (organiser + tables 1..$TABLES)"
run install -d -m 0750 -o root -g mosquitto "$CONF_DIR"
run install -m 0644 "$SOURCE/deploy/mosquitto/botifarra.conf" /etc/mosquitto/conf.d/botifarra.conf
run install -m 0640 -o root -g mosquitto "$SOURCE/deploy/mosquitto/acl" "$CONF_DIR/acl"
if [ -s "$CONF_DIR/passwd" ]; then
    echo "    $CONF_DIR/passwd exists: kept (delete it and run again for new passwords)"
else
    # the table passwords go into each kiosk's settings ([club] password); kept root-only
    run sh -c "umask 077; '$SOURCE/deploy/mosquitto/make-passwords.sh' '$CONF_DIR/passwd' '$TABLES' > '$DATA_DIR.passwords.txt'"
    run chgrp mosquitto "$CONF_DIR/passwd"
    run chmod 0640 "$CONF_DIR/passwd"
    echo "    table passwords: $DATA_DIR.passwords.txt (root only)"
fi
run systemctl restart mosquitto

echo "==> [3/5] the organiser's app in $PREFIX"
if ! id "$CLUB_USER" >/dev/null 2>&1; then
    run useradd --system --user-group --home-dir "$DATA_DIR" --no-create-home --shell /usr/sbin/nologin "$CLUB_USER"
fi
run install -d -m 0750 -o "$CLUB_USER" -g "$CLUB_USER" "$DATA_DIR"
run python3 -m venv "$PREFIX/venv"
# The organiser's locked set (requirements/organiser.txt: paho-mqtt, starlette, uvicorn, fpdf2;
# no Kivy, OpenCV or GPIO), each checked against its hash; then the project itself, built with
# the locked setuptools (no build isolation: nothing unlocked is fetched).
run "$PREFIX/venv/bin/python" -m pip install -q --disable-pip-version-check \
    --require-hashes -r "$SOURCE/requirements/organiser.txt"
run "$PREFIX/venv/bin/python" -m pip install -q --disable-pip-version-check \
    --no-deps --no-build-isolation --force-reinstall "$SOURCE"
run "$PREFIX/venv/bin/python" -c "import organiser.cli, organiser.web, organiser.link"

echo "==> [4/5] the service"
if [ "$DRY_RUN" -eq 1 ] || [ ! -s "$ENV_FILE" ]; then
    organiser_pw=""
    if [ -r "$DATA_DIR.passwords.txt" ]; then
        organiser_pw=$(awk '$1 == "organiser" {print $2}' "$DATA_DIR.passwords.txt")
    fi
    write_file "$ENV_FILE" 0600 <<ENV
# the organiser's broker password (line "organiser ..." of $DATA_DIR.passwords.txt)
BOTIFARRA_CLUB_PASSWORD=$organiser_pw
ENV
fi
write_file "$UNIT" 0644 <<UNIT
[Unit]
Description=Botifarra club: the tournament organiser's app
After=network-online.target mosquitto.service
Wants=network-online.target mosquitto.service

[Service]
User=$CLUB_USER
EnvironmentFile=$ENV_FILE
ExecStart=$PREFIX/venv/bin/botifarra-club serve --broker mqtt://127.0.0.1:1883 --db $DATA_DIR/club.sqlite --http $HTTP
Restart=on-failure
RestartSec=2

[Install]
WantedBy=multi-user.target
UNIT

echo "==> [5/5] start"
run systemctl daemon-reload
run systemctl enable botifarra-club.service
run systemctl restart botifarra-club.service
echo "    the live page: http://THIS-MACHINE:${HTTP##*:}/"
