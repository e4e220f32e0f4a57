package adjudicator_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/games/fake"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
)

// TestBudgetRun: a computation that returns is let be; one that blocks,
// hoards memory or panics is stopped waiting for at its limit and named.
func TestBudgetRun(t *testing.T) {
	var runaways atomic.Int64
	b := adjudicator.Budget{Time: 200 * time.Millisecond, Memory: 64 << 20, Runaways: &runaways}
	if err := b.Run("adding", func() { _ = 1 + 1 }); err != nil {
		t.Errorf("a quick computation: %v", err)
	}
	release := make(chan struct{})
	defer close(release)
	var hoard [][]byte
	for _, tt := range []struct {
		name, want string
		fn         func()
	}{
		{"blocks", "reading: took more than 200ms", func() { <-release }},
		{"hoards", "reading: grew the judge's memory by more than 64 MiB", func() {
			for range 32 {
				hoard = append(hoard, make([]byte, 8<<20))
				for i := 0; i < 8<<20; i += 4096 {
					hoard[len(hoard)-1][i] = 1 // resident, not only reserved
				}
			}
			<-release
		}},
		{"panics", "reading: panicked: boom", func() { panic("boom") }},
	} {
		b := b
		if tt.name == "hoards" {
			b.Time = time.Minute // the memory bound, not the clock, stops it
		}
		err := b.Run("reading", tt.fn)
		var ob *adjudicator.OverBudget
		if !errors.As(err, &ob) || err.Error() != tt.want {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
	if n := runaways.Load(); n != 2 {
		t.Errorf("%d runaways counted, want 2 (the blocked and the hoarding computation)", n)
	}
}

// stallJudge is a mail judge hosting the fake game and the stall game,
// with short budgets.
func stallJudge(t *testing.T) (*mailJudge, *fake.Stall) {
	n := byte(0)
	stall := fake.NewStall()
	t.Cleanup(stall.Release)
	j := &adjudicator.Judge{Games: adjudicator.NewRegistry(fake.Game, stall), ChainLength: 64, Operator: "ops@umpire.test",
		NewRoot:       func() (dice.Hash, error) { n++; return sha256.Sum256([]byte{n}), nil },
		MessageBudget: adjudicator.Budget{Time: 300 * time.Millisecond}, StepBudget: adjudicator.Budget{Time: 300 * time.Millisecond}}
	m := &mailJudge{t: t, db: storetest.MustOpen(t), intake: &adjudicator.Intake{Judge: j}, now: start, known: map[string]bool{}}
	m.sign("GM", "gm@players.test", "create\n"+strings.Replace(mailGame, `game = "fake"`, `game = "stall"`, 1))
	m.sign("ALICE", "alice@players.test", "join club-1 A")
	m.sign("BOB", "bob@players.test", "join club-1 B")
	m.sign("GM", "gm@players.test", "start club-1")
	return m, stall
}

// try is sign for a message that may not be processable: Handle's error
// is returned, and nothing it wrote is kept.
func (m *mailJudge) try(key, from, text string) (string, error) {
	env := &adjudicator.Envelope{MessageID: fmt.Sprintf("%d@players.test", rand.Int()), From: from, Received: m.now, Text: text,
		Signed: &adjudicator.Signature{Kind: "openpgp", Fingerprint: key, Content: text, Signed: []byte(text)}}
	var answer string
	err := m.db.Update(context.Background(), func(tx *store.Tx) error {
		_, err := m.intake.Handle(context.Background(), &capture{Tx: tx.Judge("judge@umpire.test", m.now), to: from, got: &answer}, env)
		return err
	})
	return answer, err
}

// TestOrdersOverBudget: orders the rules cannot read within the message
// budget (they block, spin, hoard or panic) are not answered as orders:
// Handle returns the *OverBudget, which the mail intake sets the message
// aside for, and nothing of the message is stored. Other orders go on.
func TestOrdersOverBudget(t *testing.T) {
	m, _ := stallJudge(t)
	for _, cue := range []string{"stall", "spin", "hoard", "crash"} {
		answer, err := m.try("ALICE", "alice@players.test", "game: club-1\nstep: 1\nseat: A\nroll 1\n"+cue+"\nend\n")
		var ob *adjudicator.OverBudget
		if !errors.As(err, &ob) || !strings.Contains(ob.What, "reading the orders of A for step 1 of club-1") {
			t.Errorf("%s: %v (answer %q), want an OverBudget reading A's orders", cue, err, answer)
		}
	}
	m.view(func(tx adjudicator.Tx) {
		if files, _ := tx.LatestOrders("club-1", 1); len(files) != 0 {
			t.Errorf("order files stored from messages over budget: %v", files)
		}
	})
	_, r := m.sign("BOB", "bob@players.test", "game: club-1\nstep: 1\nseat: B\nroll 2\nend\n")
	if !strings.Contains(r, "ACCEPTED: orders of seat B") {
		t.Errorf("the next player's orders: %s", r)
	}
}

// TestStuckStepPausesTheGame: a step the rules cannot adjudicate within
// the step budget pauses its game, tells the game master and the operator
// and the seat whose orders completed it; the step stays open with its
// orders, nothing is rolled, and the judge goes on.
func TestStuckStepPausesTheGame(t *testing.T) {
	m, _ := stallJudge(t)
	m.sign("ALICE", "alice@players.test", "game: club-1\nstep: 1\nseat: A\nstall-step\nend\n")
	_, r := m.sign("BOB", "bob@players.test", "game: club-1\nstep: 1\nseat: B\nroll 2\nend\n")
	if !strings.Contains(r, "Every seat is ready, but step 1 of club-1 could not be adjudicated: adjudicating step 1 of club-1: took more than 300ms") {
		t.Errorf("the receipt of the orders that completed the step:\n%s", r)
	}
	m.view(func(tx adjudicator.Tx) {
		g, _ := tx.Game("club-1")
		st, _ := tx.Step("club-1", 1)
		if g.Status != adjudicator.Paused || g.Step != 1 || st.Status != adjudicator.StepOpen {
			t.Errorf("game %s at step %d, step 1 %s: want paused at an open step 1", g.Status, g.Step, st.Status)
		}
		if files, _ := tx.LatestOrders("club-1", 1); len(files) != 2 {
			t.Errorf("%d order files kept with the step, want 2", len(files))
		}
	})
	for _, to := range []string{"gm@players.test", "ops@umpire.test"} {
		mails := strings.Join(m.mailsTo(to), "\n")
		if !strings.Contains(mails, "The judge could not adjudicate step 1 (turn-1) of club-1") || !strings.Contains(mails, "resume club-1") {
			t.Errorf("%s was not told:\n%s", to, mails)
		}
	}
	// Another game of the judge goes on meanwhile.
	m.sign("GM", "gm@players.test", "create\n"+strings.Replace(mailGame, `id = "club-1"`, `id = "club-2"`, 1))
	m.sign("ALICE", "alice@players.test", "join club-2 A")
	m.sign("BOB", "bob@players.test", "join club-2 B")
	m.sign("GM", "gm@players.test", "start club-2")
	m.sign("ALICE", "alice@players.test", "game: club-2\nstep: 1\nseat: A\nroll 1\nend\n")
	if _, r := m.sign("BOB", "bob@players.test", "game: club-2\nstep: 1\nseat: B\nroll 1\nend\n"); !strings.Contains(r, "the step was adjudicated at once") {
		t.Errorf("the other game's step:\n%s", r)
	}
}
