package adjudicator

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
)

// GameExportFormat names a game export (docs/game-export.md).
const GameExportFormat = "umpire-game"

// GameExport is a whole game for replay away from the judge: the game
// file, every step with its state, the order files the steps used, and the
// public dice log. States hold what the seats may not see (hands, hidden
// chits): an export is for the game master, or for everyone once the game
// has ended.
type GameExport struct {
	Format  string          `json:"format"`
	Version int             `json:"version"`
	Game    string          `json:"game"`
	Kind    string          `json:"kind"`
	Step    uint64          `json:"step"`
	File    string          `json:"file"`
	Steps   []ExportedStep  `json:"steps"`
	Orders  []ExportedOrder `json:"orders"`
	// Dice is the game's public dice log: a v1 export (game export
	// version 1), a v2 one (version 2) or a v3 one (version 3), as
	// docs/dice-log.md writes them.
	Dice json.RawMessage `json:"dice"`
}

// ExportedStep is one step's record.
type ExportedStep struct {
	Number       uint64              `json:"number"`
	Phase        string              `json:"phase"`
	Status       string              `json:"status"`
	Owing        []string            `json:"owing"`
	NoOrders     map[string]string   `json:"no_orders,omitempty"`
	Used         map[string]uint64   `json:"used,omitempty"`
	Repeated     map[string]OrderRef `json:"repeated,omitempty"`
	Orders       []dice.Hash         `json:"orders"`
	RestoredFrom uint64              `json:"restored_from,omitempty"`
	State        json.RawMessage     `json:"state"`
}

// ExportedOrder is one order file version a step used, with the exact
// bytes its signature covers. Digest is its SHA-256, or in an
// umpire-dice-v3 game its digest keyed by the seat's order salt, as the
// order list holds it: no unkeyed hash of an order text is exported.
type ExportedOrder struct {
	Step    uint64    `json:"step"`
	Seat    string    `json:"seat"`
	Version uint64    `json:"version"`
	Digest  dice.Hash `json:"digest"`
	Signed  []byte    `json:"signed"`
	Text    string    `json:"text"`
	// Identity is "dkim" when a mail address held the seat and its
	// provider's DKIM signature, not a key, signed the file: Signed is
	// then the body of the mail it came in (docs/game-file.md, "Players
	// without a key").
	Identity string `json:"identity,omitempty"`
}

// ExportGame writes game for replay.
func (j *Judge) ExportGame(tx Tx, game string) (*GameExport, error) {
	g, err := tx.Game(game)
	if err != nil {
		return nil, err
	}
	x := &GameExport{Format: GameExportFormat, Version: 1, Game: g.ID, Kind: g.Kind, Step: g.Step, File: string(g.File)}
	sec, err := tx.DiceSecrets(game)
	if err != nil {
		return nil, err
	}
	seen := map[OrderRef]map[string]bool{}
	add := func(step uint64, seat string, v uint64) error {
		ref := OrderRef{Step: step, Version: v}
		if seen[ref][seat] {
			return nil
		}
		if seen[ref] == nil {
			seen[ref] = map[string]bool{}
		}
		seen[ref][seat] = true
		f, err := tx.OrderVersion(game, step, seat, v)
		if err != nil {
			return err
		}
		o := ExportedOrder{Step: step, Seat: seat, Version: v, Digest: sec.entryDigest(f, step, v), Signed: f.Signed, Text: f.Text}
		if _, ok := DKIMAddress(f.Key); ok {
			o.Identity = KindDKIM
		}
		x.Orders = append(x.Orders, o)
		return nil
	}
	for k := uint64(1); k <= g.Step; k++ {
		st, err := tx.Step(game, k)
		if err != nil {
			return nil, err
		}
		x.Steps = append(x.Steps, ExportedStep{Number: k, Phase: st.Phase, Status: st.Status, Owing: st.Owing, NoOrders: st.NoOrders,
			Used: st.Used, Repeated: st.Repeated, Orders: st.Orders, RestoredFrom: st.RestoredFrom, State: st.State})
		// By seat, so that the same game always exports the same bytes.
		for _, seat := range slices.Sorted(maps.Keys(st.Used)) {
			if err := add(k, seat, st.Used[seat]); err != nil {
				return nil, err
			}
		}
		for _, seat := range slices.Sorted(maps.Keys(st.Repeated)) {
			r := st.Repeated[seat]
			if err := add(r.Step, seat, r.Version); err != nil {
				return nil, err
			}
		}
	}
	var buf bytes.Buffer
	if sec.V2() {
		x.Version = sec.Scheme
		if _, err := tx.WriteDiceLog(game, &buf); err != nil {
			return nil, err
		}
	} else {
		d, err := tx.ExportLog(game)
		if err != nil {
			return nil, err
		}
		if err := json.NewEncoder(&buf).Encode(d); err != nil {
			return nil, err
		}
	}
	x.Dice = bytes.TrimSpace(buf.Bytes())
	return x, nil
}

