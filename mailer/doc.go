// Package mailer moves mail between the daemon and the world: IMAP in
// (Fetcher), SMTP out (Sender), MIME both ways (ParseMail, Compose). It is
// a client only: the embedded IMAP + SMTP server that lets pbemd run with
// no mail account is package mailserver, which the tests here use as the
// server on loopback.
//
// It knows no games, no players and no store: durable state reaches it
// through two small interfaces implemented over the store (Queue, by
// package outbox; InboxState, for checkpoints and failure counts, by
// package server),
// and mail reaches the daemon through a Handler. It must never import
// store, daemon, mailserver or an engine, never listen on a socket (the
// server side is package mailserver), never send mail that is not in the
// outbox, and never mark a mail read before the daemon has committed what
// it caused.
//
// # Guarantees
//
// Inbound mail is handed to the Handler at least once and in UID order;
// the daemon deduplicates by Mail.ID in the transaction that records the
// mail's effects (store.Tx.MarkMailProcessed). A mail that keeps failing is
// set aside after IMAPConfig.MaxFailures attempts and reported, and never
// blocks the mail behind it. A failure the handler marks ErrRetryLater (the
// store cannot write) is never counted: the mail waits, with the mail
// behind it, and is tried again after a backoff.
//
// Mail is deleted only when IMAPConfig.DeleteHandledAfter is set, at most
// once an hour and at most FetcherOptions.CleanupLimit mails a run, and
// only mail the daemon handled that arrived longer ago than that: never
// mail not handled yet (above the checkpoint, even when someone read
// it), never mail set aside, never mail someone flagged. The fetcher also
// watches how full the account is (the server's QUOTA extension, or
// FetcherOptions.Quota) and reports an account at 80% in Health and to
// FetcherOptions.OnQuota.
//
// Outbound mail leaves the outbox only after the server accepted it; it is
// sent twice only if the daemon dies (or the connection breaks) between
// the server's acceptance of the final "." and the commit that records it
// (see Sender).
//
// # Leniencies of ParseMail
//
// Real mail is often malformed; ParseMail reads it the way mail clients
// do, and the tests hold a sample of each case (testdata/mail):
//   - LF line ends are accepted as well as CRLF;
//   - a missing or unparseable Content-Type is text/plain; parameters are
//     salvaged from a broken one;
//   - unknown transfer encodings are read as 8bit; base64 with line
//     breaks, stray characters or missing padding is decoded as far as it
//     goes;
//   - charsets are read by their WHATWG labels (as browsers and mail
//     clients read them: ISO-8859-1 as Windows-1252, GB2312 as GBK) or
//     their IANA names, with golang.org/x/text; invalid bytes in UTF-8
//     text and raw 8-bit header bytes are read as Windows-1252 byte by
//     byte; an unknown charset is read as UTF-8 if valid, else
//     Windows-1252, and is named in Mail.UnknownCharset;
//   - address lists net/mail rejects are split at commas and each piece is
//     parsed alone, keeping anything that looks like an address;
//   - Message-IDs are taken with or without angle brackets; white space,
//     control characters and non-ASCII bytes inside one are dropped
//     ("<a b@x>" is "ab@x") and one over 250 bytes becomes a hash, so it
//     can be written back into In-Reply-To; a mail without one gets
//     "sha256:" and a hash of its bytes; only the newest 20 References are
//     kept;
//   - control characters in a decoded Subject or display name (a CR/LF
//     hidden in an encoded word, a NUL) become spaces; an address with a
//     control character is dropped;
//   - header lines that are not fields (no colon, a blank in the field
//     name) are skipped with their continuation lines; a first field
//     indented by mistake is read without the indent;
//   - RFC 2047 words in an unknown charset are left as they are.
//
// What it refuses: a message that is empty or whose header holds no field
// at all (the Fetcher sets such mail aside at once).
//
// # Loop protection
//
// Mail.NoReply is set for bounces (null Return-Path, From MAILER-DAEMON or
// postmaster), for robots (Auto-Submitted other than "no", Precedence bulk,
// junk, list or auto_reply, X-Autoreply and kin, X-Auto-Response-Suppress
// All, OOF or AutoReply, a no-reply sender such as noreply@ or
// do-not-reply@), for list mail (List-Id, List-Unsubscribe, List-Post,
// X-Mailing-List) and for out-of-office subjects in about twenty languages
// ("Automatic reply:", "Out of Office", "Abwesenheitsnotiz:", "Absence:"),
// matched at the start of the subject only (see outOfOfficePhrases).
package mailer
