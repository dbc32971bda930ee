# Sourced by the scripts of .ci/mail: the parameters of the test mail
# servers, each an environment variable with its default. Set any of them
# before a script to run a second pair of servers beside the first, or
# with other accounts.
#
#   PBEMD_MAIL_DIR        state: configs, mail, queue, logs  (/tmp/pbemd-realmail)
#   PBEMD_MAIL_DOMAIN     the one mail domain                (example.test)
#   PBEMD_MAIL_USERS      accounts, local:password ...       ("gm:gmpass p1:p1pass")
#   PBEMD_MAIL_IMAP_PORT  Dovecot IMAP                       (10143)
#   PBEMD_MAIL_LMTP_PORT  Dovecot LMTP, Postfix delivers here (10024)
#   PBEMD_MAIL_SMTP_PORT  Postfix SMTP, AUTH or from loopback (10025)
#   PBEMD_MAIL_AUTH_PORT  Dovecot auth for Postfix SASL      (10026)
#
# Everything listens on 127.0.0.1 only and lives under PBEMD_MAIL_DIR:
# nothing is written to /etc, and a Postfix or Dovecot of the machine's own
# is left alone (these run as instances of their own, `postfix -c DIR` and
# `dovecot -c FILE`, with their own queue, state and pid files).
: "${PBEMD_MAIL_DIR:=/tmp/pbemd-realmail}"
: "${PBEMD_MAIL_DOMAIN:=example.test}"
: "${PBEMD_MAIL_USERS:=gm:gmpass p1:p1pass}"
: "${PBEMD_MAIL_IMAP_PORT:=10143}"
: "${PBEMD_MAIL_LMTP_PORT:=10024}"
: "${PBEMD_MAIL_SMTP_PORT:=10025}"
: "${PBEMD_MAIL_AUTH_PORT:=10026}"
export PBEMD_MAIL_DIR PBEMD_MAIL_DOMAIN PBEMD_MAIL_USERS PBEMD_MAIL_IMAP_PORT PBEMD_MAIL_LMTP_PORT PBEMD_MAIL_SMTP_PORT PBEMD_MAIL_AUTH_PORT

pbemd_mail_ports() { echo "$PBEMD_MAIL_IMAP_PORT $PBEMD_MAIL_LMTP_PORT $PBEMD_MAIL_SMTP_PORT $PBEMD_MAIL_AUTH_PORT"; }

pbemd_mail_check_params() {
  local p u
  for p in $(pbemd_mail_ports); do
    case "$p" in ''|*[!0-9]*) echo "port $p is not a number" >&2; return 1 ;; esac
  done
  case "$PBEMD_MAIL_DOMAIN" in ''|*[!a-z0-9.-]*) echo "PBEMD_MAIL_DOMAIN $PBEMD_MAIL_DOMAIN: letters, digits, dots and dashes only" >&2; return 1 ;; esac
  for u in $PBEMD_MAIL_USERS; do
    case "$u" in
      *:*) ;;
      *) echo "PBEMD_MAIL_USERS entry $u is not local:password" >&2; return 1 ;;
    esac
    case "${u%%:*}" in ''|*[!a-z0-9._-]*) echo "account ${u%%:*}: letters, digits, dot, dash, underscore only (+ is the detail separator)" >&2; return 1 ;; esac
  done
}

# The servers run as the users postfix and mail: every folder above
# PBEMD_MAIL_DIR must let others pass (a test's private temp folder does not).
pbemd_mail_check_dir() {
  local d=$PBEMD_MAIL_DIR perm
  while [ "$d" != / ] && [ "$d" != . ]; do
    d=$(dirname "$d")
    [ -d "$d" ] || continue
    perm=$(stat -c %a "$d")
    if [ $(( 8#$perm & 1 )) = 0 ]; then
      echo "PBEMD_MAIL_DIR $PBEMD_MAIL_DIR: the folder $d (mode $perm) does not let the postfix and mail users through; choose a state folder under /tmp or another open folder" >&2
      return 1
    fi
  done
}
