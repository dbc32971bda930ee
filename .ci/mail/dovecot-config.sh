#!/bin/bash
# Writes the Dovecot config and users of the real-server tests into
# STATE_DIR (created; its mail/ is handed to the "mail" user).
# Usage: dovecot-config.sh STATE_DIR     (then: dovecot -c STATE_DIR/dovecot.conf -F)
set -euo pipefail
D=${1:?usage: dovecot-config.sh STATE_DIR}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$D/run" "$D/state" "$D/mail"
chown mail:mail "$D/mail"
sed "s|@D@|$D|g" "$HERE/dovecot.conf.tmpl" > "$D/dovecot.conf"
cat > "$D/users" <<'U'
gm@example.test:{PLAIN}gmpass
p1@example.test:{PLAIN}p1pass
U
chmod 0644 "$D/users"
