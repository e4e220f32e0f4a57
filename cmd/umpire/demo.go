package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/store"
)

func demoCommand() *command {
	return &command{
		name:    "demo",
		args:    "[--dir DIR]",
		summary: "Run the demonstration on an embedded default: no mail account needed.",
		help: `demo needs no mail account and no configuration. Until the first complete
game arrives, it shows the life of a game's dice, for real: it creates a game in a
fresh store, publishes the dice commitments, accepts two order files, rolls
and shuffles through the verifiable scheme, exports the public log, verifies
it, and shows that a forged copy fails verification.`,
		flags: func(fs *flag.FlagSet) {
			fs.String("dir", "", "folder for the demo's store and log (default: a new temporary folder)")
		},
		run: runDemo,
	}
}

func runDemo(ctx context.Context, m *Main, fs *flag.FlagSet, args []string) error {
	if len(args) != 0 {
		return usagef("takes no arguments")
	}
	dir := fs.Lookup("dir").Value.String()
	if dir == "" {
		d, err := os.MkdirTemp("", "umpire-demo-")
		if err != nil {
			return err
		}
		dir = d
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	db, err := store.Open(filepath.Join(dir, "umpire.db"), store.Options{})
	if err != nil {
		return err
	}
	m.closers = append(m.closers, db)
	d := demo{m: m, db: db, w: m.Stdout, game: "demo-1"}
	return d.run(ctx, dir)
}

type demo struct {
	m    *Main
	db   *store.DB
	w    io.Writer
	game string
	sec  store.DiceSecrets
}

func (d *demo) printf(format string, args ...any) { fmt.Fprintf(d.w, format, args...) }

func (d *demo) run(ctx context.Context, dir string) error {
	d.printf("umpire demo: a game's dice from commitment to verification.\n")
	d.printf("(The full play-by-email demo arrives with the first complete game.)\n\n")
	if err := d.create(ctx); err != nil {
		return err
	}
	steps := []struct {
		phase  string
		orders map[string]string
		draw   func(r dice.Roller)
		reveal bool // reveal the sealed link with the step's report
	}{
		{"turn-1", map[string]string{
			"NATO": "game: demo-1\nstep: 1\nseat: NATO\nattack 1708 from 1607 1709 with US-1AD US-3ID\nend\n",
			"Serb": "game: demo-1\nstep: 1\nseat: Serb\nmove SRB-252 1810 1709\nend\n",
		}, func(r dice.Roller) {
			dice.Roll(r, 1, 6, "WbT 11.8 CRT roll, NATO attack on 1708")
			dice.Roll(r, 1, 6, "WbT 11.20 Serb artillery factor, SRB-1A")
			dice.RollFrom(r, 1, 10, 0, "a d10 read 0-9, as B&U combat uses")
		}, false},
		{"turn-2", map[string]string{
			"NATO": "game: demo-1\nstep: 2\nseat: NATO\npass\nend\n",
		}, func(r dice.Roller) {
			dice.Shuffle(r, 8, "a hidden shuffle of an 8-card deck")
			dice.Roll(r, 2, 6, "a 2d6 roll, as 1914 uses")
		}, false},
		{"turn-3", map[string]string{
			"Serb": "game: demo-1\nstep: 3\nseat: Serb\nhold\nend\n",
		}, func(r dice.Roller) {
			dice.Roll(r, 1, 20, "Per Rote turn order, a d20")
		}, false},
	}
	for i, s := range steps {
		if err := d.step(ctx, uint64(i+1), s.phase, s.orders, s.draw, s.reveal); err != nil {
			return err
		}
	}
	return d.export(ctx, dir)
}

// create makes the game and its dice secrets and prints the commitments.
func (d *demo) create(ctx context.Context) error {
	open, err := dice.NewChain(dice.DefaultChainLength)
	if err != nil {
		return err
	}
	sealed, err := dice.NewChain(dice.DefaultChainLength)
	if err != nil {
		return err
	}
	d.sec = store.DiceSecrets{OpenRoot: open.Root, SealedRoot: sealed.Root, ChainLength: open.Length,
		Open0: open.Commitment(), Sealed0: sealed.Commitment()}
	now := d.m.Now()
	err = d.db.Update(ctx, func(tx *store.Tx) error {
		if err := tx.PutGame(store.Game{ID: d.game, Kind: "demo", Title: "dice demonstration", Status: "running", Created: now, Updated: now}); err != nil {
			return err
		}
		return tx.PutDiceSecrets(d.game, d.sec)
	})
	if err != nil {
		return err
	}
	d.printf("1. Game %q created. Its dice commitments are published before any order exists:\n", d.game)
	d.printf("     open   %s\n     sealed %s\n", d.sec.Open0, d.sec.Sealed0)
	d.printf("   They fix every future roll; the secrets behind them stay in the store.\n\n")
	return nil
}

// step accepts the orders of step k, rolls, and stores everything in one
// transaction, as the judge does.
func (d *demo) step(ctx context.Context, k uint64, phase string, orders map[string]string, draw func(dice.Roller), reveal bool) error {
	var digests []dice.Hash
	var files []store.OrderFile
	for _, seat := range []string{"NATO", "Serb"} {
		text, ok := orders[seat]
		if !ok {
			continue
		}
		dg := dice.OrderDigest([]byte(text))
		digests = append(digests, dg)
		files = append(files, store.OrderFile{Game: d.game, Step: k, Seat: seat, Digest: dg, Signed: []byte(text), Text: text, Received: d.m.Now(), Status: "accepted"})
	}
	openChain := dice.Chain{Root: d.sec.OpenRoot, Length: d.sec.ChainLength}
	sealedChain := dice.Chain{Root: d.sec.SealedRoot, Length: d.sec.ChainLength}
	ol, err := openChain.Link(k)
	if err != nil {
		return err
	}
	sl, err := sealedChain.Link(k)
	if err != nil {
		return err
	}
	digest := dice.StepDigest(d.game, k, phase, digests)
	var recs []dice.Record
	err = d.db.Update(ctx, func(tx *store.Tx) error {
		for _, f := range files {
			if _, err := tx.AddOrderFile(f); err != nil {
				return err
			}
		}
		head, seq, err := tx.DiceHead(d.game)
		if err != nil {
			return err
		}
		r := dice.NewStepRoller(dice.ResumeLog(head, seq), k, digest, ol, sl)
		draw(r)
		recs = r.Records()
		links := store.StepLinks{Step: k, Phase: phase, Orders: digests, Digest: digest, Open: &ol}
		if reveal {
			links.Sealed = &sl
		}
		if err := tx.AddDiceRecords(d.game, recs); err != nil {
			return err
		}
		return tx.PutStepLinks(d.game, links)
	})
	if err != nil {
		return err
	}
	d.printf("%d. Step %d (%s): %s accepted; each receipt quotes its digest:\n", k+1, k, phase, plural(len(files), "order file"))
	for _, f := range files {
		d.printf("     %-4s %s\n", f.Seat, f.Digest)
	}
	d.printf("   D_%d binds the dice to those digests: %s\n", k, digest)
	d.printf("   Adjudicated. The report reveals open[%d] = %s\n", k, ol)
	for _, r := range recs {
		vals := fmt.Sprint(r.Values)
		if r.Stream == dice.Sealed && !reveal {
			vals = "(sealed: shown when the link is revealed)"
		}
		d.printf("     #%d %-9s %-11s %s\n", r.Seq, r.Spec, vals, r.Purpose)
	}
	d.printf("   Log head %s\n\n", recs[len(recs)-1].Hash)
	return nil
}

// export writes the public log, verifies it, and verifies a forged copy.
func (d *demo) export(ctx context.Context, dir string) error {
	var x *dice.Export
	if err := d.db.View(ctx, func(tx *store.Tx) (err error) {
		x, err = tx.ExportLog(d.game)
		return err
	}); err != nil {
		return err
	}
	path := filepath.Join(dir, d.game+"-log.json")
	var buf bytes.Buffer
	if err := x.Write(&buf); err != nil {
		return err
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return err
	}
	res := dice.Verify(x, nil)
	d.printf("5. The public log is exported to %s\n   umpire verify checks it offline:\n", path)
	printVerify(&indent{w: d.w}, path, res)
	if !res.OK() {
		return exitCode(exitFail)
	}

	forged, err := dice.ReadExport(bytes.NewReader(buf.Bytes()))
	if err != nil {
		return err
	}
	forged.Entries[0].Values[0] = forged.Entries[0].Values[0]%6 + 1
	fpath := filepath.Join(dir, d.game+"-forged.json")
	var fbuf bytes.Buffer
	if err := forged.Write(&fbuf); err != nil {
		return err
	}
	if err := os.WriteFile(fpath, fbuf.Bytes(), 0o644); err != nil {
		return err
	}
	d.printf("\n6. A forger changes the first roll to %d in %s:\n", forged.Entries[0].Values[0], fpath)
	printVerify(&indent{w: d.w}, fpath, dice.Verify(forged, nil))

	// Game end: every sealed link is revealed and every entry can be checked.
	err = d.db.Update(ctx, func(tx *store.Tx) error {
		sealed := dice.Chain{Root: d.sec.SealedRoot, Length: d.sec.ChainLength}
		for _, s := range x.Steps {
			l, err := sealed.Link(s.Step)
			if err != nil {
				return err
			}
			if err := tx.PutStepLinks(d.game, store.StepLinks{Step: s.Step, Phase: s.Phase, Orders: s.Orders, Digest: s.Digest, Open: s.Open, Sealed: &l}); err != nil {
				return err
			}
		}
		x, err = tx.ExportLog(d.game)
		return err
	})
	if err != nil {
		return err
	}
	endPath := filepath.Join(dir, d.game+"-log-final.json")
	buf.Reset()
	if err := x.Write(&buf); err != nil {
		return err
	}
	if err := os.WriteFile(endPath, buf.Bytes(), 0o644); err != nil {
		return err
	}
	d.printf("\n7. The game ends: the final report reveals the sealed links, and the hidden shuffle\n   can now be checked too:\n")
	final := dice.Verify(x, nil)
	printVerify(&indent{w: d.w}, endPath, final)
	if !final.OK() {
		return exitCode(exitFail)
	}
	d.printf("\nTry it yourself:\n  go run ./cmd/umpire verify %s\n  go run ./cmd/umpire verify %s\n", endPath, fpath)
	return nil
}

// plural returns "1 thing" or "n things".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	if strings.HasSuffix(thing, "y") {
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(thing, "y"))
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// indent prefixes every line written through it with three spaces.
type indent struct {
	w       io.Writer
	midLine bool
}

func (i *indent) Write(p []byte) (int, error) {
	for _, l := range bytes.SplitAfter(p, []byte("\n")) {
		if len(l) == 0 {
			continue
		}
		if !i.midLine {
			l = append([]byte("   "), l...)
		}
		if _, err := i.w.Write(l); err != nil {
			return 0, err
		}
		i.midLine = l[len(l)-1] != '\n'
	}
	return len(p), nil
}