// gameExportStart is how a game export begins.
var gameExportStart = regexp.MustCompile(`^\s*\{\s*"format"\s*:\s*"umpire-game"`)

// IsGameExport reports whether a file that begins with head (its first
// 512 bytes will do) is a game export rather than a bare dice log.
func IsGameExport(head []byte) bool { return gameExportStart.Match(head) }

// OrderFile returns the signed order file of seat's version for step
// forStep, false if the export does not hold it.
func (x *GameExport) OrderFile(seat string, forStep, version uint64) ([]byte, bool) {
	for _, o := range x.Orders {
		if o.Seat == seat && o.Step == forStep && o.Version == version {
			return o.Signed, true
		}
	}
	return nil, false
}

// ReadGameExport reads a game export.
func ReadGameExport(r io.Reader) (*GameExport, error) {
	var x GameExport
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&x); err != nil {
		return nil, fmt.Errorf("not an umpire game export: %w", err)
	}
	if x.Format != GameExportFormat || x.Version < 1 || x.Version > 3 || len(x.Dice) == 0 {
		return nil, errors.New("not an umpire game export (versions 1, 2 and 3)")
	}
	// States are the games' compact JSON; an export someone pretty-printed
	// is read back to it.
	for i := range x.Steps {
		var b bytes.Buffer
		if err := json.Compact(&b, x.Steps[i].State); err != nil {
			return nil, fmt.Errorf("not an umpire game export: step %d state: %w", x.Steps[i].Number, err)
		}
		x.Steps[i].State = b.Bytes()
	}
	return &x, nil
}

// ReplayExport replays an exported game away from the judge: the dice
// links come from its public dice log, which is verified first.
func (j *Judge) ReplayExport(x *GameExport) (int, error) {
	src := exportSource{x: x, steps: map[uint64]ExportedStep{}, dice: map[uint64]legacy.ExportStep{}}
	for _, s := range x.Steps {
		src.steps[s.Number] = s
	}
	g := Game{ID: x.Game, Kind: x.Kind, Step: x.Step}
	if x.Version >= 2 {
		log, err := newExportLog(x.Dice)
		if err != nil {
			return 0, err
		}
		if log.hdr.Game != x.Game {
			return 0, fmt.Errorf("its dice log is game %q's, not %q's", log.hdr.Game, x.Game)
		}
		if log.hdr.V3() != (x.Version == 3) {
			return 0, fmt.Errorf("a game export of version %d holds a %s log", x.Version, log.hdr.SchemeName())
		}
		return j.replayRecords(g, src, log)
	}
	d, err := legacy.ReadExport(bytes.NewReader(x.Dice))
	if err != nil {
		return 0, fmt.Errorf("its dice log: %w", err)
	}
	if res := legacy.Verify(d, nil); !res.OK() {
		return 0, fmt.Errorf("its dice log does not verify: %w", res.Problem)
	}
	for _, s := range d.Steps {
		src.dice[s.Step] = s
	}
	return j.replay(g, src, d.Commitments.Open, d.Commitments.Sealed, d.Head)
}

type exportSource struct {
	x     *GameExport
	steps map[uint64]ExportedStep
	dice  map[uint64]legacy.ExportStep
}

func (s exportSource) step(k uint64) (StepRecord, error) {
	e, ok := s.steps[k]
	if !ok {
		return StepRecord{}, fmt.Errorf("the export has no step %d", k)
	}
	return StepRecord{Game: s.x.Game, Number: k, Phase: e.Phase, Status: e.Status, Owing: e.Owing, NoOrders: e.NoOrders,
		Used: e.Used, Repeated: e.Repeated, Orders: e.Orders, RestoredFrom: e.RestoredFrom, State: e.State}, nil
}

func (s exportSource) orderVersion(step uint64, seat string, v uint64) (OrderFile, error) {
	for _, o := range s.x.Orders {
		if o.Step == step && o.Seat == seat && o.Version == v {
			if s.x.Version <= 2 && legacy.OrderDigest(o.Signed) != o.Digest {
				return OrderFile{}, fmt.Errorf("order file of %s for step %d (v%d): its bytes do not have its digest", seat, step, v)
			}
			return OrderFile{Game: s.x.Game, Step: step, Seat: seat, Version: v, Digest: o.Digest, Signed: o.Signed, Text: o.Text}, nil
		}
	}
	return OrderFile{}, fmt.Errorf("the export lacks the order file of %s for step %d (v%d)", seat, step, v)
}

func (s exportSource) links(k uint64) (*dice.Hash, *dice.Hash, error) {
	l, ok := s.dice[k]
	if !ok {
		return nil, nil, nil // a step that drew no dice
	}
	return l.Open, l.Sealed, nil
}
