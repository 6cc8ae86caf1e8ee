#!/usr/bin/env bash
# Install or update the botifarra scoring kiosk on Raspberry Pi OS Bookworm 64-bit
# (Pi 4 and Pi 5; Pi 3B+ best effort). Safe to run again: every step checks first.
#
#   sudo deploy/install.sh                  install from this checkout, start the kiosk
#   sudo deploy/install.sh --git URL        install (or update) from a git repository
#   deploy/install.sh --dry-run             print every action, change nothing (no root needed)
#
# See docs/deploy.md (install, update, backup and restore, read-only root, troubleshooting).
set -euo pipefail
set -E  # the ERR trap also fires inside functions

STEP="starting"
on_error() {
    echo "install.sh: FAILED during step \"$STEP\" (line $2, exit status $1)" >&2
}
trap 'on_error $? $LINENO' ERR

PREFIX=/opt/botifarra-kiosk
APP_DIR=$PREFIX/app
VENV=$PREFIX/venv
DATA_DIR=/var/lib/botifarra-kiosk
KIOSK_USER=botifarra
UNIT_DIR=/etc/systemd/system
SERVICE=botifarra-kiosk.service
BACKUP_SERVICE=botifarra-kiosk-backup.service
BACKUP_TIMER=botifarra-kiosk-backup.timer
DROPIN_DIR=$UNIT_DIR/$SERVICE.d
DROPIN=$DROPIN_DIR/desktop-session.conf
GROUPS_DROPIN=$DROPIN_DIR/supplementary-groups.conf
POLKIT_RULE=50-botifarra-kiosk-usb.rules
# Camera, display, touch, GPIO, speaker. Only those that exist go into the unit: a group
# that does not exist stops the service at start (status 216/GROUP).
GROUPS_WANTED=(video render input gpio audio)

# Python 3 and venv; numpy from Debian (the lock pins Debian's version, so pip leaves it);
# zbar for QR marks; the SDL2 / GL / DRM runtime Kivy draws with; fonts; sqlite3 and rsync
# for maintenance; udisks2 + polkitd mount USB sticks for the export (no desktop needed).
APT_PACKAGES=(
    python3 python3-venv python3-pip python3-numpy
    libzbar0
    libsdl2-2.0-0 libsdl2-image-2.0-0 libsdl2-mixer-2.0-0 libsdl2-ttf-2.0-0
    libgl1 libgles2 libegl1 libgbm1 libdrm2 libgl1-mesa-dri libmtdev1
    fonts-dejavu-core
    sqlite3 rsync git ca-certificates
    udisks2 polkitd
)
# Only in Raspberry Pi OS's own repository; seen through --system-site-packages. Each is
# installed on its own, so one missing package is named and does not stop the others.
PI_PACKAGES=(python3-picamera2 python3-libcamera python3-lgpio)
# What each Pi package is for, said when it cannot be installed.
pi_package_role() {
    case "$1" in
        python3-picamera2|python3-libcamera) echo "the Pi camera will not work (a USB camera will)" ;;
        python3-lgpio) echo "the GPIO buttons, light, LED and buzzer will not work" ;;
        *) echo "see docs/deploy.md" ;;
    esac
}

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SOURCE=$(dirname "$SCRIPT_DIR")
GIT_URL=""
GIT_REF="main"
DESKTOP_USER=""
DRY_RUN=0
START=1
GPIO=0

usage() {
    cat <<EOF
Usage: $0 [options]
  --dry-run             print every action without doing it (no root needed)
  --source DIR          install from this checkout (default: $SOURCE)
  --git URL             install or update from a git repository instead
  --ref REF             branch or tag for --git (default: $GIT_REF)
  --desktop-user NAME   run in NAME's desktop session instead of full screen on KMS/DRM
  --gpio                switch the GPIO buttons, light, LED and buzzer on (gpio.enabled)
  --no-start            install and enable, but do not (re)start the kiosk now
  -h, --help            this help
EOF
}

die() {
    echo "install.sh: $*" >&2
    exit 2
}

