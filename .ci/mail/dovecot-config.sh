#!/bin/bash
# Writes the Dovecot config and users of the test mail servers into
# STATE_DIR (default $PBEMD_MAIL_DIR; its mail/ is handed to the "mail"
# user). Parameters: see env.sh.
# Usage: dovecot-config.sh [STATE_DIR]     (then: dovecot -c STATE_DIR/dovecot.conf -F)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
[ -n "${1:-}" ] && PBEMD_MAIL_DIR=$1
. "$HERE/env.sh"
pbemd_mail_check_params
D=$PBEMD_MAIL_DIR
mkdir -p "$D/run" "$D/state" "$D/mail"
chmod 0755 "$D" # the mail user walks into it
chown mail:mail "$D/mail"
sed -e "s|@D@|$D|g" -e "s|@IMAP@|$PBEMD_MAIL_IMAP_PORT|g" -e "s|@LMTP@|$PBEMD_MAIL_LMTP_PORT|g" \
    -e "s|@AUTH@|$PBEMD_MAIL_AUTH_PORT|g" -e "s|@NAME@|pbemd-ci-$PBEMD_MAIL_IMAP_PORT|g" \
    "$HERE/dovecot.conf.tmpl" > "$D/dovecot.conf"
: > "$D/users"
for u in $PBEMD_MAIL_USERS; do
  echo "${u%%:*}@$PBEMD_MAIL_DOMAIN:{PLAIN}${u#*:}" >> "$D/users"
done
chmod 0644 "$D/users"
