package adjudicator_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
	"github.com/umpire-pbem/umpire/adjudicator/games/fake"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
)

// hosted is a fake game on a real store, with a clock the test moves.
type hosted struct {
	t      *testing.T
	db     *store.DB
	judge  *adjudicator.Judge
	intake *adjudicator.Intake
	now    time.Time
	keys   map[string]string // seat -> key
}

var start = time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC)

// newJudgeV1 makes host's judge create umpire-dice-v1 games (hostWith).
var newJudgeV1 bool

// newJudgeV2 makes host's judge create umpire-dice-v2 games.
var newJudgeV2 bool

// hostGames, when set, is the registry of host's judge instead of the
// fake game alone.
var hostGames adjudicator.Registry

const gmKey = "GMKEY"

func host(t *testing.T, file string) *hosted {
	t.Helper()
	h := &hosted{t: t, db: storetest.MustOpen(t), now: start, keys: map[string]string{}}
	n := byte(0)
	games := hostGames
	if games == nil {
		games = adjudicator.NewRegistry(fake.Game)
	}
	h.judge = &adjudicator.Judge{Games: games, ChainLength: 64,
		NewRoot: func() (dice.Hash, error) { n++; return sha256.Sum256([]byte{n}), nil }}
	switch {
	case newJudgeV1:
		adjudicator.CreateUnder(h.judge, legacy.Hashed)
	case newJudgeV2:
		adjudicator.CreateUnder(h.judge, legacy.Records)
	}
	h.intake = &adjudicator.Intake{Judge: h.judge}
	f, err := adjudicator.ParseGameFile([]byte(file), h.judge.Games)
	if err != nil {
		t.Fatal(err)
	}
	h.update(func(tx adjudicator.Tx) error {
		if err := h.judge.Create(tx, f, []byte(file), h.now); err != nil {
			return err
		}
		if err := tx.PutKey(adjudicator.Key{Fingerprint: gmKey, Kind: "openpgp", Address: "gm@players.test"}, nil); err != nil {
			return err
		}
		for _, seat := range f.Seats {
			key := "KEY-" + seat
			h.keys[seat] = key
			if err := tx.PutKey(adjudicator.Key{Fingerprint: key, Kind: "ssh", Address: strings.ToLower(seat) + "@players.test"}, nil); err != nil {
				return err
			}
			if err := h.judge.Join(tx, f.ID, seat, key); err != nil {
				return err
			}
		}
		return h.judge.Start(tx, f.ID, h.now)
	})
	return h
}

func (h *hosted) update(fn func(tx adjudicator.Tx) error) {
	h.t.Helper()
	storetest.MustUpdate(h.t, h.db, func(tx *store.Tx) error { return fn(tx.Judge("judge@umpire.test", h.now)) })
}

// send delivers a seat's signed order file through intake and returns the
// answer's text.
func (h *hosted) send(seat string, step int, orders ...string) string {
	h.t.Helper()
	text := fmt.Sprintf("game: g1\nstep: %d\nseat: %s\n%s\nend\n", step, seat, strings.Join(orders, "\n"))
	env := &adjudicator.Envelope{MessageID: fmt.Sprintf("%s-%d-%d@players.test", seat, step, rand.Int()), From: strings.ToLower(seat) + "@players.test",
		Received: h.now, Text: text, Signed: &adjudicator.Signature{Kind: "ssh", Fingerprint: h.keys[seat], Content: text, Signed: []byte(text)}}
	var answer string
	h.update(func(tx adjudicator.Tx) error {
		_, err := h.intake.Handle(context.Background(), &capture{Tx: tx, to: env.From, got: &answer}, env)
		return err
	})
	return answer
}

// exportLog is the game's public dice log, as "log g1" mails it.
func (h *hosted) exportLog() []byte {
	h.t.Helper()
	var buf bytes.Buffer
	storetest.MustView(h.t, h.db, func(tx *store.Tx) error {
		_, err := tx.WriteDiceLog("g1", &buf)
		return err
	})
	return buf.Bytes()
}