ARGS=("$@")
if [ "${1:-}" = "--organiser" ]; then shift; exec bash "$(dirname "${BASH_SOURCE[0]}")/install-organiser.sh" "$@"; fi
while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --source) [ $# -ge 2 ] || die "--source needs a directory"; SOURCE=$2; shift ;;
        --git) [ $# -ge 2 ] || die "--git needs a repository URL"; GIT_URL=$2; shift ;;
        --ref) [ $# -ge 2 ] || die "--ref needs a branch or tag"; GIT_REF=$2; shift ;;
        --desktop-user) [ $# -ge 2 ] || die "--desktop-user needs a user name"; DESKTOP_USER=$2; shift ;;
        --gpio) GPIO=1 ;;
        --no-start) START=0 ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown option: $1 (see --help)" ;;
    esac
    shift
done

# -- helpers ------------------------------------------------------------------------------

NSTEPS=9
NSTEP=0
step() {
    STEP=$1
    NSTEP=$((NSTEP + 1))
    echo "==> [$NSTEP/$NSTEPS] $STEP"
}

# Run a command that changes the system, or only print it with --dry-run.
run() {
    if [ "$DRY_RUN" -eq 1 ]; then
        printf '[dry-run]'
        printf ' %q' "$@"
        printf '\n'
    else
        "$@"
    fi
}

# write_file PATH MODE OWNER: write standard input to PATH (atomically), or print it.
write_file() {
    local path=$1 mode=$2 owner=$3 content tmp
    content=$(cat)
    if [ "$DRY_RUN" -eq 1 ]; then
        echo "[dry-run] write $path (mode $mode, owner $owner):"
        printf '%s\n' "$content" | sed 's/^/[dry-run]   | /'
        return 0
    fi
    tmp=$(mktemp "$(dirname "$path")/.install.XXXXXX")
    printf '%s\n' "$content" >"$tmp"
    chmod "$mode" "$tmp"
    chown "$owner" "$tmp"
    mv -f "$tmp" "$path"
}

note() {
    echo "    $*"
}

warn() {
    echo "    WARNING: $*" >&2
}

is_installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}

# -- 1. the machine -----------------------------------------------------------------------

step "check the machine"
if [ "$DRY_RUN" -eq 1 ]; then
    note "dry run: nothing will be changed"
elif [ "$(id -u)" -ne 0 ]; then
    die "run as root: sudo $0 ${ARGS[*]}"
fi
codename=""
if [ -r /etc/os-release ]; then
    # shellcheck source=/dev/null
    codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
fi
if [ "$codename" != "bookworm" ]; then
    warn "this is '${codename:-unknown}', not Debian / Raspberry Pi OS bookworm: untested"
fi
arch=$(uname -m)
case "$arch" in
    aarch64) ;;
    armv7l|armv6l) warn "32-bit OS ($arch): best effort only; some Python wheels must be built (slow)" ;;
    *) warn "architecture $arch: this is not a Raspberry Pi OS 64-bit install" ;;
esac
model=""
if [ -r /proc/device-tree/model ]; then
    model=$(tr -d '\0' </proc/device-tree/model)
fi
note "model: ${model:-not a Raspberry Pi}"
case "$model" in
    "Raspberry Pi 4"*|"Raspberry Pi 5"*|"Raspberry Pi Compute Module 4"*) ;;
    "Raspberry Pi 3"*) warn "Pi 3: best effort (slow start, 1 GB RAM)" ;;
    *) warn "not a Raspberry Pi 4 or 5: GPIO and the Pi camera will not be available" ;;
esac
if [ -n "$GIT_URL" ]; then
    note "source: $GIT_URL ($GIT_REF)"
else
    [ -f "$SOURCE/pyproject.toml" ] || die "$SOURCE is not a botifarra-kiosk checkout (no pyproject.toml)"
    SOURCE=$(cd "$SOURCE" && pwd)
    note "source: $SOURCE"
fi
if [ -n "$DESKTOP_USER" ] && ! id -u "$DESKTOP_USER" >/dev/null 2>&1; then
    if [ "$DRY_RUN" -eq 1 ]; then
        warn "desktop user $DESKTOP_USER does not exist here"
    else
        die "--desktop-user $DESKTOP_USER: no such user"
    fi
fi

# -- 2. system packages -------------------------------------------------------------------

step "system packages"
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
    if ! is_installed "$pkg"; then
        missing+=("$pkg")
    fi
done
if [ "${#missing[@]}" -eq 0 ]; then
    note "all ${#APT_PACKAGES[@]} packages already installed"
