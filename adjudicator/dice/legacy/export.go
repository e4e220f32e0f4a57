package legacy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// Export is a game's public dice log, the JSON document that `umpire verify`
// checks and that anyone may check with a verifier of their own.
type Export struct {
	Format      string        `json:"format"`
	Version     int           `json:"version"`
	Scheme      string        `json:"scheme"`
	Game        string        `json:"game"`
	ChainLength uint64        `json:"chain_length"`
	Commitments Commitments   `json:"commitments"`
	Start       dice.Hash     `json:"h0"`
	Steps       []ExportStep  `json:"steps"`
	Entries     []ExportEntry `json:"entries"`
	Head        dice.Hash     `json:"head"`
}

// Commitments are link[0] of the open and the sealed chain.
type Commitments struct {
	Open   dice.Hash `json:"open"`
	Sealed dice.Hash `json:"sealed"`
}

// ExportStep is one adjudicated step: what D_k was computed from, and the
// links revealed so far (Sealed is nil until its link is revealed).
type ExportStep struct {
	Step   uint64      `json:"step"`
	Phase  string      `json:"phase"`
	Orders []dice.Hash `json:"orders"`
	Digest dice.Hash   `json:"digest"`
	Open   *dice.Hash  `json:"open_link"`
	Sealed *dice.Hash  `json:"sealed_link"`
}

// ExportEntry is one draw. Hidden entries (draws from a sealed link not yet
// revealed) carry no values, and their Hash is taken as stated.
type ExportEntry struct {
	Seq     uint64    `json:"seq"`
	Step    uint64    `json:"step"`
	Stream  string    `json:"stream"`
	Word    uint64    `json:"word"`
	Spec    string    `json:"spec"`
	Values  []int64   `json:"values"`
	Hidden  bool      `json:"hidden,omitempty"`
	Purpose string    `json:"purpose"`
	Hash    dice.Hash `json:"hash"`
}

// NewExport returns an empty export for a game with the given commitments.
func NewExport(game string, chainLength uint64, open0, sealed0 dice.Hash) *Export {
	start := LogStart(open0, sealed0)
	return &Export{
		Format: dice.Format, Version: int(Hashed), Scheme: Hashed.Name(), Game: game, ChainLength: chainLength,
		Commitments: Commitments{Open: open0, Sealed: sealed0},
		Start:       start, Steps: []ExportStep{}, Entries: []ExportEntry{}, Head: start,
	}
}

// AddRecord appends a logged draw; hidden withholds its values.
func (x *Export) AddRecord(r EntryRecord, hidden bool) {
	e := ExportEntry{
		Seq: r.Seq, Step: r.Step, Stream: r.Stream.String(), Word: r.Word,
		Spec: r.Spec, Values: r.Values, Purpose: r.Purpose, Hash: r.Hash, Hidden: hidden,
	}
	if hidden {
		e.Values = nil
	} else if e.Values == nil {
		e.Values = []int64{}
	}
	x.Entries = append(x.Entries, e)
	x.Head = r.Hash
}

// Write writes the export as indented JSON.
func (x *Export) Write(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(x); err != nil {
		return fmt.Errorf("write dice log: %w", err)
	}
	return nil
}

// ReadExport reads an export. Input that is not JSON or not a dice log is
// ErrNotLog; a newer version is ErrVersion. The message names the line and
// column of a syntax error.
func ReadExport(r io.Reader) (*Export, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read dice log: %w", err)
	}
	var head struct {
		Format  string `json:"format"`
		Version int    `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("%w: %s", dice.ErrNotLog, jsonProblem(data, err))
	}
	if head.Format != dice.Format {
		return nil, fmt.Errorf("%w: its \"format\" is %q, want %q", dice.ErrNotLog, head.Format, dice.Format)
	}
	if head.Version != int(Hashed) {
		return nil, fmt.Errorf("%w: version %d (this umpire reads version %d)", dice.ErrVersion, head.Version, int(Hashed))
	}
	var x Export
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&x); err != nil {
		return nil, fmt.Errorf("%w: %s", dice.ErrNotLog, jsonProblem(data, err))
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: data after the log object", dice.ErrNotLog)
	}
	return &x, nil
}

// jsonProblem describes a decoding error with the line and column it is at.
func jsonProblem(data []byte, err error) string {
	var off int64 = -1
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		off = syn.Offset
	case errors.As(err, &typ):
		off = typ.Offset
	}
	if off < 0 || off > int64(len(data)) {
		return err.Error()
	}
	// The decoder has read off bytes when it fails: the culprit is the last.
	i := max(off-1, 0)
	line := 1 + bytes.Count(data[:i], []byte("\n"))
	col := int(i) - bytes.LastIndexByte(data[:i], '\n')
	return fmt.Sprintf("line %d, column %d: %v", line, col, err)
}
