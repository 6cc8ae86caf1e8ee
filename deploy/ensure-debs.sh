#!/usr/bin/env bash
# Install the Debian packages named on the command line that are not installed yet.
# Used by `make run` / `make test` on a fresh Debian 12 or Raspberry Pi OS Bookworm machine.
set -euo pipefail
missing=()
for pkg in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$pkg")
    fi
done
[ "${#missing[@]}" -eq 0 ] && exit 0
echo "Installing system packages: ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