// verifyLog verifies the game's public dice log.
func (h *hosted) verifyLog() *dice.Result {
	h.t.Helper()
	res, err := dice.VerifyStream(bytes.NewReader(h.exportLog()), dice.VerifyOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	return res
}

func (h *hosted) tick(at time.Time) {
	h.t.Helper()
	h.now = at
	h.update(func(tx adjudicator.Tx) error {
		_, err := h.judge.Tick(context.Background(), tx, "g1", at)
		return err
	})
}

func (h *hosted) game() adjudicator.Game {
	var g adjudicator.Game
	h.update(func(tx adjudicator.Tx) (err error) { g, err = tx.Game("g1"); return err })
	return g
}

func (h *hosted) step(n uint64) adjudicator.StepRecord {
	var st adjudicator.StepRecord
	h.update(func(tx adjudicator.Tx) (err error) { st, err = tx.Step("g1", n); return err })
	return st
}

// mails returns the queued mails to an address, oldest first.
func (h *hosted) mails(to string) []store.Mail {
	var out []store.Mail
	storetest.MustView(h.t, h.db, func(tx *store.Tx) error {
		due, err := tx.Due(time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC), 100000)
		for _, m := range due {
			if m.To[0] == to {
				out = append(out, m)
			}
		}
		return err
	})
	return out
}

func lastText(t *testing.T, ms []store.Mail, subject string) string {
	t.Helper()
	for i := len(ms) - 1; i >= 0; i-- {
		if strings.Contains(ms[i].Subject, subject) {
			return text(t, ms[i])
		}
	}
	t.Fatalf("no mail with subject %q among %d", subject, len(ms))
	return ""
}

const duel = `id = "g1"
game = "fake"
scenario = "duel"
gm = "GMKEY"
[schedule]
every = "48h"
reminders = ["24h", "2h"]
`

func TestEarlyProcessingWhenEveryoneIsReady(t *testing.T) {
	h := host(t, duel)
	if st := h.step(1); st.Status != "open" || !slices.Equal(st.Owing, []string{"A", "B"}) || !st.Deadline.Equal(start.Add(48*time.Hour)) {
		t.Fatalf("step 1 = %+v", st)
	}
	r := h.send("A", 1, "roll 2", "move A1 0303")
	if !strings.Contains(r, "ACCEPTED") || !strings.Contains(r, fmt.Sprintf("%-40s # line 4\n  %-40s # line 5", "roll 2", "move A1 0303")) || !strings.Contains(r, "checked against the game's rules") || !strings.Contains(r, "now ready") {
		t.Errorf("A's receipt:\n%s", r)
	}
	if h.step(1).Status != "open" {
		t.Fatal("adjudicated before B was ready")
	}
	r = h.send("B", 1, "roll 1")
	if !strings.Contains(r, "adjudicated at once") {
		t.Errorf("B's receipt:\n%s", r)
	}
	if st := h.step(1); st.Status != "closed" || len(st.Orders) != 2 {
		t.Errorf("step 1 after both: %+v", st)
	}
	if g := h.game(); g.Step != 2 {
		t.Errorf("game at step %d", g.Step)
	}
	rep := lastText(t, h.mails("a@players.test"), "step 1 report")
	for _, want := range []string{"A rolls", "B rolls", "A moves A1 to 0303", "2d6", "1d6", "Open dice link of step 1", "Next: step 2 (turn-2)"} {
		if !strings.Contains(rep, want) {
			t.Errorf("A's report lacks %q:\n%s", want, rep)
		}
	}
	if gm := lastText(t, h.mails("gm@players.test"), "step 1 report"); !strings.Contains(gm, "for the game master") {
		t.Errorf("GM report:\n%s", gm)
	}
	// The public log verifies.
	if res := h.verifyLog(); !res.OK() || res.Rederived != 2 {
		t.Errorf("log: %+v", res)
	}
}

