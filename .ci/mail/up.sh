#!/bin/bash
# Installs (when missing), configures and starts the test mail servers in
# the background: Dovecot (IMAP, LMTP, auth) and an instance of Postfix of
# their own, on 127.0.0.1, everything under PBEMD_MAIL_DIR. For playing a
# game over real servers by hand (docs/real-mail.md) and for the Go tests
# with PBEMD_REALMAIL=external. Parameters (ports, accounts, domain): see
# env.sh. Stop with down.sh (same parameters).
# Usage: up.sh [STATE_DIR]        (root)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
[ -n "${1:-}" ] && PBEMD_MAIL_DIR=$1
. "$HERE/env.sh"
D=$PBEMD_MAIL_DIR
port_open() { (exec 3<>/dev/tcp/127.0.0.1/"$1") 2>/dev/null; }
[ "$(id -u)" = 0 ] || { echo "up.sh: run as root (Dovecot delivers as the mail user, Postfix runs as postfix)" >&2; exit 1; }
"$HERE/install.sh"
pbemd_mail_check_params
pbemd_mail_check_dir
for p in $(pbemd_mail_ports); do
  port_open "$p" && { echo "up.sh: port $p is in use (servers already up? down.sh stops them; or choose other PBEMD_MAIL_*_PORT)" >&2; exit 1; }
done
failed() {
  echo "up.sh: the servers did not come up; logs:" >&2
  cat "$D/dovecot.log" "$D/dovecot.stdout" "$D/postfix.log" >&2 2>/dev/null || true
  "$HERE/down.sh" "$D" || true
  exit 1
}
trap failed ERR
"$HERE/dovecot-config.sh" "$D"
"$HERE/postfix-config.sh" "$D"
dovecot -c "$D/dovecot.conf" -F >"$D/dovecot.stdout" 2>&1 &
echo $! > "$D/dovecot.pid"
postfix -c "$D/postfix" start >/dev/null
for i in $(seq 150); do
  up=1
  for p in $(pbemd_mail_ports); do port_open "$p" || up=0; done
  if [ $up = 1 ]; then
    echo "up.sh: Dovecot (pid $(cat "$D/dovecot.pid")) and Postfix (master pid $(tr -d ' ' < "$D/postfix-queue/pid/master.pid")) up; state in $D"
    echo "  IMAP 127.0.0.1:$PBEMD_MAIL_IMAP_PORT, SMTP 127.0.0.1:$PBEMD_MAIL_SMTP_PORT (no TLS); accounts at $PBEMD_MAIL_DOMAIN: $(for u in $PBEMD_MAIL_USERS; do printf '%s ' "${u%%:*}"; done)"
    exit 0
  fi
  sleep 0.1
done
failed
