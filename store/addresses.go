package store

// Known addresses: every address the daemon has mailed as someone it
// knows (a player, an observer, a GM: a mail that carries their reply
// token). A mail from an address outside this set that proves nothing
// (no token, no password) comes from a stranger, whom the daemon answers
// at most once a day.
//
// Bucket:
//
//	addresses  lower-case address → 1
var bucketAddresses = registerBucket([]byte("addresses"))

// NoteAddress remembers an address as known (it is idempotent).
func (tx *Tx) NoteAddress(addr string) error {
	k := mailKey(addr)
	b := tx.bucket(bucketAddresses)
	if b.Get(k) != nil {
		return nil
	}
	return b.Put(k, []byte{1})
}

// KnownAddress reports whether NoteAddress was called for addr.
func (tx *Tx) KnownAddress(addr string) bool {
	return addr != "" && tx.bucket(bucketAddresses).Get(mailKey(addr)) != nil
}