func TestDeadlineRemindersAndDefaults(t *testing.T) {
	h := host(t, duel)
	h.send("A", 1, "roll 1")
	deadline := start.Add(48 * time.Hour)
	// the mails after each seat's start announcement (umpire-dice-v3)
	after := func(to string) int {
		n := 0
		for _, m := range h.mails(to) {
			if !strings.Contains(m.Subject, ": start: ") {
				n++
			}
		}
		return n
	}
	h.tick(deadline.Add(-25 * time.Hour))
	if n := after("b@players.test"); n != 0 {
		t.Fatalf("%d mails to B before any reminder is due", n)
	}
	h.tick(deadline.Add(-24 * time.Hour))
	rem := lastText(t, h.mails("b@players.test"), "reminder")
	if !strings.Contains(rem, "Seat B of g1 has sent no orders for step 1") || !strings.Contains(rem, "Without orders: pass") {
		t.Errorf("reminder:\n%s", rem)
	}
	if gm := lastText(t, h.mails("gm@players.test"), "without orders"); !strings.Contains(gm, ": B.") {
		t.Errorf("GM's list of late seats:\n%s", gm)
	}
	if n := after("a@players.test"); n != 1 { // only A's receipt
		t.Errorf("A, who sent orders, got %d mails", n)
	}
	h.tick(deadline.Add(-23 * time.Hour)) // no second first reminder
	h.tick(deadline.Add(-2 * time.Hour))
	if n := after("b@players.test"); n != 2 {
		t.Errorf("B got %d reminders, want 2", n)
	}
	h.tick(deadline)
	if h.step(1).Status != "closed" {
		t.Fatal("not adjudicated at the deadline")
	}
	rep := lastText(t, h.mails("b@players.test"), "step 1 report")
	if !strings.Contains(rep, "B passes (no orders)") {
		t.Errorf("B's default not applied:\n%s", rep)
	}
	if late := lastText(t, h.mails("gm@players.test"), "late seats"); !strings.Contains(late, "B") {
		t.Errorf("GM not told who was late:\n%s", late)
	}
	// Step 2 got its own deadline, 48h after step 1 closed.
	if st := h.step(2); !st.Deadline.Equal(deadline.Add(48 * time.Hour)) {
		t.Errorf("step 2 deadline %v", st.Deadline)
	}
}

func TestGraceForExcusedMisses(t *testing.T) {
	h := host(t, strings.Replace(duel, `every = "48h"`, "every = \"48h\"\ngrace = \"12h\"\nexcused = 1", 1))
	deadline := start.Add(48 * time.Hour)
	h.send("A", 1, "pass")
	h.tick(deadline)
	st := h.step(1)
	if st.Status != "open" || !st.Deadline.Equal(deadline.Add(12*time.Hour)) {
		t.Fatalf("an excused miss: step %+v", st)
	}
	if gm := lastText(t, h.mails("gm@players.test"), "late seats"); !strings.Contains(gm, "extended by the grace period") {
		t.Errorf("GM:\n%s", gm)
	}
	h.tick(deadline.Add(12 * time.Hour))
	if h.step(1).Status != "closed" {
		t.Fatal("not adjudicated after the grace period")
	}
	// B has used its one excuse: the next miss is not waited for.
	d2 := h.step(2).Deadline
	h.send("A", 2, "pass")
	h.tick(d2)
	if h.step(2).Status != "closed" {
		t.Errorf("a second miss was waited for")
	}
}

func TestSingleSeatWindow(t *testing.T) {
	h := host(t, duel)
	h.send("A", 1, "challenge B")
	h.send("B", 1, "pass")
	st := h.step(2)
	if !slices.Equal(st.Owing, []string{"B"}) || !strings.Contains(st.Phase, "window B") {
		t.Fatalf("step 2 = %s owing %v, want B's window", st.Phase, st.Owing)
	}
	if r := h.send("A", 2, "roll 1"); !strings.Contains(r, "waits for orders from B only") {
		t.Errorf("A's orders in B's window:\n%s", r)
	}
	if h.step(2).Status != "open" {
		t.Fatal("A's orders closed B's window")
	}
	if r := h.send("B", 2, "accept"); !strings.Contains(r, "adjudicated at once") {
		t.Errorf("B's answer:\n%s", r)
	}
	rep := lastText(t, h.mails("a@players.test"), "step 2 report")
	if !strings.Contains(rep, "B accepts A's challenge") {
		t.Errorf("report:\n%s", rep)
	}
}

