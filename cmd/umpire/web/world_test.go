package web

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
	"github.com/umpire-pbem/umpire/adjudicator/games/fake"
	"github.com/umpire-pbem/umpire/adjudicator/games/perrote"
	"github.com/umpire-pbem/umpire/adjudicator/games/wbt"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
)

// world is a judge's store with games played through the adjudicator, as
// mail would play them: created, joined by keys with mail addresses,
// started, orders taken by the intake, steps processed.
type world struct {
	t   testing.TB
	db  *store.DB
	j   *adjudicator.Judge
	now time.Time
	n   uint64
}

const judgeFrom = "judge@umpire.test"

func newWorld(t testing.TB) *world {
	w := &world{t: t, db: storetest.MustOpen(t), now: time.Date(2026, 11, 2, 12, 0, 0, 0, time.UTC)}
	w.j = &adjudicator.Judge{Games: adjudicator.NewRegistry(fake.Game, perrote.Game, wbt.Game), NewRoot: func() (dice.Hash, error) {
		w.n++
		return sha256.Sum256(binary.BigEndian.AppendUint64([]byte("web test root"), w.n)), nil
	}}
	return w
}

func (w *world) update(fn func(tx adjudicator.Tx) error) {
	w.t.Helper()
	w.now = w.now.Add(time.Minute)
	if err := w.db.Update(context.Background(), func(tx *store.Tx) error { return fn(tx.Judge(judgeFrom, w.now)) }); err != nil {
		w.t.Fatal(err)
	}
}

// create makes a game from its game file, each seat held by the key
// "KEY-<game>-<seat>" of <seat>@players.test, and starts it.
func (w *world) create(file string) *adjudicator.GameFile {
	w.t.Helper()
	f, err := adjudicator.ParseGameFile([]byte(file), w.j.Games)
	if err != nil {
		w.t.Fatal(err)
	}
	w.update(func(tx adjudicator.Tx) error {
		if err := w.j.Create(tx, f, []byte(file), w.now); err != nil {
			return err
		}
		if err := tx.PutKey(adjudicator.Key{Fingerprint: "GMKEY", Kind: "ssh", Address: "gm@players.test"}, nil); err != nil {
			return err
		}
		for _, seat := range f.Seats {
			key := "KEY-" + f.ID + "-" + seat
			if err := tx.PutKey(adjudicator.Key{Fingerprint: key, Kind: "ssh", Address: strings.ToLower(seat) + "@players.test"}, []byte("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPublicKeyMaterial "+seat)); err != nil {
				return err
			}
			if err := w.j.Join(tx, f.ID, seat, key); err != nil {
				return err
			}
		}
		return w.j.Start(tx, f.ID, w.now)
	})
	return f
}

// orders sends seat's order lines for the open step and returns the order
// file's text and digest.
func (w *world) orders(game, seat string, lines ...string) (string, dice.Hash) {
	w.t.Helper()
	var step uint64
	w.update(func(tx adjudicator.Tx) error {
		g, err := tx.Game(game)
		step = g.Step
		return err
	})
	text := fmt.Sprintf("game: %s\nstep: %d\nseat: %s\n%s\nend\n", game, step, seat, strings.Join(lines, "\n"))
	key := "KEY-" + game + "-" + seat
	env := &adjudicator.Envelope{MessageID: fmt.Sprintf("%s-%s-%d@players.test", game, seat, step), From: strings.ToLower(seat) + "@players.test",
		Received: w.now, Text: text, Signed: &adjudicator.Signature{Kind: "ssh", Fingerprint: key, Content: text, Signed: []byte(text)}}
	w.update(func(tx adjudicator.Tx) error {
		_, err := (&adjudicator.Intake{Judge: w.j}).Handle(context.Background(), tx, env)
		return err
	})
	return text, legacy.OrderDigest([]byte(text))
}

// bot sends the rules' scripted orders for seat.
func (w *world) bot(game, seat string) {
	w.t.Helper()
	var state []byte
	var kind string
	w.update(func(tx adjudicator.Tx) error {
		g, err := tx.Game(game)
		if err != nil {
			return err
		}
		kind = g.Kind
		st, err := tx.Step(game, g.Step)
		state = st.State
		return err
	})
	rules, _ := w.j.Games.Get(kind)
	lines, err := rules.(adjudicator.Bot).Bot(state, seat)
	if err != nil {
		w.t.Fatal(err)
	}
	w.orders(game, seat, lines...)
}

// process adjudicates the open step now, as the game master's process
// command does.
func (w *world) process(game string) {
	w.t.Helper()
	w.update(func(tx adjudicator.Tx) error { return w.j.Process(context.Background(), tx, game, w.now) })
}

// server is the web server of the world's store.
func (w *world) server(metrics *Metrics) *Server {
	w.t.Helper()
	s, err := New(Config{DB: w.db, Judge: w.j, From: judgeFrom, Rate: 1e6, Burst: 1e6, Metrics: metrics, Now: func() time.Time { return w.now }})
	if err != nil {
		w.t.Fatal(err)
	}
	return s
}

const perRoteGame = `id = "pr-1"
game = "perrote"
scenario = "demo"
gm = "GMKEY"
[schedule]
every = "72h"
`

const fakeGame = `id = "fk-1"
game = "fake"
scenario = "duel"
gm = "GMKEY"
[options]
turns = "5"
[schedule]
every = "48h"
`

// wbtGame60x40 is War by Television on the demo map widened to 60 x 40
// hexes (the demo's terrain, roads and rivers, clear beyond), with the
// demo counters.
func wbtGame60x40(t testing.TB) string {
	t.Helper()
	m, err := os.ReadFile("../../../adjudicator/games/wbt/scenarios/demo-map.toml")
	if err != nil {
		t.Fatal(err)
	}
	wide := strings.Replace(string(m), `last = "4039"`, `last = "6939"`, 1)
	if wide == string(m) {
		t.Fatal("the demo map's grid is no longer 1000-4039: update wbtGame60x40")
	}
	return "id = \"wbt-1\"\ngame = \"wbt\"\nscenario = \"demo\"\ngm = \"GMKEY\"\n[options]\nmap = '''\n" + wide + "'''\n[schedule]\nevery = \"72h\"\n"
}
