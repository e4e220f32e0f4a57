package adjudicator_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/games/fake"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
)

// mailJudge is a judge with no games yet, driven only by signed mail.
type mailJudge struct {
	t      *testing.T
	db     *store.DB
	intake *adjudicator.Intake
	now    time.Time
	known  map[string]bool // keys the judge has stored
}

func newMailJudge(t *testing.T) *mailJudge {
	n := byte(0)
	j := &adjudicator.Judge{Games: adjudicator.NewRegistry(fake.Game), ChainLength: 64,
		NewRoot: func() (dice.Hash, error) { n++; return sha256.Sum256([]byte{n}), nil }}
	return &mailJudge{t: t, db: storetest.MustOpen(t), intake: &adjudicator.Intake{Judge: j}, now: start, known: map[string]bool{}}
}

// sign sends text signed by key from address; a key the judge does not
// know yet travels with the message, as a player attaches it.
func (m *mailJudge) sign(key, from, text string) (adjudicator.Outcome, string) {
	m.t.Helper()
	env := &adjudicator.Envelope{MessageID: fmt.Sprintf("%d@players.test", rand.Int()), From: from, Received: m.now, Text: text,
		Signed: &adjudicator.Signature{Kind: "openpgp", Fingerprint: key, Content: text, Signed: []byte(text)}}
	if !m.known[key] {
		env.NewKey = &adjudicator.NewKey{Fingerprint: key, Kind: "openpgp", Public: []byte("public key of " + key)}
	}
	var out adjudicator.Outcome
	var answer string
	storetest.MustUpdate(m.t, m.db, func(tx *store.Tx) error {
		var err error
		out, err = m.intake.Handle(context.Background(), &capture{Tx: tx.Judge("judge@umpire.test", m.now), to: from, got: &answer}, env)
		if err != nil {
			return err
		}
		_, err = tx.Key(key)
		m.known[key] = err == nil
		return nil
	})
	return out, answer
}

// capture collects the text of every mail a message causes to one
// address.
type capture struct {
	adjudicator.Tx
	to  string
	got *string
	// files, when set, gets the files attached to the answers to to.
	files *[]adjudicator.File
}

func (c *capture) Enqueue(mm adjudicator.Mail) error {
	if mm.To == c.to {
		*c.got += mm.Text
		if c.files != nil {
			*c.files = append(*c.files, mm.Files...)
		}
	}
	return c.Tx.Enqueue(mm)
}

func (m *mailJudge) view(fn func(tx adjudicator.Tx)) {
	storetest.MustView(m.t, m.db, func(tx *store.Tx) error { fn(tx.Judge("", m.now)); return nil })
}

func (m *mailJudge) mailsTo(addr string) []string {
	var out []string
	storetest.MustView(m.t, m.db, func(tx *store.Tx) error {
		due, err := tx.Due(time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC), 100000)
		for _, mm := range due {
			if mm.To[0] == addr {
				out = append(out, text(m.t, mm))
			}
		}
		return err
	})
	return out
}

const mailGame = `id = "club-1"
game = "fake"
scenario = "duel"
[schedule]
every = "48h"
absence_days = 7
`

