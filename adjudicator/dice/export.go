package dice

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"
)

// Format is the "format" of every dice log export; Version the export
// format version of umpire-dice-v3 logs, which WriteExport writes and
// VerifyStream reads, with version 2 (umpire-dice-v2 logs).
const (
	Format  = "umpire-dice-log"
	Version = 3
)

// versionV2 is the export format version of umpire-dice-v2 logs.
const versionV2 = 2

type stepStream struct {
	step   uint64
	stream string
}

// WriteExport writes a log's public export (docs/dice-log.md section 9)
// to w, one record to a line, and returns its head: format version 3 for a
// v3 log, 2 for a v2 log, as its header (the first record) says. root is
// the sealed root of an ended game (nil while it runs), revealed the keys
// of its reveal records in log order; next returns the records in order,
// and nil after the last. A hidden draw's values are written only when its
// key is public.
func WriteExport(w io.Writer, root *Hash, revealed []KeyReveal, next func() (*Record, error)) (Hash, error) {
	first, err := next()
	if err != nil {
		return Hash{}, err
	}
	version := Version
	if first != nil && first.Type == TypeHeader && !first.Header.V3() {
		version = versionV2
	}
	read := false
	return writeExport(w, version, root, revealed, func() (*Record, error) {
		if !read {
			read = true
			return first, nil
		}
		return next()
	})
}

func writeExport(w io.Writer, version int, root *Hash, revealed []KeyReveal, next func() (*Record, error)) (Hash, error) {
	e := exportWriter{w: bufio.NewWriterSize(w, 64<<10), public: map[stepStream]bool{}, root: root != nil}
	e.s(`{` + "\n" + ` "format": "umpire-dice-log",` + "\n" + ` "version": ` + strconv.Itoa(version) + `,` + "\n" + ` "sealed_root": `)
	e.hashOrNull(root)
	e.s(",\n \"revealed\": [")
	for i, r := range revealed {
		if i > 0 {
			e.s(", ")
		}
		e.s(`{"step": `)
		e.u(r.Step)
		e.s(`, "stream": `)
		e.str(r.Stream)
		e.s(`, "key": `)
		e.hash(r.Key)
		e.s("}")
		e.public[stepStream{r.Step, r.Stream}] = true
	}
	e.s("],\n \"records\": [")
	var head Hash
	for n := 0; ; n++ {
		r, err := next()
		if err != nil {
			return head, err
		}
		if r == nil {
			break
		}
		if r.Type == TypeHeader && r.Header.V3() != (version == Version) {
			return head, fmt.Errorf("write dice log: a %s header in an export of version %d", r.Header.SchemeName(), version)
		}
		if n > 0 {
			e.s(",")
		}
		e.s("\n  ")
		e.record(r)
		head = r.Head
	}
	e.s("\n ],\n \"head\": ")
	e.hash(head)
	e.s("\n}\n")
	if e.err == nil {
		e.err = e.w.Flush()
	}
	if e.err != nil {
		return head, fmt.Errorf("write dice log: %w", e.err)
	}
	return head, nil
}

type exportWriter struct {
	w      *bufio.Writer
	err    error
	public map[stepStream]bool
	root   bool
	num    []byte
	hx     [64]byte
}

func (e *exportWriter) s(s string) {
	if e.err == nil {
		_, e.err = e.w.WriteString(s)
	}
}

func (e *exportWriter) u(v uint64) {
	e.num = strconv.AppendUint(e.num[:0], v, 10)
	e.w.Write(e.num)
}

func (e *exportWriter) i(v int64) {
	e.num = strconv.AppendInt(e.num[:0], v, 10)
	e.w.Write(e.num)
}

func (e *exportWriter) hash(h Hash) { e.hex(h[:]) }

func (e *exportWriter) hex(b []byte) {
	e.w.WriteByte('"')
	for len(b) > 0 {
		n := min(len(b), 32)
		hex.Encode(e.hx[:], b[:n])
		e.w.Write(e.hx[:2*n])
		b = b[n:]
	}
	e.w.WriteByte('"')
}

func (e *exportWriter) hashOrNull(h *Hash) {
	if h == nil {
		e.s("null")
		return
	}
	e.hash(*h)
}

// str writes s as a JSON string: '"', '\' and control characters escaped,
// everything else as it is. s must be UTF-8.
func (e *exportWriter) str(s string) {
	if !utf8.ValidString(s) && e.err == nil {
		e.err = fmt.Errorf("string %q is not UTF-8", s)
	}
	e.w.WriteByte('"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		e.w.WriteString(s[start:i])
		switch c {
		case '"':
			e.w.WriteString(`\"`)
		case '\\':
			e.w.WriteString(`\\`)
		case '\n':
			e.w.WriteString(`\n`)
		case '\r':
			e.w.WriteString(`\r`)
		case '\t':
			e.w.WriteString(`\t`)
		default:
			e.w.WriteString(`\u00`)
			e.w.WriteByte("0123456789abcdef"[c>>4])
			e.w.WriteByte("0123456789abcdef"[c&15])
		}
		start = i + 1
	}
	e.w.WriteString(s[start:])
	e.w.WriteByte('"')
}

