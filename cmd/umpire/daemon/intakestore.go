package daemon

import (
	"context"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/mail/intake"
	"github.com/umpire-pbem/umpire/store"
)

// intakeStore is the bbolt store as the mail intake uses it.
type intakeStore struct{ db *store.DB }

func (s intakeStore) View(ctx context.Context, fn func(intake.Tx) error) error {
	return s.db.View(ctx, func(tx *store.Tx) error { return fn(intakeTx{tx}) })
}

func (s intakeStore) Update(ctx context.Context, fn func(intake.Tx) error) error {
	return s.db.Update(ctx, func(tx *store.Tx) error { return fn(intakeTx{tx}) })
}

// intakeTx is one store transaction as the mail intake uses it; Judge is
// the store's own.
type intakeTx struct{ *store.Tx }

func (tx intakeTx) Checkpoint(mailbox string) (intake.Checkpoint, error) {
	c, err := tx.Tx.Checkpoint(mailbox)
	return intake.Checkpoint{Mailbox: c.Mailbox, UIDValidity: c.UIDValidity, LastUID: c.LastUID}, err
}

func (tx intakeTx) PutCheckpoint(c intake.Checkpoint) error {
	return tx.Tx.PutCheckpoint(store.Checkpoint{Mailbox: c.Mailbox, UIDValidity: c.UIDValidity, LastUID: c.LastUID})
}

func (tx intakeTx) Taken(digest dice.Hash, messageID string) (intake.Taken, bool, error) {
	c, ok, err := tx.ConsumedRecord(digest, messageID)
	return intake.Taken{MessageID: c.MessageID, Digest: c.Digest, Mailbox: c.Mailbox, UID: c.UID, At: c.At,
		Disposition: c.Disposition}, ok, err
}

func (tx intakeTx) Take(t intake.Taken) error {
	_, err := tx.ConsumeMessage(store.Consumed{MessageID: t.MessageID, Digest: t.Digest, Mailbox: t.Mailbox,
		UID: t.UID, At: t.At, Disposition: t.Disposition})
	return err
}

func (tx intakeTx) Keys() ([]intake.Key, error) {
	ks, err := tx.Tx.Keys()
	out := make([]intake.Key, len(ks))
	for i, k := range ks {
		out[i] = intake.Key{Fingerprint: k.Fingerprint, Public: k.Public}
	}
	return out, err
}

func (tx intakeTx) KeysSince(v uint64) ([]intake.Key, uint64, bool, error) {
	ks, now, ok, err := tx.Tx.KeysSince(v)
	out := make([]intake.Key, len(ks))
	for i, k := range ks {
		out[i] = intake.Key{Fingerprint: k.Fingerprint, Public: k.Public}
	}
	return out, now, ok, err
}

func (tx intakeTx) UpdateKey(fingerprint string, public []byte) error {
	k, err := tx.Tx.Key(fingerprint)
	if err != nil {
		return err
	}
	k.Public = public
	return tx.Tx.PutKey(k)
}

func (tx intakeTx) Quarantine(q intake.Quarantined, raw []byte) (intake.Quarantined, error) {
	s, err := tx.Tx.Quarantine(toStoreQuarantined(q), raw)
	return fromStoreQuarantined(s), err
}

func (tx intakeTx) QuarantinedMessages() ([]intake.Quarantined, error) {
	qs, err := tx.Tx.QuarantinedMessages()
	out := make([]intake.Quarantined, len(qs))
	for i, q := range qs {
		out[i] = fromStoreQuarantined(q)
	}
	return out, err
}

func (tx intakeTx) QuarantinedMessage(id uint64) (intake.Quarantined, []byte, error) {
	q, raw, err := tx.Tx.QuarantinedMessage(id)
	return fromStoreQuarantined(q), raw, err
}

func (tx intakeTx) PutQuarantined(q intake.Quarantined) error {
	return tx.Tx.PutQuarantined(toStoreQuarantined(q))
}

func toStoreQuarantined(q intake.Quarantined) store.Quarantined {
	return store.Quarantined{ID: q.ID, Digest: q.Digest, MessageID: q.MessageID, From: q.From, Subject: q.Subject,
		Mailbox: q.Mailbox, UID: q.UID, Size: q.Size, At: q.At, Reason: q.Reason, Tries: q.Tries, State: q.State,
		Done: q.Done, Disposition: q.Disposition}
}

func fromStoreQuarantined(q store.Quarantined) intake.Quarantined {
	return intake.Quarantined{ID: q.ID, Digest: q.Digest, MessageID: q.MessageID, From: q.From, Subject: q.Subject,
		Mailbox: q.Mailbox, UID: q.UID, Size: q.Size, At: q.At, Reason: q.Reason, Tries: q.Tries, State: q.State,
		Done: q.Done, Disposition: q.Disposition}
}