func TestGameByMail(t *testing.T) {
	m := newMailJudge(t)
	want := func(got, sub string) {
		t.Helper()
		if !strings.Contains(got, sub) {
			t.Errorf("answer lacks %q:\n%s", sub, got)
		}
	}
	_, r := m.sign("GM", "gm@players.test", "create\n"+mailGame)
	want(r, "Game club-1 (fake, scenario duel) is created")
	want(r, "Dice commitments")
	_, r = m.sign("ALICE", "alice@players.test", "game: club-1\nstep: 1\nseat: A\npass\nend\n")
	want(r, "holds no seat")
	_, r = m.sign("ALICE", "alice@players.test", "join club-1 A")
	want(r, "Key ALICE now holds seat A of club-1")
	want(r, "Sign your order files with this same key: docs/signing.md says how")
	_, r = m.sign("BOB", "bob@players.test", "join club-1 A")
	want(r, "seat A of club-1 is taken")
	_, r = m.sign("BOB", "bob@players.test", "join club-1 Z")
	want(r, "has no seat \"Z\"; its seats are A, B")
	m.sign("BOB", "bob@players.test", "join club-1 B")
	if gm := m.mailsTo("gm@players.test"); len(gm) < 2 || !strings.Contains(strings.Join(gm, ""), "Seat B of club-1 is now held by key BOB") {
		t.Errorf("the GM was not told of the joins: %q", gm)
	}
	_, r = m.sign("ALICE", "alice@players.test", "start club-1")
	want(r, "only the game master of club-1 may start it")
	m.sign("GM", "gm@players.test", "start club-1")
	bobs := m.mailsTo("bob@players.test")
	want(bobs[len(bobs)-1], "The game master started club-1. Step 1 (turn-1) is open")

	// Not ready holds the step; ready releases it.
	m.sign("ALICE", "alice@players.test", "notready club-1")
	_, r = m.sign("ALICE", "alice@players.test", "game: club-1\nstep: 1\nseat: A\nroll 1\nend\n")
	want(r, "now ready") // sending orders makes a seat ready again
	_, r = m.sign("ALICE", "alice@players.test", "notready club-1")
	want(r, "was already carried out on") // the same signed text again
	want(r, "change its text")
	_, r = m.sign("ALICE", "alice@players.test", "notready club-1 2")
	want(r, "step 2 of club-1 is not open: it has not opened yet; the open step is 1")
	m.sign("ALICE", "alice@players.test", "notready club-1 1")
	_, r = m.sign("BOB", "bob@players.test", "game: club-1\nstep: 1\nseat: B\npass\nend\n")
	if strings.Contains(r, "adjudicated at once") {
		t.Errorf("processed while A was not ready:\n%s", r)
	}
	_, r = m.sign("ALICE", "alice@players.test", "ready club-1")
	want(r, "Every seat is ready: the step was adjudicated at once")

	// Pause keeps the time left; resume gives it back; extend moves it.
	var before time.Time
	m.view(func(tx adjudicator.Tx) { st, _ := tx.Step("club-1", 2); before = st.Deadline })
	m.now = m.now.Add(10 * time.Hour)
	m.sign("GM", "gm@players.test", "pause club-1")
	m.now = m.now.Add(100 * time.Hour)
	m.sign("GM", "gm@players.test", "resume club-1")
	m.view(func(tx adjudicator.Tx) {
		st, _ := tx.Step("club-1", 2)
		if got, want := st.Deadline, before.Add(100*time.Hour); !got.Equal(want) {
			t.Errorf("after pause and resume the deadline is %v, want %v", got, want)
		}
	})
	_, r = m.sign("GM", "gm@players.test", "extend club-1 24h")
	want(r, "extended the deadline of club-1 by 24h0m0s")
	_, r = m.sign("GM", "gm@players.test", "extend club-1 soon")
	want(r, `"soon" is not a duration`)
	_, r = m.sign("GM", "gm@players.test", "extend club-1 24h 1")
	want(r, "step 1 of club-1 is not open")

	// Absences are capped.
	_, r = m.sign("BOB", "bob@players.test", "absence club-1 2026-12-01 2026-12-20")
	want(r, "allows 7 per seat")
	_, r = m.sign("BOB", "bob@players.test", "absence club-1 2026-12-01 2026-12-03")
	want(r, "absent from 2026-12-01 to 2026-12-03")

	// The GM processes the step now; the command names the step.
	_, r = m.sign("GM", "gm@players.test", "process club-1")
	want(r, "write 'process club-1 2'")
	_, r = m.sign("GM", "gm@players.test", "process club-1 1")
	want(r, "step 1 of club-1 is not open: it was closed on Mon 23 Nov 2026 18:00 UTC; the open step is 2")
	_, r = m.sign("GM", "gm@players.test", "process club-1 2")
	want(r, "had step 2 of club-1 adjudicated now")
	// The same signed mail again (a replay with a new Message-ID) does
	// nothing: step 3 stays open.
	_, r = m.sign("GM", "gm@players.test", "process club-1 2")
	want(r, "already carried out on")
	m.view(func(tx adjudicator.Tx) {
		if g, _ := tx.Game("club-1"); g.Step != 3 {
			t.Errorf("a replayed process moved the game to step %d", g.Step)
		}
	})
	alices := m.mailsTo("alice@players.test")
	want(strings.Join(alices, ""), "club-1 (fake), step 2 (turn-2) adjudicated")

	// Resigning frees the seat; the GM and the other player are told.
	_, r = m.sign("BOB", "bob@players.test", "resign club-1")
	want(r, "You no longer hold seat B of club-1")
	want(strings.Join(m.mailsTo("alice@players.test"), ""), "The holder of seat B of club-1 resigned")
	_, r = m.sign("GM", "gm@players.test", "eject club-1 A")
	want(r, "ejected the holder of seat A")
	m.view(func(tx adjudicator.Tx) {
		seats, _ := tx.Seats("club-1")
		for _, s := range seats {
			if s.Holder != "" {
				t.Errorf("seat %s still held by %s", s.Name, s.Holder)
			}
		}
	})
}