else
    note "missing: ${missing[*]}"
    run env DEBIAN_FRONTEND=noninteractive apt-get update -q
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# -- 3. Raspberry Pi packages, one by one ------------------------------------------------

step "Raspberry Pi packages"
pi_missing=()
for pkg in "${PI_PACKAGES[@]}"; do
    if is_installed "$pkg"; then
        note "$pkg installed"
    elif [ "$DRY_RUN" -eq 1 ]; then
        run env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$pkg"
    elif env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$pkg"; then
        note "$pkg installed"
    else
        pi_missing+=("$pkg")
        warn "$pkg could not be installed (not Raspberry Pi OS, or its repository is missing): $(pi_package_role "$pkg")"
    fi
done
if [ "${#pi_missing[@]}" -gt 0 ]; then
    warn "continuing without: ${pi_missing[*]} (botifarra-kiosk diag shows what is missing)"
fi

# -- 3. the kiosk's user ------------------------------------------------------------------

step "user $KIOSK_USER"
if id -u "$KIOSK_USER" >/dev/null 2>&1; then
    note "user $KIOSK_USER exists"
else
    run useradd --system --user-group --home-dir "$DATA_DIR" --no-create-home \
        --shell /usr/sbin/nologin --comment "Botifarra kiosk" "$KIOSK_USER"
fi
GROUPS_FOUND=()
for group in "${GROUPS_WANTED[@]}"; do
    if ! getent group "$group" >/dev/null; then
        warn "group $group does not exist on this system (not Raspberry Pi OS?); skipped"
        continue
    fi
    GROUPS_FOUND+=("$group")
    if id -nG "$KIOSK_USER" 2>/dev/null | tr ' ' '\n' | grep -qx "$group"; then
        note "$KIOSK_USER is in $group"
    else
        run usermod --append --groups "$group" "$KIOSK_USER"
    fi
done
if [ -n "$DESKTOP_USER" ]; then
    desktop_groups=$(IFS=,; echo "$KIOSK_USER,${GROUPS_FOUND[*]}")
    run usermod --append --groups "$desktop_groups" "$DESKTOP_USER"
fi

# -- 4. the data directory (journal, backups, settings, logs) ----------------------------

step "data directory $DATA_DIR"
run install -d -o "$KIOSK_USER" -g "$KIOSK_USER" -m 2770 \
    "$DATA_DIR" "$DATA_DIR/config" "$DATA_DIR/logs" "$DATA_DIR/backups" "$DATA_DIR/evidence"
if [ "$GPIO" -eq 1 ]; then
    if [ -e "$DATA_DIR/config/settings.ini" ]; then
        note "settings.ini exists: switch GPIO on in the kiosk's settings (gpio.enabled)"
    else
        write_file "$DATA_DIR/config/settings.ini" 0660 "$KIOSK_USER:$KIOSK_USER" <<'EOF'
[gpio]
enabled = yes
EOF
    fi
fi

# -- 5. the application files -------------------------------------------------------------

step "application in $APP_DIR"
run install -d -m 0755 "$PREFIX"
if [ -n "$GIT_URL" ]; then
    if [ -d "$APP_DIR/.git" ]; then
        run git -C "$APP_DIR" fetch --depth 1 origin "$GIT_REF"
        run git -C "$APP_DIR" reset --hard FETCH_HEAD
    else
        if [ -e "$APP_DIR" ]; then
            run rm -rf "$APP_DIR"
        fi
        run git clone --depth 1 --branch "$GIT_REF" "$GIT_URL" "$APP_DIR"
    fi
elif [ "$SOURCE" = "$APP_DIR" ]; then
    note "running from $APP_DIR itself: files already in place"
else
    run rsync -a --delete --chown=root:root --exclude=.git --exclude=.venv --exclude=artifacts \
        --exclude=__pycache__ --exclude='*.egg-info' --exclude=build "$SOURCE/" "$APP_DIR/"
fi

# -- 6. Python environment ----------------------------------------------------------------

step "Python environment $VENV"
if [ -x "$VENV/bin/python" ] && grep -qs "include-system-site-packages = true" "$VENV/pyvenv.cfg"; then
    note "venv exists (with system site packages)"
else
    if [ -e "$VENV" ]; then
        run rm -rf "$VENV"
    fi
    run python3 -m venv --system-site-packages "$VENV"
