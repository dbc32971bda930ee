#!/bin/bash
# Postfix 3.7 (Debian 12) for the test mail servers, as an instance of its
# own: main.cf and master.cf in STATE_DIR/postfix, queue and data under
# STATE_DIR, log in STATE_DIR/postfix.log. It never writes /etc/postfix and
# never touches the machine's own Postfix (start this one with
# `postfix -c STATE_DIR/postfix start-fg`, stop it with `... stop`).
#
# SMTP on 127.0.0.1:$PBEMD_MAIL_SMTP_PORT; mail for the accounts of
# $PBEMD_MAIL_USERS at $PBEMD_MAIL_DOMAIN (and their +detail addresses) is
# handed to Dovecot LMTP on $PBEMD_MAIL_LMTP_PORT; SMTP AUTH (PLAIN, LOGIN)
# is checked by Dovecot on $PBEMD_MAIL_AUTH_PORT, or not needed from
# 127.0.0.0/8; no TLS; mail to any other address is refused with 550 and
# nothing ever leaves the machine. Parameters: see env.sh.
# Usage: postfix-config.sh [STATE_DIR]
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
[ -n "${1:-}" ] && PBEMD_MAIL_DIR=$1
. "$HERE/env.sh"
pbemd_mail_check_params
D=$PBEMD_MAIL_DIR
C=$D/postfix
mkdir -p "$C" "$D/postfix-queue" "$D/postfix-data"
chmod 0755 "$D"
chown root:root "$D/postfix-queue"
chown postfix:postfix "$D/postfix-data"
cat > "$C/main.cf" <<M
# written by pbemd .ci/mail/postfix-config.sh for the test mail servers
compatibility_level = 3.6
queue_directory = $D/postfix-queue
data_directory = $D/postfix-data
syslog_name = postfix-pbemd-$PBEMD_MAIL_SMTP_PORT
maillog_file = $D/postfix.log
maillog_file_prefixes = $D
myhostname = mx.$PBEMD_MAIL_DOMAIN
mydomain = $PBEMD_MAIL_DOMAIN
myorigin = \$myhostname
inet_interfaces = loopback-only
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
mydestination =
local_recipient_maps =
alias_maps =
alias_database =
recipient_delimiter = +
virtual_mailbox_domains = $PBEMD_MAIL_DOMAIN
virtual_mailbox_maps = texthash:$C/vmailbox
virtual_transport = lmtp:inet:127.0.0.1:$PBEMD_MAIL_LMTP_PORT
smtpd_sasl_auth_enable = yes
smtpd_sasl_type = dovecot
smtpd_sasl_path = inet:127.0.0.1:$PBEMD_MAIL_AUTH_PORT
smtpd_sasl_security_options = noanonymous
smtpd_relay_restrictions = permit_mynetworks, permit_sasl_authenticated, reject_unauth_destination
default_transport = error:outbound delivery disabled in tests
relay_transport = error:outbound delivery disabled in tests
smtpd_banner = \$myhostname ESMTP
smtputf8_enable = no
message_size_limit = 10485760
M
# The services this instance runs, none chrooted; the only listener is
# SMTP on loopback.
cat > "$C/master.cf" <<M
# written by pbemd .ci/mail/postfix-config.sh
127.0.0.1:$PBEMD_MAIL_SMTP_PORT inet n - n - - smtpd
pickup     unix  n - n 60   1 pickup
cleanup    unix  n - n -    0 cleanup
qmgr       unix  n - n 300  1 qmgr
rewrite    unix  - - n -    - trivial-rewrite
bounce     unix  - - n -    0 bounce
defer      unix  - - n -    0 bounce
trace      unix  - - n -    0 bounce
verify     unix  - - n -    1 verify
flush      unix  n - n 1000? 0 flush
proxymap   unix  - - n -    - proxymap
proxywrite unix  - - n -    1 proxymap
showq      unix  n - n -    - showq
error      unix  - - n -    - error
retry      unix  - - n -    - error
discard    unix  - - n -    - discard
lmtp       unix  - - n -    - lmtp
anvil      unix  - - n -    1 anvil
scache     unix  - - n -    1 scache
postlog    unix-dgram n - n - 1 postlogd
M
: > "$C/vmailbox"
for u in $PBEMD_MAIL_USERS; do
  echo "${u%%:*}@$PBEMD_MAIL_DOMAIN ok" >> "$C/vmailbox"
done
postfix -c "$C" check
