#!/bin/bash
# Stops what up.sh started, by PID. Usage: down.sh [STATE_DIR]
D=${1:-/tmp/pbemd-realmail}
for p in "$(tr -d ' ' < /var/spool/postfix/pid/master.pid 2>/dev/null)" "$(cat "$D/dovecot.pid" 2>/dev/null)"; do
  [ -n "$p" ] && kill "$p" 2>/dev/null && for i in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
done
exit 0