func TestHiddenInformation(t *testing.T) {
	h := host(t, strings.Replace(duel, "[schedule]", "[options]\nturns = \"1\"\n[schedule]", 1))
	h.send("A", 1, "secret")
	h.send("B", 1, "pass")
	a := lastText(t, h.mails("a@players.test"), "step 1 report")
	b := lastText(t, h.mails("b@players.test"), "step 1 report")
	if !strings.Contains(a, "A draws card") || strings.Contains(b, "A draws card") || !strings.Contains(b, "A draws a hidden card") {
		t.Errorf("A's report:\n%s\nB's report:\n%s", a, b)
	}
	if g := h.game(); g.Status != adjudicator.Ended {
		t.Fatalf("game %s after its only turn", g.Status)
	}
	if !strings.Contains(b, "sealed dice are revealed") {
		t.Errorf("end report:\n%s", b)
	}
	// At the end every sealed draw can be checked.
	if res := h.verifyLog(); !res.OK() || res.Sealed != 0 || res.Rederived != 1 || !res.Ended {
		t.Errorf("log at the end: %+v", res)
	}
}

func TestPlayerMistakesAnswered(t *testing.T) {
	h := host(t, duel)
	cases := []struct {
		seat   string
		step   int
		orders []string
		want   string
	}{
		{"A", 1, []string{"move B1 0202"}, "line 4: B1 is not yours: it belongs to B"},
		{"A", 1, []string{"roll 2", "fly to the moon"}, `line 5: ignored: "fly to the moon" is not an order of this game`},
		{"A", 1, []string{"roll 9"}, "line 4: roll 9: roll 1 to 3 dice"},
		{"A", 1, []string{"move A9 0101"}, "there is no unit A9"},
		{"A", 2, []string{"pass"}, "step 2 is not open: game g1 is taking orders for step 1"},
	}
	for _, c := range cases {
		r := h.send(c.seat, c.step, c.orders...)
		if !strings.Contains(r, c.want) {
			t.Errorf("%v: receipt lacks %q:\n%s", c.orders, c.want, r)
		}
	}
	if r := h.send("A", 1, "roll 9", "# once more"); !strings.Contains(r, "not marked ready") {
		t.Errorf("a file with ignored lines marked the seat ready:\n%s", r)
	}
}

func TestAbsencePushesTheNextDeadline(t *testing.T) {
	h := host(t, duel)
	h.update(func(tx adjudicator.Tx) error {
		s, err := tx.Seat("g1", "B")
		if err != nil {
			return err
		}
		s.AbsentFrom, s.AbsentUntil = start.Add(90*time.Hour), start.Add(120*time.Hour)
		return tx.PutSeat(s)
	})
	h.send("A", 1, "pass")
	h.send("B", 1, "pass") // adjudicated at start: step 2 would be due at start+48h
	h.tick(start.Add(50 * time.Hour))
	h.send("A", 2, "pass")
	h.send("B", 2, "pass") // step 3 opens at start+50h: due at 98h, inside B's absence
	if d := h.step(3).Deadline; !d.Equal(start.Add(120 * time.Hour)) {
		t.Errorf("step 3 due %v, want the end of B's absence", d)
	}
}