fi
# Exactly the locked versions, each checked against its hash (requirements/run.txt; what
# Debian already has at that version, numpy, stays Debian's). Then the app itself, built
# with the locked setuptools and always reinstalled: an update keeps its version number.
run "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
    --require-hashes -r "$APP_DIR/requirements/run.txt"
run "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
    --no-deps --no-build-isolation --force-reinstall "$APP_DIR"
run "$VENV/bin/python" -c "import kiosk, kivy, gpiozero; print('kiosk', kiosk.__version__, 'kivy', kivy.__version__)"
if [ "$DRY_RUN" -eq 0 ] && ! "$VENV/bin/python" -c "import picamera2" 2>/dev/null; then
    warn "picamera2 is not importable from the venv: the Pi camera will not work (USB cameras will)"
fi

# -- 7. systemd units ---------------------------------------------------------------------

step "systemd units"
for unit in "$SERVICE" "$BACKUP_SERVICE" "$BACKUP_TIMER"; do
    run install -m 0644 "$APP_DIR/deploy/systemd/$unit" "$UNIT_DIR/$unit"
done
# udisks2 mounts USB sticks for the service's user (no desktop session to ask).
run install -D -m 0644 "$APP_DIR/deploy/polkit/$POLKIT_RULE" "/etc/polkit-1/rules.d/$POLKIT_RULE"
run install -d -m 0755 "$DROPIN_DIR"
{
    echo "# Written by install.sh: those of ${GROUPS_WANTED[*]} that exist here."
    echo "[Service]"
    echo "SupplementaryGroups=${GROUPS_FOUND[*]}"
} | write_file "$GROUPS_DROPIN" 0644 root:root
if [ -n "$DESKTOP_USER" ]; then
    desktop_uid=$(id -u "$DESKTOP_USER" 2>/dev/null || echo 1000)
    desktop_home=$(getent passwd "$DESKTOP_USER" | cut -d: -f6 || true)
    desktop_home=${desktop_home:-/home/$DESKTOP_USER}
    sed -e "s#^User=pi\$#User=$DESKTOP_USER#" \
        -e "s#/run/user/1000#/run/user/$desktop_uid#" \
        -e "s#/home/pi/#$desktop_home/#" \
        "$SCRIPT_DIR/systemd/desktop-session.conf" | write_file "$DROPIN" 0644 root:root
else
    if [ -e "$DROPIN" ]; then
        run rm -f "$DROPIN"
    fi
    # Full screen on KMS/DRM needs the display to itself: no desktop, no login on tty1.
    if [ "$(systemctl get-default 2>/dev/null || true)" = "graphical.target" ]; then
        note "the desktop would hold the display: booting to the console from now on"
        run systemctl set-default multi-user.target
    fi
    run systemctl disable getty@tty1.service
fi
run systemctl daemon-reload
run systemctl enable "$SERVICE" "$BACKUP_TIMER"
# The command line with the installed kiosk's data: `sudo -u botifarra botifarra-kiosk diag`.
run install -m 0755 "$APP_DIR/deploy/botifarra-kiosk.sh" /usr/local/bin/botifarra-kiosk

# -- 8. start -----------------------------------------------------------------------------

step "start"
if [ "$START" -eq 1 ]; then
    run systemctl restart "$SERVICE"
    run systemctl start "$BACKUP_TIMER"
else
    note "not started (--no-start); it starts at the next boot"
fi

STEP="done"
if [ "$DRY_RUN" -eq 1 ]; then
    echo
    echo "Dry run complete: nothing was changed."
fi
cat <<EOF

After a real run: the kiosk starts at boot; a journal backup runs nightly (14 days kept in
$DATA_DIR/backups).
  status:       systemctl status $SERVICE
  logs:         journalctl -u $SERVICE -e
  diagnostics:  sudo -u $KIOSK_USER botifarra-kiosk diag
  backup now:   sudo systemctl start $BACKUP_SERVICE

Power-cut safety (recommended once everything works; see docs/deploy.md):
  1. put $DATA_DIR on its own partition (or USB stick) listed in /etc/fstab;
  2. sudo raspi-config nonint do_overlayfs 0    (read-only root overlay), then reboot.
  To update later: sudo raspi-config nonint do_overlayfs 1, reboot, run this script
  again, enable the overlay again, reboot.
EOF
