package store

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	"go.etcd.io/bbolt"
)

// Retention: a mail that was sent or given up is pruned once it is older
// than the operator's retention. Its outbox entry, body and all, is
// deleted, and a compact record of it stays in mail-records/ (Message-ID,
// recipients, subject, attempts, when it was queued and sent, the digest of
// the bytes sent), so that exactly-once and the audit trail hold and the
// outbox holds only the retention's worth of mail.
//
//	done/<time sent or failed, 8 bytes><id>   a mail that may be pruned
//	meta/"done-index"                         present once done/ holds every such mail
//	mail-records/<id/64>                      the records of pruned mails (mailrecords.go)
//	meta/"mail-records"                       present once no pruned mail is left in outbox/
const (
	kDoneIndex   = "done-index"
	bMailRecords = "mail-records"
	kMailRecords = "mail-records"
)

// moveOldPruned moves the mails an older umpire pruned in place (their
// emptied entries left in outbox/) to mail-records/, once.
func (tx *Tx) moveOldPruned() error {
	meta := tx.bucket(bMeta)
	if meta.Get([]byte(kMailRecords)) != nil {
		return nil
	}
	outbox := tx.bucket(bOutbox)
	var pruned []Mail
	err := outbox.ForEach(func(k, v []byte) error {
		var m Mail
		if err := json.Unmarshal(v, &m); err != nil {
			return fmt.Errorf("mail %d: %w", be64(k), err)
		}
		if !m.Pruned.IsZero() {
			pruned = append(pruned, m)
		}
		return nil
	})
	if err == nil {
		err = tx.moveToRecords(outbox, pruned)
	}
	if err != nil {
		return fmt.Errorf("move pruned mail to its records: %w", err)
	}
	return meta.Put([]byte(kMailRecords), []byte{1})
}

func doneKey(at time.Time, id uint64) []byte {
	return binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(nil, uint64(max(at.UnixNano(), 0))), id)
}

// indexDone records that mail m, just sent or given up, may be pruned, and
// forgets its rendering.
func (tx *Tx) indexDone(m Mail) error {
	if err := tx.dropRendered(m.ID); err != nil {
		return err
	}
	at := m.Sent
	if m.State == MailFailed {
		at = m.Failed
	}
	done, err := tx.lazyBucket(bDone)
	if err != nil {
		return err
	}
	return done.Put(doneKey(at, m.ID), nil)
}

// backfillDone adds to done/ the mails an older umpire sent before it
// existed, once.
func (tx *Tx) backfillDone() error {
	meta := tx.bucket(bMeta)
	if meta.Get([]byte(kDoneIndex)) != nil {
		return nil
	}
	done, err := tx.lazyBucket(bDone)
	if err != nil {
		return err
	}
	err = tx.bucket(bOutbox).ForEach(func(k, v []byte) error {
		var m Mail
		if _, err := getJSON(tx.bucket(bOutbox), k, &m); err != nil {
			return err
		}
		switch {
		case !m.Pruned.IsZero():
		case m.State == MailSent:
			return done.Put(doneKey(m.Sent, m.ID), nil)
		case m.State == MailFailed:
			return done.Put(doneKey(m.Failed, m.ID), nil)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("index sent mail: %w", err)
	}
	return meta.Put([]byte(kDoneIndex), []byte{1})
}

// Prune replaces up to limit mails sent or given up before before (limit
// <= 0: all), oldest first, by their records, stamped pruned at now, and
// returns how many it pruned and whether more are due. Mail and
// MailByMessageID still find a pruned mail, without its body.
func (tx *Tx) Prune(before, now time.Time, limit int) (int, bool, error) {
	if err := tx.backfillDone(); err != nil {
		return 0, false, fmt.Errorf("prune: %w", err)
	}
	if err := tx.moveOldPruned(); err != nil {
		return 0, false, fmt.Errorf("prune: %w", err)
	}
	done := tx.bucket(bDone)
	if done == nil {
		return 0, false, nil
	}
	outbox := tx.bucket(bOutbox)
	var keys [][]byte
	c := done.Cursor()
	for k, _ := c.First(); len(k) == 16; k, _ = c.Next() {
		if !time.Unix(0, int64(be64(k[:8]))).Before(before) {
			break
		}
		if limit > 0 && len(keys) == limit {
			return tx.prune(outbox, done, keys, now, true)
		}
		keys = append(keys, append([]byte(nil), k...))
	}
	return tx.prune(outbox, done, keys, now, false)
}

func (tx *Tx) prune(outbox, done *bbolt.Bucket, keys [][]byte, now time.Time, more bool) (int, bool, error) {
	var pruned []Mail
	for _, k := range keys {
		id := be64(k[8:])
		var m Mail
		ok, err := getJSON(outbox, k[8:], &m)
		if err != nil {
			return 0, false, fmt.Errorf("prune mail %d: %w", id, err)
		}
		if ok && m.State != MailQueued && m.State != MailHeld {
			if m.Pruned.IsZero() {
				m.Pruned = now
			}
			pruned = append(pruned, m)
		}
		if err := done.Delete(k); err != nil {
			return 0, false, fmt.Errorf("prune mail %d: %w", id, err)
		}
	}
	if err := tx.moveToRecords(outbox, pruned); err != nil {
		return 0, false, fmt.Errorf("prune: %w", err)
	}
	return len(keys), more, nil
}

// LaneStats is the state of one lane of the outbox.
type LaneStats struct {
	// Queued is how many mails wait in the lane (due or waiting for a
	// retry), Rendered how many of them are rendered already.
	Queued int `json:"queued"`
	// Oldest is when the mail that has waited longest was queued (zero
	// when the lane is empty).
	Oldest time.Time `json:"oldest,omitzero"`
}

// OutboxStats is the state of the outbox, for monitoring.
type OutboxStats struct {
	Lanes map[Lane]LaneStats `json:"lanes"`
	// Held is how many mails are held back (the reply limit).
	Held int `json:"held"`
	// Rendered is how many queued mails are rendered, Pictures how many
	// distinct map pictures they show.
	Rendered int `json:"rendered"`
	Pictures int `json:"pictures"`
}

// OutboxStats counts the outbox: its cost grows with the mails waiting,
// not with the mails ever sent.
func (tx *Tx) OutboxStats() (OutboxStats, error) {
	st := OutboxStats{Lanes: map[Lane]LaneStats{}}
	count := func(name string) int {
		if b := tx.bucket(name); b != nil {
			return b.Stats().KeyN
		}
		return 0
	}
	for _, lane := range Lanes {
		name := bQueue
		if lane == LaneReports {
			name = bQueueReports
		}
		ls := LaneStats{Queued: count(name)}
		if b := tx.bucket(name); b != nil {
			// Ids grow with time: the first mail waiting is the oldest
			// (a retried one keeps its place).
			if k, _ := b.Cursor().First(); k != nil {
				m, err := tx.Mail(be64(k))
				if err != nil {
					return st, fmt.Errorf("outbox stats: %w", err)
				}
				ls.Oldest = m.Queued
			}
		}
		st.Lanes[lane] = ls
	}
	st.Held, st.Rendered, st.Pictures = count(bHeld), count(bRendered), count(bPictureRefs)
	return st, nil
}