// TestReplayReproducesEveryState plays random games: random orders, newer
// files replacing older ones, seats without orders, and clock ticks. Replaying each must reproduce every stored
// state and the dice log head.
func TestReplayReproducesEveryState(t *testing.T) {
	for seed := range uint64(25) {
		rng := rand.New(rand.NewPCG(seed, 7))
		h := host(t, strings.Replace(strings.Replace(duel, `"duel"`, `"trio"`, 1), "[schedule]", "[options]\nturns = \"4\"\n[schedule]", 1))
		orders := []string{"roll 1", "roll 3", "move %s1 0505", "secret", "challenge %s", "pass"}
		for steps := 0; steps < 40 && h.game().Status == adjudicator.Running; steps++ {
			g := h.game()
			st := h.step(g.Step)
			for _, seat := range st.Owing {
				if rng.IntN(4) == 0 {
					continue // no orders this time
				}
				var lines []string
				for range 1 + rng.IntN(3) {
					o := orders[rng.IntN(len(orders))]
					if strings.Contains(o, "%s") {
						other := []string{"A", "B", "C"}[rng.IntN(3)]
						if strings.HasPrefix(o, "move") {
							other = seat
						}
						o = fmt.Sprintf(o, other)
					}
					lines = append(lines, o)
				}
				if strings.Contains(st.Phase, "window") {
					lines = []string{[]string{"accept", "refuse"}[rng.IntN(2)]}
				}
				h.send(seat, int(st.Number), lines...)
				if h.step(st.Number).Status != "open" {
					break
				}
				if rng.IntN(3) == 0 && !strings.Contains(st.Phase, "window") {
					// A replacement: a newer file for the same step.
					h.send(seat, int(st.Number), "roll 2", fmt.Sprintf("# replacement %d", rng.IntN(1000)))
					if h.step(st.Number).Status != "open" {
						break
					}
				}
			}
			if h.step(st.Number).Status == "open" {
				h.tick(st.Deadline)
			}
		}
		var n int
		h.update(func(tx adjudicator.Tx) (err error) { n, err = h.judge.Replay(tx, "g1"); return err })
		if n == 0 {
			t.Errorf("seed %d: nothing replayed", seed)
		}
	}
}

func TestReplayDetectsATamperedState(t *testing.T) {
	h := host(t, duel)
	h.send("A", 1, "roll 2")
	h.send("B", 1, "roll 2")
	h.send("A", 2, "roll 1")
	h.send("B", 2, "pass")
	storetest.MustUpdate(t, h.db, func(tx *store.Tx) error {
		st, err := tx.Step("g1", 2)
		if err != nil {
			return err
		}
		st.State = []byte(strings.Replace(string(st.State), `"score":{"A":`, `"score":{"A":1`, 1))
		return tx.PutStep(st)
	})
	storetest.MustUpdate(t, h.db, func(tx *store.Tx) error {
		_, err := h.judge.Replay(tx.Judge("", h.now), "g1")
		if err == nil || !strings.Contains(err.Error(), "step 1: replayed state differs from the stored state of step 2") {
			t.Errorf("replay of a tampered game: %v", err)
		}
		return nil
	})
}

// TestRollback: the game master rolls back to step 2. Play goes on as a new
// step with step 2's state and a fresh dice link, the dice log stays in
// order and checks out, and replay accepts the history.
func TestRollback(t *testing.T) {
	h := host(t, duel)
	h.send("A", 1, "roll 2")
	h.send("B", 1, "roll 1")
	h.send("A", 2, "roll 3")
	h.send("B", 2, "pass") // step 3 opens
	var n uint64
	h.update(func(tx adjudicator.Tx) (err error) {
		n, err = h.judge.Rollback(tx, "g1", 2, h.now, dice.Hash{}, "test")
		return err
	})
	if n != 4 {
		t.Fatalf("rollback opened step %d, want 4", n)
	}
	if s3 := h.step(3); s3.Status != "rolled-back" {
		t.Errorf("step 3 is %s", s3.Status)
	}
	s4 := h.step(4)
	if s4.RestoredFrom != 2 || string(s4.State) != string(h.step(2).State) || s4.Phase != "turn-2" {
		t.Errorf("step 4: restored from %d, phase %s, state %s", s4.RestoredFrom, s4.Phase, s4.State)
	}
	if r := h.send("A", 3, "roll 1"); !strings.Contains(r, "step 3 is not open: game g1 is taking orders for step 4") {
		t.Errorf("orders for the rolled-back step:\n%s", r)
	}
	h.send("A", 4, "roll 1")
	h.send("B", 4, "roll 2")
	if h.step(4).Status != "closed" {
		t.Fatal("step 4 not adjudicated")
	}
	var replayed int
	h.update(func(tx adjudicator.Tx) (err error) { replayed, err = h.judge.Replay(tx, "g1"); return err })
	if replayed != 3 {
		t.Errorf("replayed %d steps, want 3 (1, 2 and 4)", replayed)
	}
	if res := h.verifyLog(); !res.OK() || res.Steps != 3 || res.Rollbacks != 1 {
		t.Errorf("log after a rollback: %+v", res)
	}
	x, err := dice.ParseExport(h.exportLog())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range x.Records {
		if r.Type == dice.TypeStep && r.Step.K == 3 || r.Type == dice.TypeDraw && r.Draw.Step == 3 {
			t.Error("the rolled-back step has a step record or drew dice")
		}
		if r.Type == dice.TypeRollback && (r.Rollback.Closed != 3 || r.Rollback.Target != 2) {
			t.Errorf("rollback record %+v, want step 3 closed back to 2", r.Rollback)
		}
	}
	// Rolling back to a restored step goes back to its source.
	h.update(func(tx adjudicator.Tx) (err error) {
		n, err = h.judge.Rollback(tx, "g1", 4, h.now, dice.Hash{}, "test")
		return err
	})
	if st := h.step(n); st.RestoredFrom != 2 {
		t.Errorf("rollback to step 4 restored from %d, want 2", st.RestoredFrom)
	}
}

