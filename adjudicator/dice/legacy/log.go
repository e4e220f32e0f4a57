package legacy

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// StreamKind names one of an umpire-dice-v1 step's two streams.
type StreamKind uint8

// The two streams of a v1 step.
const (
	// StreamOpen is the stream of open[k]: ordinary dice and chits,
	// revealed in the step's report.
	StreamOpen StreamKind = 0
	// StreamSealed is the stream of sealed[k]: shuffles, deals and hidden
	// chits, revealed only when that can no longer leak hidden information.
	StreamSealed StreamKind = 1
)

// String returns "open" or "sealed".
func (k StreamKind) String() string {
	if k == StreamSealed {
		return "sealed"
	}
	return "open"
}

// ParseStreamKind parses "open" or "sealed".
func ParseStreamKind(s string) (StreamKind, error) {
	switch s {
	case "open":
		return StreamOpen, nil
	case "sealed":
		return StreamSealed, nil
	}
	return 0, fmt.Errorf("stream %q is neither open nor sealed", s)
}

// Entry is one logged draw of an umpire-dice-v1 log.
type Entry struct {
	Seq     uint64 // counts entries from 1 across the whole game
	Step    uint64 // the adjudication step k whose links were used
	Stream  StreamKind
	Word    uint64 // index of the first word the draw read
	Spec    string // canonical Spec text
	Values  []int64
	Purpose string // a sentence a player can read, with the rule number
}

// AppendBinary appends E_i, the entry's hashed encoding:
//
//	u64be(seq) || u64be(step) || u8(stream) || u64be(word) ||
//	u32be(len(spec)) || spec || u32be(count) || i64be(v_1) || ... ||
//	u32be(len(purpose)) || purpose
func (e *Entry) AppendBinary(b []byte) []byte {
	b = binary.BigEndian.AppendUint64(b, e.Seq)
	b = binary.BigEndian.AppendUint64(b, e.Step)
	b = append(b, byte(e.Stream))
	b = binary.BigEndian.AppendUint64(b, e.Word)
	b = binary.BigEndian.AppendUint32(b, uint32(len(e.Spec)))
	b = append(b, e.Spec...)
	b = binary.BigEndian.AppendUint32(b, uint32(len(e.Values)))
	for _, v := range e.Values {
		b = binary.BigEndian.AppendUint64(b, uint64(v))
	}
	b = binary.BigEndian.AppendUint32(b, uint32(len(e.Purpose)))
	b = append(b, e.Purpose...)
	return b
}

// LogStart returns h_0 = SHA-256("umpire-log-v1" || open[0] || sealed[0]).
func LogStart(open0, sealed0 dice.Hash) dice.Hash {
	b := make([]byte, 0, len(logTag)+64)
	b = append(b, logTag...)
	b = append(b, open0[:]...)
	b = append(b, sealed0[:]...)
	return sha256.Sum256(b)
}

const logTag = "umpire-log-v1"

// NextHash returns h_i = SHA-256(h_(i-1) || E_i).
func NextHash(prev dice.Hash, e *Entry) dice.Hash {
	b := make([]byte, 0, 32+64+len(e.Spec)+len(e.Purpose)+8*len(e.Values))
	b = append(b, prev[:]...)
	return sha256.Sum256(e.AppendBinary(b))
}

// EntryRecord is a logged v1 entry with its chain hash h_i.
type EntryRecord struct {
	Entry
	Hash dice.Hash
}

// Log appends entries to a game's hash-chained dice log.
type Log struct {
	head dice.Hash
	seq  uint64
}

// NewLog starts the log of a game with the given commitments.
func NewLog(open0, sealed0 dice.Hash) *Log { return &Log{head: LogStart(open0, sealed0)} }

// ResumeLog continues a log whose last entry has sequence number seq and
// hash head (seq 0 and h_0 for an empty log).
func ResumeLog(head dice.Hash, seq uint64) *Log { return &Log{head: head, seq: seq} }

// Head returns the hash of the last entry (h_0 when empty).
func (l *Log) Head() dice.Hash { return l.head }

// Seq returns the sequence number of the last entry (0 when empty).
func (l *Log) Seq() uint64 { return l.seq }

// Append numbers e, chains it to the head and returns it with its hash.
func (l *Log) Append(e Entry) EntryRecord {
	l.seq++
	e.Seq = l.seq
	l.head = NextHash(l.head, &e)
	return EntryRecord{Entry: e, Hash: l.head}
}
