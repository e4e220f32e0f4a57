package adjudicator

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/umpire-pbem/umpire/adjudicator/beacon"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
)

// rulesVersion is the rules_version of every header umpire writes today: a
// game package whose adjudication changes in a way that would change a
// replay must be told apart by a new version (docs/dice-log.md).
const rulesVersion = "1"

// newScheme is the dice scheme of a game created now: umpire-dice-v3, but
// v2 for the dice service (witnessed rolls, whose requests are public and
// which have no seats to contribute) and when a test asks for v2.
func (j *Judge) newScheme(f *GameFile) int {
	if j.scheme == legacy.Records || f.Game == DiceService {
		return 2
	}
	return 3
}

// createLog stores a new game under umpire-dice-v2 or (scheme 3) -v3: its
// secrets and its header record, with the hidden streams its rules draw
// from in the scenario's first state and the game file's beacon.
func (j *Judge) createLog(tx Tx, g Game, f *GameFile, open, sealed dice.Hash, length uint64, scheme int) error {
	var streams []string
	if rules, err := j.Games.Get(f.Game); err == nil {
		if hs, ok := rules.(HiddenStreams); ok {
			state, err := j.newState(rules, f.ID, f.Scenario, f.Options)
			if err != nil {
				return fmt.Errorf("game %s: %w", f.ID, err)
			}
			if streams, err = hs.HiddenStreams(state); err != nil {
				return fmt.Errorf("game %s: hidden streams: %w", f.ID, err)
			}
		}
	}
	hdr := dice.Header{Game: g.ID, Rules: f.Game, RulesVersion: rulesVersion, ChainLength: length}
	if err := hdr.SetStreams(streams); err != nil {
		return fmt.Errorf("game %s: %w", f.ID, err)
	}
	var bcn *beacon.Chain
	if f.Beacon != nil {
		b := f.Beacon.Chain
		bcn = &b
		if floor := beacon.MinDelay(b.Period); scheme == 3 && b.Delay < floor {
			return fmt.Errorf("game %s: %w", f.ID, beaconFloorError(b))
		}
	}
	oc := dice.Chain{Root: open, Length: length}.WithCheckpoints()
	sec := DiceSecrets{Scheme: scheme, OpenRoot: open, SealedRoot: sealed, ChainLength: length, Open0: oc.Commitment(),
		Sealed0: dice.SealedCommitment(sealed), OpenCheckpoints: oc.Checkpoints, Streams: hdr.Streams, Beacon: bcn}
	if err := tx.PutGame(g); err != nil {
		return err
	}
	if err := tx.PutDiceSecrets(g.ID, sec); err != nil {
		return err
	}
	var l dice.Ledger
	hdr.OpenCommitment, hdr.SealedCommitment, hdr.Beacon = sec.Open0, sec.Sealed0, bcn
	if scheme == 3 {
		hdr.Scheme = dice.Scheme
	}
	rec := dice.Record{Type: dice.TypeHeader, Header: &hdr}
	if err := l.Append(&rec); err != nil {
		return err
	}
	return tx.AddDiceLog(g.ID, []dice.Record{rec})
}

// rollbackRecord writes the rollback record of a v2 game: step closed
// closed unplayed, back to target, on command (the SHA-256 of the game
// master's signed command; zero for the operator) for reason.
func rollbackRecord(tx Tx, game string, closed, target uint64, command dice.Hash, reason string) error {
	ledger, err := tx.DiceLedger(game)
	if err != nil {
		return err
	}
	rec := dice.Record{Type: dice.TypeRollback, Rollback: &dice.Rollback{Closed: closed, Target: target, Command: command,
		Reason: cleanText(reason)}}
	if err := ledger.Append(&rec); err != nil {
		return err
	}
	return tx.AddDiceLog(game, []dice.Record{rec})
}

// cleanText makes text fit to be hashed and exported: UTF-8, one line.
func cleanText(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return strings.Join(strings.Fields(s), " ")
}