func TestRollbackByMail(t *testing.T) {
	m := newMailJudge(t)
	m.sign("GM", "gm@players.test", "create\n"+mailGame)
	m.sign("ALICE", "alice@players.test", "join club-1 A")
	m.sign("BOB", "bob@players.test", "join club-1 B")
	m.sign("GM", "gm@players.test", "start club-1")
	m.sign("ALICE", "alice@players.test", "game: club-1\nstep: 1\nseat: A\nroll 1\nend\n")
	m.sign("BOB", "bob@players.test", "game: club-1\nstep: 1\nseat: B\nroll 1\nend\n")
	_, r := m.sign("ALICE", "alice@players.test", "rollback club-1 1")
	if !strings.Contains(r, "only the game master of club-1 may rollback it") {
		t.Errorf("a player's rollback:\n%s", r)
	}
	_, r = m.sign("GM", "gm@players.test", "rollback club-1 9")
	if !strings.Contains(r, "has steps 1 to 2") {
		t.Errorf("rollback to no step:\n%s", r)
	}
	m.sign("GM", "gm@players.test", "rollback club-1 1")
	if b := strings.Join(m.mailsTo("bob@players.test"), ""); !strings.Contains(b, "rolled club-1 back to the state in which step 1 opened") || !strings.Contains(b, "as step 3 (turn-1)") {
		t.Errorf("bob was not told of the rollback:\n%s", b)
	}
}

// TestRepeatLastOrders: in a game where no orders means the last orders
// again, a seat that sends nothing has its previous order file applied, and
// replay reproduces it.
func TestRepeatLastOrders(t *testing.T) {
	h := host(t, strings.Replace(duel, "[schedule]", "[options]\nno_orders = \"repeat\"\n[schedule]", 1))
	h.send("A", 1, "move A1 0404", "roll 1")
	h.send("B", 1, "pass")
	if st := h.step(2); st.NoOrders["A"] != "repeat" {
		t.Fatalf("step 2 no-orders: %v", st.NoOrders)
	}
	h.send("B", 2, "roll 1")
	h.tick(h.step(2).Deadline)
	st := h.step(2)
	if st.Status != "closed" || st.Repeated["A"] != (adjudicator.OrderRef{Step: 1, Version: 1}) || len(st.Orders) != 2 {
		t.Fatalf("step 2: status %s, repeated %v, %d digests", st.Status, st.Repeated, len(st.Orders))
	}
	rep := lastText(t, h.mails("a@players.test"), "step 2 report")
	if !strings.Contains(rep, "A moves A1 to 0404") || !strings.Contains(rep, "A rolls") {
		t.Errorf("A's repeated orders not applied:\n%s", rep)
	}
	// Step 3: A still silent: the orders of step 1 apply again, through
	// step 2's record.
	h.tick(h.step(3).Deadline)
	if st := h.step(3); st.Repeated["A"] != (adjudicator.OrderRef{Step: 1, Version: 1}) {
		t.Errorf("step 3 repeated %v", st.Repeated)
	}
	var n int
	h.update(func(tx adjudicator.Tx) (err error) { n, err = h.judge.Replay(tx, "g1"); return err })
	if n != 3 {
		t.Errorf("replayed %d steps", n)
	}
}

