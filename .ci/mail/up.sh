#!/bin/bash
# Installs, configures and starts Dovecot (IMAP 10143, LMTP 10024, auth
# 10026) and Postfix (SMTP 10025) on 127.0.0.1, in the background, for
# running the real-server suite by hand (PBEMD_REALMAIL=external).
# The Go tests do not need it: with PBEMD_REALMAIL=1 their TestMain starts
# and stops both servers itself.
# Usage: up.sh [STATE_DIR]      (default /tmp/pbemd-realmail)   then down.sh
set -euo pipefail
D=${1:-/tmp/pbemd-realmail}
HERE=$(cd "$(dirname "$0")" && pwd)
port_open() { (exec 3<>/dev/tcp/127.0.0.1/"$1") 2>/dev/null; }
"$HERE/install.sh"
"$HERE/dovecot-config.sh" "$D"
"$HERE/postfix-config.sh"
for p in 10143 10024 10025 10026; do
  port_open $p && { echo "up.sh: port $p already in use (run down.sh?)" >&2; exit 1; }
done
dovecot -c "$D/dovecot.conf" -F >"$D/dovecot.stdout" 2>&1 &
echo $! > "$D/dovecot.pid"
postfix start >/dev/null
for i in $(seq 100); do
  port_open 10143 && port_open 10025 && { echo "dovecot pid $(cat "$D/dovecot.pid"), postfix master pid $(tr -d ' ' < /var/spool/postfix/pid/master.pid)"; exit 0; }
  sleep 0.1
done
cat "$D/dovecot.log" "$D/dovecot.stdout" /var/log/postfix.log >&2 || true
exit 1
