package adjudicator_test

import (
	"crypto/sha256"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/beacon"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
	"github.com/umpire-pbem/umpire/adjudicator/games/fake"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
)

// The holes audit dice-audit-3 found in umpire-dice-v2, each as an attack
// that now fails (docs/dice-log.md, umpire-dice-v3).

// allMail is every mail queued, with the whole body it carries (text and
// report data), by address, in the order queued.
func (m *mailJudge) allMail() map[string][]string {
	out := map[string][]string{}
	storetest.MustView(m.t, m.db, func(tx *store.Tx) error {
		for id := uint64(1); ; id++ {
			mm, err := tx.Mail(id)
			if err != nil {
				return nil
			}
			out[mm.To[0]] = append(out[mm.To[0]], mm.Subject+"\n"+string(mm.Body))
		}
	})
	return out
}

var h1RE = regexp.MustCompile(`h_1\s+([0-9a-f]{64})`)

// TestV3CommitmentsBeforeOrders plays a v3 game by mail and checks what
// C1 and C2 promise: the creation mail, status, every join answer and the
// start announcement quote the commitments and h_1; a join's dice line is
// checked against h_1 and its hash is the seat's contribution in the start
// record; each holder, and nobody else, gets its own order salt, which
// matches its commitment; no mail a seat gets before its first receipt
// lacks the commitments; receipts and the log quote keyed digests, and no
// mail to anyone holds the unkeyed hash of an order text.
func TestV3CommitmentsBeforeOrders(t *testing.T) {
	m := newMailJudge(t)
	_, r := m.sign("GM", "gm@players.test", "create\n"+mailGame)
	var sec adjudicator.DiceSecrets
	m.view(func(tx adjudicator.Tx) { sec, _ = tx.DiceSecrets("club-1") })
	if !sec.V3() {
		t.Fatalf("a new game is scheme %d, not umpire-dice-v3", sec.Scheme)
	}
	for _, want := range []string{sec.Open0.String(), sec.Sealed0.String(), "beacon            none", "h_1"} {
		if !strings.Contains(r, want) {
			t.Errorf("the creation mail lacks %q:\n%s", want, r)
		}
	}
	m.sign("CAROL", "carol@players.test", "observe club-1")
	_, r = m.sign("ALICE", "alice@players.test", "status club-1")
	h := h1RE.FindStringSubmatch(r)
	if h == nil || !strings.Contains(r, sec.Open0.String()) {
		t.Fatalf("status quotes no commitments and h_1:\n%s", r)
	}
	h1 := h[1]
	// A join made against other commitments is refused; so is a bad nonce.
	for _, bad := range []struct{ text, why string }{
		{"join club-1 A\ndice " + strings.Repeat("ab", 32) + "\n", "h_1 of club-1"},
		{"join club-1 A\nnonce 12\n", "32 to 128 lowercase hex"},
		{"join club-1 A\nnonce " + strings.Repeat("AB", 16) + "\n", "lowercase hex"},
		{"join club-1 A\ndise " + h1 + "\n", "only 'dice H'"},
		{"join club-1 A\nnonce " + strings.Repeat("ab", 16) + "\nnonce " + strings.Repeat("cd", 16) + "\n", "two nonce lines"},
	} {
		if _, r := m.sign("ALICE", "alice@players.test", bad.text); !strings.Contains(r, bad.why) || !strings.Contains(r, "not done") {
			t.Errorf("join %q: want a refusal naming %q:\n%s", bad.text, bad.why, r)
		}
	}
	joinA := "join club-1 A\ndice " + h1 + "\nnonce " + strings.Repeat("5e", 16) + "\n"
	_, r = m.sign("ALICE", "alice@players.test", joinA)
	hashA := dice.Hash(sha256.Sum256([]byte(joinA)))
	if !strings.Contains(r, "now holds seat A") || !strings.Contains(r, hashA.String()) || !strings.Contains(r, h1) || !strings.Contains(r, sec.Sealed0.String()) {
		t.Errorf("the join answer does not quote the contribution and the commitments:\n%s", r)
	}
	joinB := "join club-1 B\n"
	m.sign("BOB", "bob@players.test", joinB)
	m.sign("GM", "gm@players.test", "start club-1")

	var start dice.Record
	m.view(func(tx adjudicator.Tx) { start, _ = tx.DiceRecord("club-1", 2) })
	if start.Type != dice.TypeStart || start.Start.Seats[0].Join != hashA || start.Start.Seats[1].Join != sha256.Sum256([]byte(joinB)) {
		t.Fatalf("record 2 is not the start record with each seat's join: %+v", start)
	}
	salts := map[string]dice.Hash{"A": dice.OrderSalt(sec.SealedRoot, "A"), "B": dice.OrderSalt(sec.SealedRoot, "B")}
	for seat, salt := range salts {
		i := map[string]int{"A": 0, "B": 1}[seat]
		// T(seat) = SHA-256("umpire-saltc-v3" || t), as docs/dice-log.md defines it.
		if sha256.Sum256(append([]byte("umpire-saltc-v3"), salt[:]...)) != start.Start.Seats[i].SaltCommitment {
			t.Errorf("seat %s's salt does not match its commitment in the start record", seat)
		}
	}
	orderA := "game: club-1\nstep: 1\nseat: A\nroll 1\nend\n"
	orderB := "game: club-1\nstep: 1\nseat: B\npass\nend\n"
	ra := func() string { _, r := m.sign("ALICE", "alice@players.test", orderA); return r }()
	keyedA := dice.OrderDigest(salts["A"], 1, 1, []byte(orderA))
	if !strings.Contains(ra, keyedA.String()) || strings.Contains(ra, dice.Hash(sha256.Sum256([]byte(orderA))).String()) {
		t.Errorf("A's receipt does not quote its keyed digest alone:\n%s", ra)
	}
	m.sign("BOB", "bob@players.test", orderB)

	mail := m.allMail()
	owner := map[string]string{"alice@players.test": "A", "bob@players.test": "B"}
	for addr, ms := range mail {
		for _, body := range ms {
			for seat, salt := range salts {
				if strings.Contains(body, salt.String()) && owner[addr] != seat {
					t.Errorf("%s got seat %s's order salt:\n%s", addr, seat, body)
				}
			}
			for _, o := range []string{orderA, orderB} {
				if strings.Contains(body, dice.Hash(sha256.Sum256([]byte(o))).String()) {
					t.Errorf("%s got the unkeyed SHA-256 of an order file:\n%s", addr, body)
				}
			}
		}
	}
	for addr, seat := range owner {
		got, receipt := false, false
		for _, body := range mail[addr] {
			if strings.Contains(body, salts[seat].String()) {
				got = true
			}
			if strings.Contains(body, "receipt club-1") {
				receipt = true
				break
			}
			// C2: every mail before the seat's first receipt quotes the
			// commitments and h_1.
			for _, want := range []string{sec.Open0.String(), sec.Sealed0.String(), h1} {
				if !strings.Contains(body, want) {
					t.Errorf("%s's mail before its first receipt lacks %s:\n%s", addr, want, body)
				}
			}
		}
		if !got || !receipt {
			t.Errorf("%s: its salt sent %v, a receipt %v", addr, got, receipt)
		}
	}
	if len(mail["carol@players.test"]) == 0 || len(mail["gm@players.test"]) == 0 {
		t.Error("the observer or the game master got no mail: the search for salts above saw nothing of theirs")
	}
	// The public log holds the keyed digests, checks with a seat's salt,
	// and holds no unkeyed hash of an order text.
	var log strings.Builder
	storetest.MustView(t, m.db, func(tx *store.Tx) error { _, err := tx.WriteDiceLog("club-1", &log); return err })
	res, err := dice.VerifyStream(strings.NewReader(log.String()), dice.VerifyOptions{Salts: map[string]dice.Hash{"A": salts["A"]}})
	if err != nil || !res.OK() || res.Steps != 1 || res.Joined != 2 || len(res.Salts) != 1 || len(res.Salts[0].Entries) != 1 || res.Salts[0].Entries[0].Digest != keyedA {
		t.Fatalf("the public log: %v %+v", err, res)
	}
	if strings.Contains(log.String(), dice.Hash(sha256.Sum256([]byte(orderA))).String()) {
		t.Error("the public log holds the unkeyed hash of A's orders")
	}
}

