#!/bin/sh
# Installed by deploy/install.sh as /usr/local/bin/botifarra-kiosk: the kiosk's command line
# with the installed kiosk's data and settings, e.g.
#   sudo -u botifarra botifarra-kiosk diag
#   sudo -u botifarra botifarra-kiosk export --help
export BOTIFARRA_DATA_DIR="${BOTIFARRA_DATA_DIR:-/var/lib/botifarra-kiosk}"
export BOTIFARRA_CONFIG_DIR="${BOTIFARRA_CONFIG_DIR:-$BOTIFARRA_DATA_DIR/config}"
exec /opt/botifarra-kiosk/venv/bin/botifarra-kiosk "$@"
