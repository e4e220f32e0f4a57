package store

import (
	"bytes"
	"cmp"
	"compress/flate"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"time"

	"go.etcd.io/bbolt"
)

// The records of pruned mails. What stays of a mail once its retention is
// over is a few hundred bytes of JSON, most of it alike from one mail to
// the next (the sender, the subject's pattern, the Message-ID's host). A
// year of a league's mail would still be gigabytes of them, so records are
// kept in chunks of recordsPerChunk consecutive ids, each chunk one
// compressed JSON array:
//
//	mail-records/<id/recordsPerChunk>   flate(JSON [mailRecord, ...]), by id
//
// Ids are handed out in the order mail is queued and mail is pruned in the
// order it was sent, so a chunk fills within a prune or two and is rarely
// rewritten after; its pages are written full.
const recordsPerChunk = 64

// recordFill is how full the pages of mail-records/ are written: chunks are
// appended at the end and seldom change, so full pages stay full, where
// bbolt's default (half full) would double their room.
const recordFill = 0.95

// mailRecord is what stays of a pruned mail: every field of Mail but its
// body and its References, under short names, times in Unix nanoseconds.
type mailRecord struct {
	ID        uint64    `json:"i"`
	MessageID string    `json:"m"`
	Kind      MailKind  `json:"k,omitempty"`
	Game      string    `json:"g,omitempty"`
	To        []string  `json:"t,omitempty"`
	From      string    `json:"f,omitempty"`
	Subject   string    `json:"s,omitempty"`
	InReplyTo string    `json:"r,omitempty"`
	State     MailState `json:"st"`
	Attempts  int       `json:"a,omitempty"`
	LastError string    `json:"e,omitempty"`
	Lane      Lane      `json:"l,omitempty"`
	Digest    string    `json:"d,omitempty"`
	Queued    int64     `json:"q,omitempty"`
	Sent      int64     `json:"x,omitempty"`
	Failed    int64     `json:"fa,omitempty"`
	Pruned    int64     `json:"p"`
}

func unixNano(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func fromUnixNano(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

func recordOf(m Mail) mailRecord {
	return mailRecord{ID: m.ID, MessageID: m.MessageID, Kind: m.Kind, Game: m.Game, To: m.To, From: m.From,
		Subject: m.Subject, InReplyTo: m.InReplyTo, State: m.State, Attempts: m.Attempts, LastError: m.LastError,
		Lane: m.Lane, Digest: m.Digest, Queued: unixNano(m.Queued), Sent: unixNano(m.Sent), Failed: unixNano(m.Failed),
		Pruned: unixNano(m.Pruned)}
}

func (r mailRecord) mail() Mail {
	return Mail{ID: r.ID, MessageID: r.MessageID, Kind: r.Kind, Game: r.Game, To: r.To, From: r.From,
		Subject: r.Subject, InReplyTo: r.InReplyTo, State: r.State, Attempts: r.Attempts, LastError: r.LastError,
		Lane: r.Lane, Digest: r.Digest, Queued: fromUnixNano(r.Queued), Sent: fromUnixNano(r.Sent),
		Failed: fromUnixNano(r.Failed), Pruned: fromUnixNano(r.Pruned)}
}

// recordChunk is one decoded chunk, kept by the transaction that read it
// last, so that reading a run of pruned mails decodes each chunk once.
type recordChunk struct {
	n       uint64
	records []mailRecord
}

// chunk reads chunk n (empty when there is none).
func (tx *Tx) chunk(n uint64) (*recordChunk, error) {
	if c := tx.records; c != nil && c.n == n {
		return c, nil
	}
	c := &recordChunk{n: n}
	if b := tx.bucket(bMailRecords); b != nil {
		if data := b.Get(u64(n)); data != nil {
			raw, err := io.ReadAll(flate.NewReader(bytes.NewReader(data)))
			if err == nil {
				err = json.Unmarshal(raw, &c.records)
			}
			if err != nil {
				return nil, fmt.Errorf("mail records %d to %d: %w", n*recordsPerChunk, (n+1)*recordsPerChunk-1, err)
			}
		}
	}
	tx.records = c
	return c, nil
}

// prunedMail reads the record of pruned mail id.
func (tx *Tx) prunedMail(id uint64) (Mail, bool, error) {
	c, err := tx.chunk(id / recordsPerChunk)
	if err != nil {
		return Mail{}, false, err
	}
	i, ok := slices.BinarySearchFunc(c.records, id, func(r mailRecord, id uint64) int { return cmp.Compare(r.ID, id) })
	if !ok {
		return Mail{}, false, nil
	}
	return c.records[i].mail(), true, nil
}

// moveToRecords replaces the outbox entries of mails ms, pruned, by their
// records.
func (tx *Tx) moveToRecords(outbox *bbolt.Bucket, ms []Mail) error {
	if len(ms) == 0 {
		return nil
	}
	b, err := tx.lazyBucket(bMailRecords)
	if err != nil {
		return err
	}
	b.FillPercent = recordFill
	ms = slices.SortedFunc(slices.Values(ms), func(a, b Mail) int { return cmp.Compare(a.ID, b.ID) })
	var buf bytes.Buffer
	zw, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		return err
	}
	for len(ms) > 0 {
		n := ms[0].ID / recordsPerChunk
		end := 1
		for end < len(ms) && ms[end].ID/recordsPerChunk == n {
			end++
		}
		c, err := tx.chunk(n)
		if err != nil {
			return err
		}
		merged := &recordChunk{n: n, records: slices.Clone(c.records)}
		for _, m := range ms[:end] {
			r := recordOf(m)
			i, found := slices.BinarySearchFunc(merged.records, r.ID, func(r mailRecord, id uint64) int { return cmp.Compare(r.ID, id) })
			if found {
				merged.records[i] = r
			} else {
				merged.records = slices.Insert(merged.records, i, r)
			}
			if err := outbox.Delete(u64(m.ID)); err != nil {
				return fmt.Errorf("mail %d: %w", m.ID, err)
			}
		}
		raw, err := json.Marshal(merged.records)
		if err != nil {
			return err
		}
		buf.Reset()
		zw.Reset(&buf)
		if _, err := zw.Write(raw); err != nil {
			return err
		}
		if err := zw.Close(); err != nil {
			return err
		}
		if err := b.Put(u64(n), bytes.Clone(buf.Bytes())); err != nil {
			return fmt.Errorf("mail records %d to %d: %w", n*recordsPerChunk, (n+1)*recordsPerChunk-1, err)
		}
		tx.records = merged
		ms = ms[end:]
	}
	return nil
}
