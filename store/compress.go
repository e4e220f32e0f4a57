package store

import (
	"bytes"
	"compress/flate"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"go.etcd.io/bbolt"
)

// What the outbox keeps while a mail waits and through its retention (the
// body, a report's rendering) is text of a few kilobytes, and a record of
// more than a page takes a run of pages that must lie together in the
// file: at a league's scale the free pages split into runs too short for
// them, and the file grows though it has room. Compressed, nearly every
// record fits in a page, and the retention's mail takes a third of the
// room.

// compressFrom is the size from which a body or record is compressed.
const compressFrom = 512

// zMagic begins a record stored compressed (putZJSON); JSON never begins
// with a zero byte.
var zMagic = []byte{0, 'z'}

var flateWriters = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(nil, flate.BestSpeed) // the level is valid: no error
	return w
}}

// deflate returns data compressed, and whether that is smaller.
func deflate(prefix, data []byte) ([]byte, bool) {
	var buf bytes.Buffer
	buf.Grow(len(prefix) + len(data)/2)
	buf.Write(prefix)
	w := flateWriters.Get().(*flate.Writer)
	defer flateWriters.Put(w)
	w.Reset(&buf)
	if _, err := w.Write(data); err != nil {
		return nil, false
	}
	if err := w.Close(); err != nil {
		return nil, false
	}
	return buf.Bytes(), buf.Len() < len(prefix)+len(data)
}

// inflate returns data decompressed.
func inflate(data []byte) ([]byte, error) {
	r := flate.NewReader(bytes.NewReader(data))
	defer r.Close()
	out, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("decompress: %w", err)
	}
	return out, nil
}

// putZJSON stores v as JSON under key, compressed when that saves room;
// getJSON reads it either way.
func putZJSON(b *bbolt.Bucket, key []byte, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if len(data) >= compressFrom {
		if z, ok := deflate(zMagic, data); ok {
			data = z
		}
	}
	return b.Put(key, data)
}

// outboxRecord is a Mail as outbox/ keeps it: a body of compressFrom bytes
// or more compressed in BodyZ (Body then empty).
type outboxRecord struct {
	Mail
	BodyZ []byte `json:"body_z,omitempty"`
}

// putMail stores m in outbox/, its body compressed when that saves room.
func putMail(b *bbolt.Bucket, m Mail) error {
	rec := outboxRecord{Mail: m}
	if len(m.Body) >= compressFrom {
		if z, ok := deflate(nil, m.Body); ok {
			rec.Body, rec.BodyZ = nil, z
		}
	}
	return putJSON(b, u64(m.ID), rec)
}

// getRecord reads mail id's outbox record as kept (its body still
// compressed).
func getRecord(b *bbolt.Bucket, id uint64) (outboxRecord, bool, error) {
	var rec outboxRecord
	ok, err := getJSON(b, u64(id), &rec)
	return rec, ok, err
}

// getMail reads mail id from outbox/, its body decompressed.
func getMail(b *bbolt.Bucket, id uint64) (Mail, bool, error) {
	rec, ok, err := getRecord(b, id)
	if err != nil || !ok {
		return rec.Mail, ok, err
	}
	if rec.BodyZ != nil {
		if rec.Body, err = inflate(rec.BodyZ); err != nil {
			return rec.Mail, true, fmt.Errorf("mail %d: body: %w", id, err)
		}
	}
	return rec.Mail, true, nil
}