func TestCreateByMailChecksTheFile(t *testing.T) {
	m := newMailJudge(t)
	cases := []struct{ file, want string }{
		{strings.Replace(mailGame, `"fake"`, `"chess"`, 1), `no game "chess"`},
		{strings.Replace(mailGame, `every = "48h"`, `cron = "every tuesday"`, 1), `cron "every tuesday"`},
		{"gm = \"SOMEONE\"\n" + mailGame, "names game master key SOMEONE, but the message is signed by GM"},
		{mailGame + "color = \"red\"\n", "unknown setting schedule.color"},
	}
	for _, c := range cases {
		_, r := m.sign("GM", "gm@players.test", "create\n"+c.file)
		if !strings.Contains(r, c.want) {
			t.Errorf("create answer lacks %q:\n%s", c.want, r)
		}
	}
}

// TestWitnessedRolls: a registered key asks the dice service for a roll;
// every party gets the faces and what is needed to check them, and the
// service's public log verifies.
func TestWitnessedRolls(t *testing.T) {
	m := newMailJudge(t)
	m.sign("GM", "gm@players.test", "create\n"+mailGame)
	m.sign("ALICE", "alice@players.test", "join club-1 A")
	_, r := m.sign("ALICE", "alice@players.test", `roll 2d6 FOR "assault on 1708" TO bob@players.test carol@players.test`)
	for _, want := range []string{"Roll: 2d6 = [", "assault on 1708", "draw 1, step 1 of the chain", "log dice-service"} {
		if !strings.Contains(r, want) {
			t.Errorf("roll answer lacks %q:\n%s", want, r)
		}
	}
	if b := m.mailsTo("bob@players.test"); len(b) != 1 || !strings.Contains(b[0], "Requested by key ALICE") {
		t.Errorf("bob's copy: %q", b)
	}
	if c := m.mailsTo("carol@players.test"); len(c) != 1 {
		t.Errorf("carol got %d copies", len(c))
	}
	_, r = m.sign("ALICE", "alice@players.test", `roll 1d10(0-9) FOR "morale" TO bob@players.test`)
	if !strings.Contains(r, "1d10(0-9) = [") || !strings.Contains(r, "draw 2, step 2") {
		t.Errorf("second roll:\n%s", r)
	}
	_, r = m.sign("MALLORY", "mallory@players.test", `roll 1d6 FOR "x" TO bob@players.test`)
	if !strings.Contains(r, "not registered") {
		t.Errorf("an unregistered key rolled:\n%s", r)
	}
	_, r = m.sign("ALICE", "alice@players.test", `roll lots FOR fun`)
	if !strings.Contains(r, "write it as: roll 2d6") {
		t.Errorf("bad roll request:\n%s", r)
	}
	// Anyone can fetch the service's log and check it: it comes attached
	// as a file.
	var answer string
	var files []adjudicator.File
	storetest.MustUpdate(t, m.db, func(tx *store.Tx) error {
		env := &adjudicator.Envelope{MessageID: "log@players.test", From: "dave@players.test", Subject: "log dice-service", Received: m.now}
		_, err := m.intake.Handle(context.Background(), &capture{Tx: tx.Judge("judge@umpire.test", m.now), to: env.From, got: &answer, files: &files}, env)
		return err
	})
	if len(files) != 1 || files[0].Name != "dice-service-log.json" || files[0].Type != "application/json" ||
		!strings.Contains(answer, "attached to this mail as dice-service-log.json") || strings.Contains(answer, `"records"`) {
		t.Fatalf("log answer, with %d files:\n%s", len(files), answer)
	}
	res, err := dice.VerifyStream(bytes.NewReader(files[0].Data), dice.VerifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK() || res.Rederived != 2 || res.Steps != 2 {
		t.Errorf("the service's log: %+v", res)
	}
}

func TestJoinWithApproval(t *testing.T) {
	m := newMailJudge(t)
	m.sign("GM", "gm@players.test", "create\njoin_approval = true\n"+mailGame)
	_, r := m.sign("ALICE", "alice@players.test", "join club-1 A")
	if !strings.Contains(r, "is with the game master") || !strings.Contains(r, "docs/signing.md says how") {
		t.Errorf("join in a game with approval:\n%s", r)
	}
	if gm := strings.Join(m.mailsTo("gm@players.test"), ""); !strings.Contains(gm, "Send 'approve club-1 A' or 'refuse club-1 A'") {
		t.Errorf("the GM was not asked:\n%s", gm)
	}
	_, r = m.sign("BOB", "bob@players.test", "join club-1 A")
	if !strings.Contains(r, "another player has asked for seat A") {
		t.Errorf("a second request for the same seat:\n%s", r)
	}
	m.sign("GM", "gm@players.test", "approve club-1 A")
	if a := strings.Join(m.mailsTo("alice@players.test"), ""); !strings.Contains(a, "gave seat A of club-1 to key ALICE") {
		t.Errorf("alice was not told:\n%s", a)
	}
	m.sign("BOB", "bob@players.test", "join club-1 B")
	_, r = m.sign("GM", "gm@players.test", "refuse club-1 B")
	if !strings.Contains(r, "request for seat B of club-1 is refused") || !strings.Contains(strings.Join(m.mailsTo("bob@players.test"), ""), "did not give you seat B") {
		t.Errorf("refusal: %s / %q", r, m.mailsTo("bob@players.test"))
	}
	m.view(func(tx adjudicator.Tx) {
		a, _ := tx.Seat("club-1", "A")
		b, _ := tx.Seat("club-1", "B")
		if a.Holder != "ALICE" || b.Holder != "" || b.Pending != "" {
			t.Errorf("seats after the decisions: A %+v, B %+v", a, b)
		}
	})
}

// TestReplacementKeepsHistory: a seat given to a new player keeps the old
// holder in its history, with the time the change happened.
func TestReplacementKeepsHistory(t *testing.T) {
	m := newMailJudge(t)
	m.sign("GM", "gm@players.test", "create\n"+mailGame)
	m.sign("ALICE", "alice@players.test", "join club-1 A")
	m.now = m.now.Add(time.Hour)
	m.sign("GM", "gm@players.test", "eject club-1 A")
	m.now = m.now.Add(time.Hour)
	m.sign("CAROL", "carol@players.test", "join club-1 A")
	storetest.MustView(t, m.db, func(tx *store.Tx) error {
		s, err := tx.Seat("club-1", "A")
		if err != nil {
			return err
		}
		if len(s.Holders) != 2 || s.Holders[0].Key != "ALICE" || !s.Holders[0].Until.Equal(start.Add(time.Hour)) ||
			s.Holders[1].Key != "CAROL" || !s.Holders[1].Until.IsZero() || !s.Holders[1].From.Equal(start.Add(2*time.Hour)) {
			t.Errorf("seat A's history: %+v", s.Holders)
		}
		return nil
	})
}

// fileRules is the fake game with an option that may name a file, as War
// by Television's map does.
type fileRules struct{ adjudicator.Rules }

func (fileRules) FileOptions() []string { return []string{"map"} }

// TestCreateByMailReadsNoFiles: a game master by mail cannot make the judge
// read a file of its own machine through an option; the file's text is
// what such an option must hold.
func TestCreateByMailReadsNoFiles(t *testing.T) {
	m := newMailJudge(t)
	m.intake.Judge.Games = adjudicator.NewRegistry(fileRules{fake.Game})
	_, r := m.sign("GM", "gm@players.test", "create\n"+strings.Replace(mailGame, "[schedule]", "[options]\nmap = \"/etc/passwd\"\n[schedule]", 1))
	if !strings.Contains(r, "option map names a file") || !strings.Contains(r, "The game was not created") {
		t.Errorf("a path in a file option by mail:\n%s", r)
	}
	_, r = m.sign("GM", "gm@players.test", "create\n"+strings.Replace(mailGame, "[schedule]", "[options]\nmap = '''\n[grid]\n'''\n[schedule]", 1))
	if strings.Contains(r, "names a file") {
		t.Errorf("the file's text was refused as a path:\n%s", r)
	}
}
