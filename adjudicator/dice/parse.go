package dice

import (
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator/beacon"
)

// Export is a v2 or v3 export read whole: for replays and tools, after
// VerifyStream has checked it (ParseExport itself is lenient).
type Export struct {
	Version    int
	SealedRoot *Hash
	Revealed   []KeyReveal
	Records    []Record
}

// ParseExport reads a v2 or v3 export into records. It checks only what it
// needs to read them: verify the export with VerifyStream first.
func ParseExport(data []byte) (*Export, error) {
	var bad error
	var x struct {
		Version    int   `json:"version"`
		SealedRoot *Hash `json:"sealed_root"`
		Revealed   []struct {
			Step   uint64 `json:"step"`
			Stream string `json:"stream"`
			Key    Hash   `json:"key"`
		} `json:"revealed"`
		Records []map[string]json.RawMessage `json:"records"`
	}
	if err := json.Unmarshal(data, &x); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotLog, err)
	}
	var revealed []KeyReveal
	for _, r := range x.Revealed {
		revealed = append(revealed, KeyReveal{Step: r.Step, Stream: r.Stream, Key: r.Key})
	}
	get := func(m map[string]json.RawMessage, k string, v any) {
		if err := json.Unmarshal(m[k], v); err != nil && bad == nil {
			bad = fmt.Errorf("%w: %s: %w", ErrNotLog, k, err)
		}
	}
	hexBytes := func(m map[string]json.RawMessage, k string) []byte {
		var s string
		get(m, k, &s)
		b, err := hex.DecodeString(s)
		if err != nil && bad == nil {
			bad = fmt.Errorf("%w: %s: %w", ErrNotLog, k, err)
		}
		return b
	}
	var recs []Record
	for _, m := range x.Records {
		var typ string
		get(m, "type", &typ)
		var r Record
		switch typ {
		case "header":
			h := &Header{}
			get(m, "scheme", &h.Scheme)
			if h.Scheme == schemeV2 {
				h.Scheme = ""
			}
			get(m, "game", &h.Game)
			get(m, "rules", &h.Rules)
			get(m, "rules_version", &h.RulesVersion)
			get(m, "chain_length", &h.ChainLength)
			get(m, "open_commitment", &h.OpenCommitment)
			get(m, "sealed_commitment", &h.SealedCommitment)
			get(m, "streams", &h.Streams)
			if string(m["beacon"]) != "null" {
				var b map[string]json.RawMessage
				get(m, "beacon", &b)
				h.Beacon = &beacon.Chain{}
				get(b, "chain_hash", &h.Beacon.ChainHash)
				get(b, "scheme", &h.Beacon.Scheme)
				copy(h.Beacon.PublicKey[:], hexBytes(b, "public_key"))
				get(b, "genesis", &h.Beacon.Genesis)
				get(b, "period", &h.Beacon.Period)
				get(b, "delay", &h.Beacon.Delay)
			}
			r = Record{Type: TypeHeader, Header: h}
		case "start":
			var seats []map[string]json.RawMessage
			get(m, "seats", &seats)
			st := &Start{}
			for _, e := range seats {
				var x StartSeat
				get(e, "seat", &x.Seat)
				get(e, "join", &x.Join)
				get(e, "salt_commitment", &x.SaltCommitment)
				st.Seats = append(st.Seats, x)
			}
			r = Record{Type: TypeStart, Start: st}
		case "step":
			s := &Step{}
			get(m, "step", &s.K)
			get(m, "phase", &s.Phase)
			get(m, "close", &s.Close)
			var cb string
			get(m, "closed_by", &cb)
			s.ClosedBy = map[string]ClosedBy{"deadline": ClosedByDeadline, "ready": ClosedByReady, "gm": ClosedByGM}[cb]
			var orders []map[string]json.RawMessage
			get(m, "orders", &orders)
			s.Orders = []OrderEntry{}
			for _, o := range orders {
				var e OrderEntry
				get(o, "seat", &e.Seat)
				get(o, "for_step", &e.ForStep)
				get(o, "version", &e.Version)
				get(o, "digest", &e.Digest)
				s.Orders = append(s.Orders, e)
			}
			if string(m["beacon"]) != "null" {
				var b map[string]json.RawMessage
				get(m, "beacon", &b)
				s.Round = &beacon.Round{}
				get(b, "round", &s.Round.Round)
				get(b, "randomness", &s.Round.Randomness)
				copy(s.Round.Signature[:], hexBytes(b, "signature"))
			}
			get(m, "open_link", &s.OpenLink)
			get(m, "digest", &s.Digest)
			r = Record{Type: TypeStep, Step: s}
		case "draw":
			d := &Draw{}
			get(m, "seq", &d.Seq)
			get(m, "step", &d.Step)
			get(m, "stream", &d.Stream)
			get(m, "word", &d.Word)
			get(m, "spec", &d.Spec)
			get(m, "values", &d.Values)
			if string(m["commitment"]) != "null" {
				get(m, "commitment", &d.Commitment)
			}
			get(m, "purpose", &d.Purpose)
			r = Record{Type: TypeDraw, Draw: d}
		case "reveal":
			rv := &KeyReveal{}
			get(m, "step", &rv.Step)
			get(m, "stream", &rv.Stream)
			get(m, "key", &rv.Key)
			r = Record{Type: TypeReveal, Reveal: rv}
		case "rollback":
			rb := &Rollback{}
			get(m, "closed", &rb.Closed)
			get(m, "target", &rb.Target)
			get(m, "command", &rb.Command)
			get(m, "reason", &rb.Reason)
			r = Record{Type: TypeRollback, Rollback: rb}
		case "end":
			var root Hash
			get(m, "sealed_root", &root)
			r = Record{Type: TypeEnd, End: &root}
		default:
			if bad == nil {
				bad = fmt.Errorf("%w: record type %q", ErrNotLog, typ)
			}
			continue
		}
		get(m, "head", &r.Head)
		recs = append(recs, r)
	}
	if bad != nil {
		return nil, bad
	}
	return &Export{Version: x.Version, SealedRoot: x.SealedRoot, Revealed: revealed, Records: recs}, nil
}
