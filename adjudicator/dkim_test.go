package adjudicator_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/games/fake"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
)

// The tests of seats held by a mail address (identity = "dkim"), through
// intake and a real store. The DKIM verification itself is mail/intake's
// (dkim_test.go); by real mail, cmd/umpire's TestDKIMSeatByRealMail.

// dkimMail sends text from address as a message its provider signed with
// DKIM and no key signed; problem, when set, is why its DKIM signature
// does not count.
func (m *mailJudge) dkimMail(address, text, problem string) (adjudicator.Outcome, string) {
	m.t.Helper()
	env := &adjudicator.Envelope{MessageID: fmt.Sprintf("%d@players.test", rand.Int()), From: address, Received: m.now, Text: text}
	if problem != "" {
		env.DKIMProblem = problem
	} else {
		env.DKIM = &adjudicator.Signature{Kind: adjudicator.KindDKIM, Fingerprint: adjudicator.DKIMHolder(address), Content: text, Signed: []byte(text)}
	}
	var out adjudicator.Outcome
	var answer string
	storetest.MustUpdate(m.t, m.db, func(tx *store.Tx) error {
		var err error
		out, err = m.intake.Handle(context.Background(), &capture{Tx: tx.Judge("judge@umpire.test", m.now), to: address, got: &answer}, env)
		return err
	})
	return out, answer
}

// dkimGame is a fake trio game club-1 whose file says identity (none
// when ""), with seat A held by alice's key and C by carol's.
func dkimGame(t *testing.T, identity string) *mailJudge {
	t.Helper()
	m := newMailJudge(t)
	file := "create\nid = \"club-1\"\ngame = \"fake\"\nscenario = \"trio\"\n"
	if identity != "" {
		file += "identity = \"" + identity + "\"\n"
	}
	if _, r := m.sign("GM", "gm@players.test", file+"[schedule]\nevery = \"48h\"\n"); !strings.Contains(r, "is created") {
		t.Fatalf("create: %s", r)
	}
	m.signAs("alice", "join club-1 A")
	m.signAs("carol", "join club-1 C")
	return m
}

// TestDKIMHeldSeat: in a game with identity = "dkim", bob joins from his
// mail address without a key, is told what that means, his orders are
// accepted with a receipt that says how they were signed, and the public
// answers name the seat as held by DKIM without giving his address away.
func TestDKIMHeldSeat(t *testing.T) {
	m := dkimGame(t, "dkim")
	_, r := m.dkimMail("Bob@Players.test", "join club-1 B", "")
	for _, want := range []string{"The mail address bob@players.test (by DKIM, without a key) now holds seat B of club-1",
		"anyone who has your mailbox's password, can write as you"} {
		if !strings.Contains(r, want) {
			t.Errorf("join answer lacks %q:\n%s", want, r)
		}
	}
	if got := m.queued("alice", "seat B taken"); len(got) != 1 || !strings.Contains(got[0].Text, "dkim:…@players.test") || strings.Contains(got[0].Text, "bob@") {
		t.Errorf("alice's announcement of seat B should name it held by dkim:…@players.test, not bob's address: %+v", got)
	}
	if _, r := m.sign("GM", "gm@players.test", "start club-1"); !strings.Contains(r, "started") {
		t.Fatalf("start: %s", r)
	}
	if got := m.queued("bob", "order salt"); len(got) != 1 {
		t.Errorf("bob's address got %d start announcements with his order salt, want 1", len(got))
	}
	out, r := m.dkimMail("bob@players.test", "game: club-1\nstep: 1\nseat: B\nroll 2\nend\n", "")
	if out != adjudicator.Understood || !strings.Contains(r, "ACCEPTED: orders of seat B for step 1 of club-1, version 1") ||
		!strings.Contains(r, "Sent from bob@players.test, signed by its mail provider (DKIM), not by a key.") {
		t.Errorf("bob's orders by DKIM: outcome %v, answer:\n%s", out, r)
	}
	// Another address of the same provider holds nothing.
	if _, r := m.dkimMail("mallory@players.test", "game: club-1\nstep: 1\nseat: B\npass\nend\n", ""); !strings.Contains(r, "NOT ACCEPTED") ||
		!strings.Contains(r, "seat B of club-1 is not held by the key that signed (dkim:mallory@players.test)") {
		t.Errorf("mallory's orders for bob's seat should be refused:\n%s", r)
	}
	status := m.ask("olga@players.test", "status club-1")
	if !strings.Contains(status, "held by a mail address (dkim:…@players.test, by DKIM, without a key)") || strings.Contains(status, "bob@") {
		t.Errorf("status should show seat B held by DKIM without bob's address:\n%s", status)
	}
}

// TestDKIMRefusals: in a game that allows DKIM, a message whose DKIM
// signature does not count is answered with why and what to do; in a
// game of keys only the same messages are unsigned, answered as before.
func TestDKIMRefusals(t *testing.T) {
	m := dkimGame(t, "dkim")
	out, r := m.dkimMail("bob@players.test", "join club-1 B", "its body was changed after players.test signed it")
	for _, want := range []string{"Game club-1 lets a mail address hold a seat",
		"its body was changed after players.test signed it", "docs/signing.md"} {
		if !strings.Contains(r, want) {
			t.Errorf("refusal lacks %q:\n%s", want, r)
		}
	}
	if out != adjudicator.Refused {
		t.Errorf("outcome %v, want Refused", out)
	}
	if status := m.ask("olga@players.test", "status club-1"); !strings.Contains(status, "B            vacant") {
		t.Errorf("seat B should stay vacant:\n%s", status)
	}

	keys := dkimGame(t, "")
	for _, problem := range []string{"", "it carries no DKIM signature"} {
		out, r := keys.dkimMail("bob@players.test", "join club-1 B", problem)
		if out != adjudicator.Refused || !strings.Contains(r, "not signed") || strings.Contains(r, "DKIM") {
			t.Errorf("in a game of keys, a join by DKIM (problem %q) should be unsigned mail: outcome %v:\n%s", problem, out, r)
		}
	}
}

// TestGameFileIdentity: identity is "keys" by default, "dkim" when the game
// master allows it, and any other value is refused with its line and the
// values allowed.
func TestGameFileIdentity(t *testing.T) {
	reg := adjudicator.NewRegistry(fake.Game)
	base := "id = \"club-1\"\ngame = \"fake\"\nscenario = \"trio\"\n"
	sched := "[schedule]\nevery = \"48h\"\n"
	for _, c := range []struct{ line, want, err string }{
		{"", "", ""},
		{"identity = \"keys\"\n", "keys", ""},
		{"identity = \"dkim\"\n", "dkim", ""},
		{"identity = \"passwords\"\n", "", `game file: line 4: identity "passwords" is unknown: write "keys"`},
	} {
		f, err := adjudicator.ParseGameFile([]byte(base+c.line+sched), reg)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) || !strings.Contains(err.Error(), `or "dkim"`) {
				t.Errorf("%q: error %v, want one containing %q", c.line, err, c.err)
			}
		case err != nil:
			t.Errorf("%q: %v", c.line, err)
		case string(f.Identity) != c.want:
			t.Errorf("%q: identity %q, want %q", c.line, f.Identity, c.want)
		}
	}
}
