#!/bin/bash
# Postfix 3.7 (Debian 12) for pbemd's real-server tests: SMTP on
# 127.0.0.1:10025, mail for gm@ and p1@example.test handed to Dovecot LMTP
# on 127.0.0.1:10024, SMTP AUTH (PLAIN, LOGIN) checked by Dovecot on
# 127.0.0.1:10026, no chroot, no TLS, never delivers anywhere else, logs to
# /var/log/postfix.log. It owns /etc/postfix: it refuses to overwrite a
# main.cf it did not write unless PBEMD_CI_FORCE=1.
# Usage: postfix-config.sh            (then: postfix start-fg)
set -euo pipefail
MARK="# written by pbemd .ci/mail/postfix-config.sh"
if [ -f /etc/postfix/main.cf ] && ! grep -qF "$MARK" /etc/postfix/main.cf && [ "${PBEMD_CI_FORCE:-}" != 1 ]; then
  echo "postfix-config.sh: /etc/postfix/main.cf was not written by pbemd; set PBEMD_CI_FORCE=1 to replace it" >&2
  exit 1
fi
cat > /etc/postfix/main.cf <<M
$MARK
compatibility_level = 3.6
myhostname = mx.example.test
mydomain = example.test
myorigin = \$myhostname
inet_interfaces = loopback-only
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
mydestination =
local_recipient_maps =
alias_maps =
alias_database =
recipient_delimiter = +
virtual_mailbox_domains = example.test
virtual_mailbox_maps = texthash:/etc/postfix/vmailbox
virtual_transport = lmtp:inet:127.0.0.1:10024
smtpd_sasl_auth_enable = yes
smtpd_sasl_type = dovecot
smtpd_sasl_path = inet:127.0.0.1:10026
smtpd_sasl_security_options = noanonymous
smtpd_relay_restrictions = permit_mynetworks, permit_sasl_authenticated, reject_unauth_destination
default_transport = error:outbound delivery disabled in tests
relay_transport = error:outbound delivery disabled in tests
smtpd_banner = \$myhostname ESMTP
maillog_file = /var/log/postfix.log
smtputf8_enable = no
message_size_limit = 10485760
M
printf 'gm@example.test ok\np1@example.test ok\n' > /etc/postfix/vmailbox
# replace the public port-25 listener by a loopback one on 10025, no chroot
postconf -MX smtp/inet 2>/dev/null || true
postconf -M '127.0.0.1:10025/inet=127.0.0.1:10025 inet n - n - - smtpd'
postconf -F '*/*/chroot = n'
postfix check