// TestV3BeaconDelayFloor: a game file asking for a beacon delay under
// max(60 s, 10 periods) is refused, naming the least delay accepted; the
// judge refuses such a header however it is asked; a v2 game created
// before keeps its delay.
func TestV3BeaconDelayFloor(t *testing.T) {
	reg := adjudicator.NewRegistry(fake.Game)
	chain := beacon.Quicknet
	custom := fmt.Sprintf(`chain_hash = %q, public_key = "%x", genesis = 1692803367, period = 30`, chain.ChainHash, chain.PublicKey)
	for _, c := range []struct{ setting, want string }{
		{`beacon = { network = "drand-quicknet", delay = "59s" }`, `at least "60s"`},
		{`beacon = { network = "drand-quicknet", delay = "0s" }`, `at least "60s"`},
		{`beacon = { ` + custom + `, delay = "299s" }`, `at least "300s"`},
		{`beacon = { network = "drand-quicknet", delay = "60s" }`, ""},
		{`beacon = { ` + custom + `, delay = "5m" }`, ""},
	} {
		_, err := adjudicator.ParseGameFile([]byte(strings.Replace(duel, "[schedule]", c.setting+"\n[schedule]", 1)), reg)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.setting, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want a refusal with %s", c.setting, err, c.want)
		}
	}
	m := newMailJudge(t)
	if _, r := m.sign("GM", "gm@players.test", "create\nbeacon = { network = \"drand-quicknet\", delay = \"30s\" }\n"+mailGame); !strings.Contains(r, "not created") || !strings.Contains(r, `"60s"`) {
		t.Errorf("a game with a beacon 30 s late created by mail:\n%s", r)
	}
	// Past the parser: the judge's own check, and v2's old leave.
	f, err := adjudicator.ParseGameFile([]byte(strings.Replace(duel, "[schedule]", "beacon = \"drand-quicknet\"\n[schedule]", 1)), reg)
	if err != nil {
		t.Fatal(err)
	}
	f.Beacon.Delay = 3
	for _, v2 := range []bool{false, true} {
		j := &adjudicator.Judge{Games: reg, ChainLength: 8}
		if v2 {
			adjudicator.CreateUnder(j, legacy.Records)
		}
		db := storetest.MustOpen(t)
		err := db.Update(t.Context(), func(tx *store.Tx) error { return j.Create(tx.Judge("", start), f, []byte(duel), start) })
		if v2 != (err == nil) {
			t.Errorf("a header with a 3 s delay, v2 %v: %v", v2, err)
		}
	}
}

// TestV3CloseNeverGoesBack: a step closed by a message received before
// the previous step's close (a judge clock set back) takes the previous
// close, so its beacon round is never an earlier one (C4); the log
// verifies.
func TestV3CloseNeverGoesBack(t *testing.T) {
	h := host(t, duel)
	h.now = start.Add(5 * time.Hour)
	h.send("A", 1, "roll 1")
	h.send("B", 1, "pass")
	if h.step(1).Status != adjudicator.StepClosed {
		t.Fatal("step 1 was not adjudicated")
	}
	h.now = start.Add(time.Hour) // the clock set back four hours
	h.send("A", 2, "roll 1")
	h.send("B", 2, "pass")
	s1, s2 := h.step(1).Dice.Close, h.step(2).Dice.Close
	if !s2.Equal(s1) || !s1.Equal(start.Add(5*time.Hour)) {
		t.Errorf("step 2 closes at %s, step 1 at %s: a close went back", s2, s1)
	}
	if res := h.verifyLog(); !res.OK() || res.Steps != 2 {
		t.Errorf("the log: %+v", res)
	}
}
