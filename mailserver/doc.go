// Package mailserver is the embedded IMAP + SMTP server that lets pbemd
// run with no mail account at all (`pbemd serve` on its defaults, `pbemd
// demo`, and the tests of every package that speaks mail). It is a small
// mail server for one machine, not a mail client: the daemon reaches it
// through package mailer like any other server.
//
// What it does:
//
//   - listens on loopback only (Config.Validate refuses anything else:
//     passwords and mail cross it in clear);
//   - SMTP takes mail from anyone on the machine, with or without AUTH
//     (PLAIN, LOGIN), for recipients at its domain only (no relaying);
//     it offers SMTPUTF8 (RFC 6531) and refuses a non-ASCII sender or
//     recipient given without it (553 5.6.7);
//     each delivered copy gets Return-Path, Delivered-To (the recipient as
//     given, +tag included) and Received on top; gm+tag@domain is
//     delivered to gm@domain;
//   - IMAP4rev1/rev2 with the extensions a mail client needs (folders,
//     APPEND, COPY, MOVE, SEARCH, IDLE, UIDPLUS, STATUS=SIZE);
//   - keeps everything in its own bbolt file (Config.StateFile; a
//     temporary one when empty): accounts, folders, flags, UIDs and
//     UIDVALIDITY survive a restart. Memory holds per message only its
//     UID, date, size and flags; contents are read from the file on
//     FETCH or SEARCH, a piece at a time, and one mail sent to several
//     mailboxes (or copied) is stored once;
//   - quotas per mailbox (an account with all its folders) and in total,
//     in bytes and in messages: over them SMTP answers 452 4.2.2 (mailbox
//     full, try later), 552 5.2.2 (larger than the mailbox can ever
//     hold) or 452 4.3.1 (server full); IMAP answers NO [OVERQUOTA];
//   - accounts of three kinds (see auth.go): system accounts (the
//     daemon's and the site GM's) with generated passwords kept in a file
//     of mode 0600, configured accounts with their own passwords, and
//     automatic accounts for any other address, created on first use,
//     whose password is the local part or Config.PlayerPassword. Local
//     parts are case-insensitive everywhere (login, AUTH, RCPT, the
//     local-part password);
//   - failed logins are throttled (throttle.go): an account with a
//     password of its own is refused for a while after 5 wrong ones in a
//     row (IMAP NO [UNAVAILABLE], SMTP 454 4.7.0, with no bcrypt run),
//     and the server as a whole runs at most 20 failing bcrypt checks at
//     once, then one a second; a system account's generated password
//     opens it even while it is throttled, and a password that passed
//     bcrypt before needs none again, so a flood does not lock out the
//     daemon or those who know their password;
//   - Usage tells the embedding program how full an account and the
//     server are (there is no IMAP QUOTA), so that it can warn in time.
//
// What it must never do: import another pbemd package (it knows no game,
// player, store or mail client); listen off loopback; relay mail to
// another domain; store a password in clear (bcrypt hashes only, none for
// automatic accounts) or compare one in variable time; let a local-part
// password or player_password open a system account; keep mail contents
// in memory; or take mail over a quota.
package mailserver
