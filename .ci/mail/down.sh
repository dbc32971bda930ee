#!/bin/bash
# Stops what up.sh started (same PBEMD_MAIL_DIR), by PID: this instance of
# Postfix and this Dovecot, never the machine's own.
# Usage: down.sh [STATE_DIR]
HERE=$(cd "$(dirname "$0")" && pwd)
[ -n "${1:-}" ] && PBEMD_MAIL_DIR=$1
. "$HERE/env.sh"
D=$PBEMD_MAIL_DIR
[ -f "$D/postfix/main.cf" ] && postfix -c "$D/postfix" stop >/dev/null 2>&1
p=$(cat "$D/dovecot.pid" 2>/dev/null)
if [ -n "$p" ] && kill "$p" 2>/dev/null; then
  for i in $(seq 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
fi
rm -f "$D/dovecot.pid"
m=$D/postfix-queue/pid/master.pid
for i in $(seq 100); do [ -s "$m" ] && kill -0 "$(tr -d ' ' < "$m")" 2>/dev/null || break; sleep 0.1; done
exit 0
