#!/usr/bin/env bash
# Write the broker's password file for a tournament: the organiser and tables 1..N.
#   make-passwords.sh FILE N [ORGANISER_PASSWORD]
# Prints "table password" lines to put in each kiosk's settings ([club] user, password).
# Passwords are random unless given; the file holds only salted hashes (mosquitto_passwd).
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 FILE TABLES [ORGANISER_PASSWORD]" >&2; exit 2; }
file=$1
tables=$2
if ! [[ $tables =~ ^[0-9]+$ ]] || [ "$tables" -lt 1 ]; then
    echo "$0: TABLES must be a number >= 1" >&2
    exit 2
fi
command -v mosquitto_passwd >/dev/null || { echo "$0: mosquitto_passwd not found (apt install mosquitto)" >&2; exit 1; }
random() { head -c 12 /dev/urandom | base64 | tr -d '/+=' | cut -c1-10; }
umask 077
: > "$file"
organiser=${3:-$(random)}
mosquitto_passwd -b "$file" organiser "$organiser"
echo "organiser $organiser"
for ((t = 1; t <= tables; t++)); do
    pw=$(random)
    mosquitto_passwd -b "$file" "$t" "$pw"
    echo "$t $pw"
done