func (e *exportWriter) record(r *Record) {
	e.s(`{"type": "` + r.Type.String() + `", `)
	switch r.Type {
	case TypeHeader:
		h := r.Header
		e.s(`"scheme": "` + h.SchemeName() + `", "game": `)
		e.str(h.Game)
		e.s(`, "rules": `)
		e.str(h.Rules)
		e.s(`, "rules_version": `)
		e.str(h.RulesVersion)
		e.s(`, "chain_length": `)
		e.u(h.ChainLength)
		e.s(`, "open_commitment": `)
		e.hash(h.OpenCommitment)
		e.s(`, "sealed_commitment": `)
		e.hash(h.SealedCommitment)
		e.s(`, "streams": [`)
		for i, n := range h.Streams {
			if i > 0 {
				e.s(", ")
			}
			e.str(n)
		}
		e.s(`], "beacon": `)
		if b := h.Beacon; b == nil {
			e.s("null")
		} else {
			e.s(`{"chain_hash": `)
			e.hash(Hash(b.ChainHash))
			e.s(`, "scheme": `)
			e.str(b.Scheme)
			e.s(`, "public_key": `)
			e.hex(b.PublicKey[:])
			e.s(`, "genesis": `)
			e.u(b.Genesis)
			e.s(`, "period": `)
			e.u(b.Period)
			e.s(`, "delay": `)
			e.u(b.Delay)
			e.s("}")
		}
	case TypeStart:
		e.s(`"seats": [`)
		for i, x := range r.Start.Seats {
			if i > 0 {
				e.s(", ")
			}
			e.s(`{"seat": `)
			e.str(x.Seat)
			e.s(`, "join": `)
			e.hash(x.Join)
			e.s(`, "salt_commitment": `)
			e.hash(x.SaltCommitment)
			e.s("}")
		}
		e.s("]")
	case TypeStep:
		s := r.Step
		e.s(`"step": `)
		e.u(s.K)
		e.s(`, "phase": `)
		e.str(s.Phase)
		e.s(`, "close": `)
		e.u(s.Close)
		e.s(`, "closed_by": "` + s.ClosedBy.String() + `", "orders": [`)
		for i, o := range s.Orders {
			if i > 0 {
				e.s(", ")
			}
			e.s(`{"seat": `)
			e.str(o.Seat)
			e.s(`, "for_step": `)
			e.u(o.ForStep)
			e.s(`, "version": `)
			e.u(o.Version)
			e.s(`, "digest": `)
			e.hash(o.Digest)
			e.s("}")
		}
		e.s(`], "beacon": `)
		if b := s.Round; b == nil {
			e.s("null")
		} else {
			e.s(`{"round": `)
			e.u(b.Round)
			e.s(`, "randomness": `)
			e.hash(Hash(b.Randomness))
			e.s(`, "signature": `)
			e.hex(b.Signature[:])
			e.s("}")
		}
		e.s(`, "open_link": `)
		e.hash(s.OpenLink)
		e.s(`, "digest": `)
		e.hash(s.Digest)
	case TypeDraw:
		d := r.Draw
		e.s(`"seq": `)
		e.u(d.Seq)
		e.s(`, "step": `)
		e.u(d.Step)
		e.s(`, "stream": `)
		e.str(d.Stream)
		e.s(`, "word": `)
		e.u(d.Word)
		e.s(`, "spec": `)
		e.str(d.Spec)
		e.s(`, "values": `)
		if d.Sealed() && (d.Values == nil || !e.root && !e.public[stepStream{d.Step, d.Stream}]) {
			e.s("null")
		} else {
			e.s("[")
			for i, v := range d.Values {
				if i > 0 {
					e.s(", ")
				}
				e.i(v)
			}
			e.s("]")
		}
		e.s(`, "commitment": `)
		if d.Sealed() {
			e.hash(d.Commitment)
		} else {
			e.s("null")
		}
		e.s(`, "purpose": `)
		e.str(d.Purpose)
	case TypeReveal:
		e.s(`"step": `)
		e.u(r.Reveal.Step)
		e.s(`, "stream": `)
		e.str(r.Reveal.Stream)
		e.s(`, "key": `)
		e.hash(r.Reveal.Key)
	case TypeRollback:
		e.s(`"closed": `)
		e.u(r.Rollback.Closed)
		e.s(`, "target": `)
		e.u(r.Rollback.Target)
		e.s(`, "command": `)
		e.hash(r.Rollback.Command)
		e.s(`, "reason": `)
		e.str(r.Rollback.Reason)
	case TypeEnd:
		e.s(`"sealed_root": `)
		e.hash(*r.End)
	}
	e.s(`, "head": `)
	e.hash(r.Head)
	e.s("}")
}