// TestReplayExport: a game exported from the judge replays away from it,
// from its public dice log; tampering is caught, and sealed draws wait for
// the game's end.
func TestReplayExport(t *testing.T) {
	export := func(h *hosted) *adjudicator.GameExport {
		var x *adjudicator.GameExport
		h.update(func(tx adjudicator.Tx) (err error) { x, err = h.judge.ExportGame(tx, "g1"); return err })
		var buf strings.Builder
		if err := json.NewEncoder(&buf).Encode(x); err != nil {
			t.Fatal(err)
		}
		y, err := adjudicator.ReadGameExport(strings.NewReader(buf.String()))
		if err != nil {
			t.Fatal(err)
		}
		return y
	}
	// A running game with a hidden draw: replayable up to it only.
	h := host(t, strings.Replace(duel, "[schedule]", "[options]\nturns = \"2\"\n[schedule]", 1))
	h.send("A", 1, "roll 2")
	h.send("B", 1, "secret")
	if _, err := h.judge.ReplayExport(export(h)); err == nil || !strings.Contains(err.Error(), `step 1 drew from hidden stream "hand-b", whose key is not public yet`) {
		t.Errorf("replay of a running game with sealed draws: %v", err)
	}
	h.send("A", 2, "roll 1")
	h.send("B", 2, "pass") // the game ends: sealed links revealed
	x := export(h)
	if n, err := h.judge.ReplayExport(x); err != nil || n != 2 {
		t.Fatalf("replay of the ended game: %d steps, %v", n, err)
	}
	// A changed state, a changed order file, a forged die.
	x = export(h)
	x.Steps[1].State = json.RawMessage(strings.Replace(string(x.Steps[1].State), `"turn":1`, `"turn":7`, 1))
	if _, err := h.judge.ReplayExport(x); err == nil || !strings.Contains(err.Error(), "replayed state differs") {
		t.Errorf("a changed state: %v", err)
	}
	x = export(h)
	x.Orders[0].Signed = append(x.Orders[0].Signed, '!')
	if _, err := h.judge.ReplayExport(x); err == nil || !strings.Contains(err.Error(), "do not have its digest") {
		t.Errorf("a changed order file: %v", err)
	}
	x = export(h)
	at := bytes.Index(x.Dice, []byte(`"spec":"2d6","values":[`)) + len(`"spec":"2d6","values":[`)
	x.Dice[at] = '0' + (x.Dice[at]-'0')%6 + 1
	if _, err := h.judge.ReplayExport(x); err == nil || !strings.Contains(err.Error(), "dice log does not verify") {
		t.Errorf("a forged die: %v", err)
	}
}

// TestCutLineRefused: a line the rules cannot read that is the cut-off end
// of the line above it (Gmail's plain text mode wraps at 78 columns) is
// refused with its line number and the hint; nothing is stored, and the
// judge never joins the two by guess. A long order followed by a good one
// is accepted.
func TestCutLineRefused(t *testing.T) {
	h := host(t, duel)
	long := "roll 2    # the dice decide it, as we agreed on the phone yesterday evening," // 76 columns
	if len(long) != 76 {
		t.Fatalf("the long line is %d columns", len(long))
	}
	r := h.send("A", 1, long, "then")
	for _, want := range []string{"NOT ACCEPTED", "line 5: this line looks like the end of line 4, cut off by your mail program", "shorten line 4 to under 78 characters"} {
		if !strings.Contains(r, want) {
			t.Errorf("receipt lacks %q:\n%s", want, r)
		}
	}
	if r := h.send("A", 1, long, "pass"); !strings.Contains(r, "ACCEPTED") && !strings.Contains(r, "accepted") || strings.Contains(r, "cut off") {
		t.Errorf("a long order followed by a good one:\n%s", r)
	}
}
