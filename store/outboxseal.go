package store

// SealRaw seals m.Raw ahead of EnqueueMail, which then stores what it
// sealed (m.Raw must not change in between). It reads nothing of the
// store but its key, so the mails one transaction queues may be sealed on
// every core at once (a deadline burst queues thousands), while
// EnqueueMail itself runs on one.
func (tx *Tx) SealRaw(m *OutboxMessage) error {
	sealed, err := tx.sealMail(m.Raw)
	if err != nil {
		return err
	}
	m.sealed = sealed
	return nil
}
