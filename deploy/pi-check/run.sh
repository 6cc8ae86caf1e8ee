#!/usr/bin/env bash
# `make pi-check`: an emulated Raspberry Pi OS (Debian bookworm arm64, run through
# qemu-user-static) installs the kiosk the way deploy/install.sh does and runs it.
#
#   1. builds the arm64 root once (debootstrap from Debian's packages) and keeps it in
#      $PI_CHECK_CACHE (default /var/cache/botifarra-pi-check): later runs start at 2;
#   2. installs the app as install.sh step 7 does: a venv with system site packages, the
#      lock with --require-hashes, the app without build isolation;
#   3. proves Debian's numpy stays (the numpy version in the venv) and that a Debian C
#      extension built against numpy 1.x still imports: python3-bottleneck, standing in for
#      Picamera2's simplejpeg (not in Debian bookworm; Raspberry Pi OS only);
#   4. runs `botifarra-kiosk score`, `kit`, `read` (a rendered pile of 16 cards) and the
#      kiosk under Xvfb (its first screen, then 20 s more), all as arm64 code.
# Needs root (debootstrap, chroot, mounts). Every phase prints its time.
set -euo pipefail
cd "$(dirname "$0")/../.."
SRC=$(pwd)
CACHE=${PI_CHECK_CACHE:-/var/cache/botifarra-pi-check}
MIRROR=${PI_CHECK_MIRROR:-http://deb.debian.org/debian}
ROOTFS=$CACHE/root
BUILD=$CACHE/root-tmp
KIOSK_SECONDS=20
# The Debian packages of the root: install.sh's python3 side, numpy 1.24 from Debian, the
# stand-in extension, the run-time libraries of `make run`, and a virtual screen.
BASE_DEBS=python3,python3-venv,python3-numpy,python3-bottleneck,ca-certificates
read -r -a MORE_DEBS <<<"${PI_CHECK_DEBS:-libzbar0 libgl1 libgl1-mesa-dri libegl1 libgbm1 libdrm2 libmtdev1 fonts-dejavu-core libx11-6 libxext6 libxcursor1 libxi6 libxrandr2 libxss1 libxfixes3 libasound2 xvfb xauth}"

T0=$(date +%s)
PHASE_START=$T0
phase() {
    local now
    now=$(date +%s)
    if [ "$PHASE_START" != "$T0" ] || [ "$now" != "$T0" ]; then
        echo "    ($((now - PHASE_START)) s)"
    fi
    PHASE_START=$now
    echo "==> pi-check: $*"
}
fail() {
    echo "pi-check: FAILED: $*" >&2
    exit 1
}

[ "$(id -u)" -eq 0 ] || fail "run as root (debootstrap, chroot and mounts need it)"

phase "host tools (qemu-user-static, binfmt-support, debootstrap)"
bash deploy/ensure-debs.sh qemu-user-static binfmt-support debootstrap
if [ ! -e /proc/sys/fs/binfmt_misc/status ]; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc ||
        fail "cannot mount binfmt_misc (a container without the privilege?): arm64 programs cannot run here"
fi
update-binfmts --enable qemu-aarch64 2>/dev/null || true
grep -qx enabled /proc/sys/fs/binfmt_misc/qemu-aarch64 2>/dev/null ||
    fail "binfmt entry qemu-aarch64 is not enabled: $(head -1 /proc/sys/fs/binfmt_misc/qemu-aarch64 2>&1)"

MOUNTED=()
cleanup() {
    local i
    for ((i = ${#MOUNTED[@]} - 1; i >= 0; i--)); do
        umount -l "${MOUNTED[$i]}" 2>/dev/null || true
    done
}
trap cleanup EXIT
mount_into() {
    local root=$1
    mount -t proc proc "$root/proc" && MOUNTED+=("$root/proc")
    mount -t sysfs sysfs "$root/sys" && MOUNTED+=("$root/sys")
    mount --bind /dev "$root/dev" && MOUNTED+=("$root/dev")
    mount --bind /dev/pts "$root/dev/pts" && MOUNTED+=("$root/dev/pts")
    cp -L /etc/resolv.conf "$root/etc/resolv.conf"
}
# A host that reaches PyPI through a TLS-inspecting proxy trusts it with its own bundle
# (pip's `cert` setting): the root's pip gets the same bundle, nothing else of the host's.
PIP_ENV=()
host_cert=${PIP_CERT:-$(python3 -m pip config get global.cert 2>/dev/null || true)}
in_root() {
    chroot "$ROOTFS" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin \
        HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "${PIP_ENV[@]}" "$@"
}

if [ -e "$ROOTFS/.pi-check-ready" ]; then
    phase "arm64 root: cached in $ROOTFS"
else
    mkdir -p "$CACHE"
    if [ ! -e "$BUILD/.debootstrapped" ]; then
        phase "arm64 root: debootstrap bookworm ($BASE_DEBS)"
        rm -rf "$BUILD"
        debootstrap --arch=arm64 --variant=minbase --include="$BASE_DEBS" bookworm "$BUILD" "$MIRROR"
        touch "$BUILD/.debootstrapped"
    fi
    phase "arm64 root: apt-get update, then the run-time libraries"
    mount_into "$BUILD"
    chroot "$BUILD" /usr/bin/env DEBIAN_FRONTEND=noninteractive apt-get update -q
    chroot "$BUILD" /usr/bin/env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -q --no-install-recommends "${MORE_DEBS[@]}"
    chroot "$BUILD" apt-get clean
    cleanup
    MOUNTED=()
    touch "$BUILD/.pi-check-ready"
    rm -rf "$ROOTFS"
    mv "$BUILD" "$ROOTFS"
fi
mount_into "$ROOTFS"
if [ -n "$host_cert" ] && [ -r "$host_cert" ]; then
    cp "$host_cert" "$ROOTFS/etc/ssl/certs/pi-check-host-pip.crt"
    PIP_ENV=(PIP_CERT=/etc/ssl/certs/pi-check-host-pip.crt)
fi
echo "    $(in_root uname -m) $(in_root python3 --version) $(grep PRETTY_NAME "$ROOTFS/etc/os-release")"

phase "the stand-in extension (python3-bottleneck, built against numpy 1.x) before the install"
in_root python3 -c "import numpy, bottleneck; print('    system numpy', numpy.__version__, '| bottleneck', bottleneck.__version__)"

phase "install as deploy/install.sh step 7 does (venv with system site packages, lock with hashes)"
APP=/opt/botifarra-kiosk/app
VENV=/opt/botifarra-kiosk/venv
rm -rf "$ROOTFS/opt/botifarra-kiosk"
mkdir -p "$ROOTFS$APP"
tar -C "$SRC" --exclude=.git --exclude=.venv --exclude=.venv-lock --exclude=artifacts \
    --exclude=__pycache__ --exclude='*.egg-info' --exclude=build -cf - . | tar -C "$ROOTFS$APP" -xf -
in_root python3 -m venv --system-site-packages "$VENV"
in_root "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
    --require-hashes -r "$APP/requirements/run.txt"
in_root "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
    --no-deps --no-build-isolation --force-reinstall "$APP"

phase "numpy in the venv, and the stand-in extension after the install"
in_root "$VENV/bin/python" - <<'EOF'
import numpy, bottleneck, cv2
print("    numpy in the venv:", numpy.__version__, "from", numpy.__file__)
print("    bottleneck", bottleneck.__version__, "imports; nanmean =", bottleneck.nanmean(numpy.array([1.0, numpy.nan, 3.0])))
print("    opencv", cv2.__version__)
assert numpy.__version__.startswith("1."), "numpy 2 in the venv: Debian's C extensions would break"
assert numpy.__file__.startswith("/usr/lib/python3/dist-packages/"), "numpy is not Debian's"
EOF

WORK=/tmp/pi-check
rm -rf "$ROOTFS$WORK"
mkdir -p "$ROOTFS$WORK"

phase "botifarra-kiosk score"
in_root "$VENV/bin/python" - <<'EOF'
import json
from kiosk.game import DECK
cards = [c.code for c in DECK]
match = {"rules": {"preset": "reglament", "target": 101}, "first_dealer": 0,
         "players": ["Anna", "Pere", "Marta", "Joan"],
         "hands": [{"trump": "oros", "delegated": False, "doubling": "contro", "piles": {"A": cards[:36]}},
                   {"trump": "botifarra", "points": {"B": 41}}, {"misdeal": True}]}
open("/tmp/pi-check/match.json", "w").write(json.dumps(match))
EOF
in_root "$VENV/bin/botifarra-kiosk" score "$WORK/match.json" | sed 's/^/    /' | cut -c1-200

phase "botifarra-kiosk kit"
in_root "$VENV/bin/botifarra-kiosk" kit --out "$WORK/kit"
find "$ROOTFS$WORK/kit" -maxdepth 1 -type f -printf '    %f %s bytes\n'
[ -s "$ROOTFS$WORK/kit/stickers.pdf" ] || fail "kit wrote no stickers.pdf"

phase "botifarra-kiosk read (a rendered pile of 16 cards)"
in_root "$VENV/bin/python" -c "
from kiosk.game import DECK
from vision.scene import make_scene
make_scene(60, cards=list(DECK[:16]), blur=0.4, glare=0).write('$WORK/pile.jpg')"
in_root "$VENV/bin/botifarra-kiosk" read --json "$WORK/pile.jpg" >"$ROOTFS$WORK/read.json"
in_root "$VENV/bin/python" -c "
import json
from kiosk.game import DECK
got = set(json.load(open('$WORK/read.json'))['cards'])
want = {c.code for c in DECK[:16]}
print('    read', len(got & want), 'of', len(want), 'cards; wrong:', sorted(got - want))
assert got == want"

phase "the kiosk under Xvfb: its first screen, then $KIOSK_SECONDS s more"
# Emulated, Kivy takes from 15 s to minutes to start (more on a loaded machine): wait for its
# main loop (at most STARTUP_MAX s), then it must keep running $KIOSK_SECONDS s.
STARTUP_MAX=${PI_CHECK_STARTUP_MAX:-300}
LOG=$ROOTFS$WORK/kiosk.log
# In a session of its own, so that stopping it stops xvfb-run, Xvfb and the kiosk together.
setsid chroot "$ROOTFS" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/root LANG=C.UTF-8 \
    BOTIFARRA_DATA_DIR=$WORK/data KIVY_HOME=$WORK/data BOTIFARRA_CACHE_DIR=$WORK/cache \
    timeout --signal=TERM "$((STARTUP_MAX + KIOSK_SECONDS))" xvfb-run -a -s "-screen 0 1280x800x24" \
    "$VENV/bin/botifarra-kiosk" run >"$LOG" 2>&1 &
kiosk=$!
stop_kiosk() {
    kill -TERM -- "-$kiosk" 2>/dev/null || true
    wait "$kiosk" 2>/dev/null || true
}
waited=0
until grep -q "Start application main loop" "$LOG" 2>/dev/null; do
    if ! kill -0 "$kiosk" 2>/dev/null; then
        tail -20 "$LOG" >&2
        fail "the kiosk stopped before showing its first screen"
    fi
    if [ "$waited" -ge "$STARTUP_MAX" ]; then
        stop_kiosk
        fail "the kiosk did not reach its main loop in $STARTUP_MAX s"
    fi
    sleep 1
    waited=$((waited + 1))
done
echo "    main loop reached after about $waited s"
sleep "$KIOSK_SECONDS"
alive=1
kill -0 "$kiosk" 2>/dev/null || alive=0
stop_kiosk
grep -E "\[(Kivy|Window|kiosk|Base) *\]|OpenGL (version|renderer)" "$LOG" | grep -v "Installed at" | sed 's/^/    /' || true
if [ "$alive" -ne 1 ]; then
    tail -20 "$LOG" >&2
    fail "the kiosk stopped within $KIOSK_SECONDS s of its first screen"
fi
# The root has no sound card: SDL's "Unable to open mixer" is logged as CRITICAL, and the
# kiosk says it carries on silently (as it would on a Pi without a speaker). Nothing else.
if grep -E "Traceback|\[CRITICAL" "$LOG" | grep -qv "Unable to open mixer"; then
    grep -nE -A5 "Traceback|\[CRITICAL" "$LOG" | head -30 >&2
    fail "the kiosk logged an error"
fi
echo "    showed its first screen and was still running $KIOSK_SECONDS s later, no error logged"

phase "done"
echo "pi-check: passed in $(($(date +%s) - T0)) s"
