package adjudicator_test

import (
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/games/fake"
	"github.com/umpire-pbem/umpire/adjudicator/rulestest"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
)

// The tests of press, observers and the commands that look back (history,
// report, games, key), through intake and a real store. The same by real
// mail is in cmd/umpire (press_test.go).

// who is every address of a press game: the game master, seats A, B and C
// and a friend who observes.
var who = []string{"gm", "alice", "bob", "carol", "olga"}

// pressGame is a fake trio game with the settings extra (top-level keys
// first, then tables) whose seats A, B and C are held by alice, bob and
// carol, started.
func pressGame(t *testing.T, extra string) *mailJudge {
	t.Helper()
	return pressGameOf(t, fake.Game, extra)
}

// pressGameOf is pressGame under rules, a game whose id is "fake".
func pressGameOf(t *testing.T, rules adjudicator.Rules, extra string) *mailJudge {
	t.Helper()
	m := newMailJudge(t)
	m.intake.Judge.Games = adjudicator.NewRegistry(rules)
	_, r := m.sign("GM", "gm@players.test", "create\nid = \"club-1\"\ngame = \"fake\"\nscenario = \"trio\"\n"+extra+"\n[schedule]\nevery = \"48h\"\n")
	if !strings.Contains(r, "is created") {
		t.Fatalf("create: %s", r)
	}
	for i, s := range []string{"A", "B", "C"} {
		m.sign(strings.ToUpper(who[i+1]), who[i+1]+"@players.test", "join club-1 "+s)
	}
	if _, r := m.sign("GM", "gm@players.test", "start club-1"); !strings.Contains(r, "started") {
		t.Fatalf("start: %s", r)
	}
	return m
}

// key is the fingerprint who signs with in these tests.
func key(name string) string { return strings.ToUpper(name) }

// signAs sends text signed by name's key from name's address.
func (m *mailJudge) signAs(name, text string) string {
	m.t.Helper()
	_, r := m.sign(key(name), name+"@players.test", text)
	return r
}

// ask sends an unsigned message whose first line is text.
func (m *mailJudge) ask(from, text string) string {
	m.t.Helper()
	env := &adjudicator.Envelope{MessageID: fmt.Sprintf("%d@players.test", rand.Int()), From: from, Received: m.now, Text: text}
	var answer string
	storetest.MustUpdate(m.t, m.db, func(tx *store.Tx) error {
		_, err := m.intake.Handle(context.Background(), &capture{Tx: tx.Judge("judge@umpire.test", m.now), to: from, got: &answer}, env)
		return err
	})
	return answer
}

// queued returns the body of every mail queued to name's address that
// holds sub.
func (m *mailJudge) queued(name, sub string) []store.MailBody {
	m.t.Helper()
	var out []store.MailBody
	storetest.MustView(m.t, m.db, func(tx *store.Tx) error {
		due, err := tx.Due(time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC), 100000)
		for _, mm := range due {
			var b store.MailBody
			if err := json.Unmarshal(mm.Body, &b); err != nil {
				return err
			}
			if mm.To[0] == name+"@players.test" && strings.Contains(mm.Subject+"\n"+b.Text, sub) {
				out = append(out, b)
			}
		}
		return err
	})
	return out
}

// readers returns who received the press marked sub, with its text.
func (m *mailJudge) readers(sub string) map[string]string {
	got := map[string]string{}
	for _, w := range who {
		for _, b := range m.queued(w, sub) {
			if !strings.Contains(b.Text, "went to") { // not the sender's answer
				got[w] = b.Text
			}
		}
	}
	return got
}

func names(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestPressModes: in each mode of press.to, press reaches exactly the
// seats named, the game master unless gm_copy is off, and for press to
// all the observers; what a mode does not allow is refused with what it
// allows, and nothing is sent.
func TestPressModes(t *testing.T) {
	for _, c := range []struct {
		name, settings, from, command string
		want                          []string // readers; nil: refused
		refusal                       string
	}{
		{"private to one seat", "", "alice", "press club-1 TO B", []string{"bob", "gm"}, ""},
		{"private to two seats, one written twice, case ignored", "", "alice", "press club-1 TO b, C,B", []string{"bob", "carol", "gm"}, ""},
		{"private to all reaches the observer", "", "alice", "press club-1 TO all", []string{"bob", "carol", "gm", "olga"}, ""},
		{"to all without observers", "[press]\nobservers = false", "alice", "press club-1 TO all", []string{"bob", "carol", "gm"}, ""},
		{"private without the game master's copy", "[press]\ngm_copy = false", "alice", "press club-1 TO C", []string{"carol"}, ""},
		{"to gm without the copy still reaches the game master", "[press]\ngm_copy = false", "alice", "press club-1 TO gm", []string{"gm"}, ""},
		{"gm only", "[press]\nto = \"gm\"", "bob", "press club-1 TO gm", []string{"gm"}, ""},
		{"gm only refuses a seat", "[press]\nto = \"gm\"", "bob", "press club-1 TO A", nil, "may write to the game master only"},
		{"gm only refuses all", "[press]\nto = \"gm\"", "bob", "press club-1 TO all", nil, "may write to the game master only"},
		{"all only", "[press]\nto = \"all\"", "carol", "press club-1 TO all", []string{"alice", "bob", "gm", "olga"}, ""},
		{"all only refuses private press", "[press]\nto = \"all\"", "carol", "press club-1 TO A", nil, "never to some seats"},
		{"none", "[press]\nto = \"none\"", "alice", "press club-1 TO gm", nil, "a game without press"},
		{"the game master may always write", "[press]\nto = \"none\"", "gm", "press club-1 TO all", []string{"alice", "bob", "carol", "olga"}, ""},
		{"the game master to one seat", "", "gm", "press club-1 TO C", []string{"carol"}, ""},
		{"an observer may not write", "", "olga", "press club-1 TO all", nil, "holds no seat"},
		{"an unknown seat", "", "alice", "press club-1 TO Z", nil, `has no seat "Z": its seats are A, B, C`},
		{"only to oneself", "", "alice", "press club-1 TO A", nil, "names no reader but yourself"},
		{"grey refused", "", "alice", "press club-1 TO B grey", nil, "allows no grey press"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := pressGame(t, c.settings)
			if r := m.signAs("olga", "observe club-1"); !strings.Contains(r, "now observes club-1") {
				t.Fatalf("observe: %s", r)
			}
			r := m.signAs(c.from, c.command+"\nMeet me at the crossroads.\nendpress\nmail footer\n")
			got := m.readers("Meet me at the crossroads")
			if c.want == nil {
				if !strings.Contains(r, "not done") || !strings.Contains(r, c.refusal) || len(got) > 0 {
					t.Errorf("want a refusal with %q and no press; answer:\n%s\nreaders %v", c.refusal, r, names(got))
				}
				return
			}
			if !strings.Contains(r, "went to") || !slices.Equal(names(got), c.want) {
				t.Errorf("readers %v, want %v; answer:\n%s", names(got), c.want, r)
			}
			for w, text := range got {
				if strings.Contains(text, "mail footer") || strings.Contains(text, "endpress") {
					t.Errorf("%s reads what follows endpress:\n%s", w, text)
				}
				from := "From: seat " + map[string]string{"alice": "A", "bob": "B", "carol": "C"}[c.from]
				if c.from == "gm" {
					from = "From: the game master"
				}
				if !strings.Contains(text, from+"\n") {
					t.Errorf("%s's press does not say %q:\n%s", w, from, text)
				}
			}
			// The press is kept with the game, and not as orders.
			storetest.MustView(t, m.db, func(tx *store.Tx) error {
				ps, err := tx.PressOf("club-1")
				if err != nil || len(ps) != 1 || ps[0].Text != "Meet me at the crossroads." || len(ps[0].Readers) != len(c.want) {
					t.Errorf("stored press %+v, %v", ps, err)
				}
				os, err := tx.LatestOrders("club-1", 1)
				if err != nil || len(os) != 0 {
					t.Errorf("press became orders: %+v", os)
				}
				return nil
			})
		})
	}
}

// TestGreyPress: grey press names no seat to the players who read it (nor
// in its subject), while the game master sees who sent it; a game whose
// press is all grey makes every seat's press grey, and refuses white.
func TestGreyPress(t *testing.T) {
	m := pressGame(t, "[press]\ngrey = \"yes\"")
	m.signAs("olga", "observe club-1")
	r := m.signAs("bob", "press club-1 TO all grey\nWho am I?")
	if !strings.Contains(r, "It is grey press") {
		t.Errorf("the sender is not told the press is grey:\n%s", r)
	}
	got := m.readers("Who am I?")
	if !slices.Equal(names(got), []string{"alice", "carol", "gm", "olga"}) {
		t.Fatalf("readers %v", names(got))
	}
	for _, w := range []string{"alice", "carol", "olga"} {
		if strings.Contains(got[w], "seat B") || !strings.Contains(got[w], "not named (grey press)") {
			t.Errorf("%s learns the sender of grey press:\n%s", w, got[w])
		}
	}
	if !strings.Contains(got["gm"], "From: seat B (grey press") {
		t.Errorf("the game master is not told who sent grey press:\n%s", got["gm"])
	}
	storetest.MustView(t, m.db, func(tx *store.Tx) error {
		due, err := tx.Due(time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC), 1000)
		for _, mm := range due {
			if strings.Contains(mm.Subject, "press") && mm.To[0] != "gm@players.test" && mm.To[0] != "bob@players.test" && strings.Contains(mm.Subject, "seat B") {
				t.Errorf("the subject of grey press to %s names the sender: %s", mm.To[0], mm.Subject)
			}
		}
		return err
	})
	// White press by default in this game.
	m.signAs("bob", "press club-1 TO A\nIt is me, B.")
	if got := m.readers("It is me, B."); !strings.Contains(got["alice"], "From: seat B\n") {
		t.Errorf("white press does not name its sender:\n%s", got["alice"])
	}

	only := pressGame(t, "[press]\ngrey = \"only\"")
	only.signAs("carol", "press club-1 TO A\nGuess.")
	if got := only.readers("Guess."); strings.Contains(got["alice"], "seat C") || !strings.Contains(got["gm"], "From: seat C (grey") {
		t.Errorf("grey = only did not make the press grey:\n%s\n%s", got["alice"], got["gm"])
	}
	if r := only.signAs("carol", "press club-1 TO A white\nPlain."); !strings.Contains(r, "all press in club-1 is grey") {
		t.Errorf("white press in an all-grey game: %s", r)
	}
}

// TestPressWhenPausedOrEnded: press.paused and press.ended forbid a seat's
// press while the game is paused and after it ended; by default both are
// allowed; the game master may always write.
func TestPressWhenPausedOrEnded(t *testing.T) {
	m := pressGame(t, "[press]\npaused = false")
	m.signAs("gm", "pause club-1")
	if r := m.signAs("alice", "press club-1 TO B\nwhile paused"); !strings.Contains(r, "allow no press while it is paused") {
		t.Errorf("press while paused: %s", r)
	}
	if r := m.signAs("gm", "press club-1 TO all\nthe GM while paused"); !strings.Contains(r, "went to") {
		t.Errorf("the game master's press while paused: %s", r)
	}
	d := pressGame(t, "")
	d.signAs("gm", "pause club-1")
	if r := d.signAs("alice", "press club-1 TO B\nwhile paused"); !strings.Contains(r, "went to") {
		t.Errorf("press while paused, by default: %s", r)
	}

	e := pressGame(t, "[options]\nturns = \"1\"\n[press]\nended = false")
	e.signAs("gm", "process club-1 1")
	e.view(func(tx adjudicator.Tx) {
		if g, _ := tx.Game("club-1"); g.Status != adjudicator.Ended {
			t.Fatalf("the one-turn game is %s", g.Status)
		}
	})
	if r := e.signAs("bob", "press club-1 TO all\ngg"); !strings.Contains(r, "allow no press after the end") {
		t.Errorf("press after the end: %s", r)
	}
}

// TestPressLimits: a press without text, or too long, is refused, and
// control characters never reach a reader.
func TestPressLimits(t *testing.T) {
	m := pressGame(t, "")
	if r := m.signAs("alice", "press club-1 TO B\n\n  \n"); !strings.Contains(r, "it has no text") {
		t.Errorf("empty press: %s", r)
	}
	if r := m.signAs("alice", "press club-1 TO B\n"+strings.Repeat("x", adjudicator.MaxPress+1)); !strings.Contains(r, "send it in parts") {
		t.Errorf("long press: %s", r)
	}
	m.signAs("alice", "press club-1 TO B\nbell\a and\x1b[31m red")
	if got := m.readers("bell"); !strings.Contains(got["bob"], "bell and[31m red") {
		t.Errorf("control characters reached the reader:\n%q", got["bob"])
	}
	if r := m.signAs("alice", "press club-1 B\nx"); !strings.Contains(r, "write it as: press GAME TO") {
		t.Errorf("press without TO: %s", r)
	}
}

// TestObservers: any key observes with observe (its key attached the first
// time) and leaves with unobserve; a seat holder and the game master are
// told they get reports already; the game master lists, removes and
// forbids observers, and a game file may forbid them from the start.
func TestObservers(t *testing.T) {
	m := pressGame(t, "")
	if r := m.signAs("alice", "observe club-1"); !strings.Contains(r, "holds seat A of club-1") {
		t.Errorf("a seat observing: %s", r)
	}
	if r := m.signAs("gm", "observe club-1"); !strings.Contains(r, "you are the game master") {
		t.Errorf("the game master observing: %s", r)
	}
	if r := m.signAs("olga", "observe club-1"); !strings.Contains(r, "Key OLGA now observes club-1") {
		t.Fatalf("observe: %s", r)
	}
	if len(m.queued("gm", "Key OLGA (olga@players.test) now observes club-1")) != 1 {
		t.Error("the game master is not told of the new observer")
	}
	if r := m.signAs("olga", "observers club-1"); !strings.Contains(r, "only the game master") {
		t.Errorf("an observer listing observers: %s", r)
	}
	if r := m.signAs("gm", "observers club-1"); !strings.Contains(r, "OLGA  olga@players.test") {
		t.Errorf("observers: %s", r)
	}
	if r := m.signAs("olga", "unobserve club-1"); !strings.Contains(r, "no longer observes club-1") {
		t.Errorf("unobserve: %s", r)
	}
	if r := m.signAs("olga", "unobserve club-1\n# again"); !strings.Contains(r, "does not observe club-1") {
		t.Errorf("unobserve twice: %s", r)
	}
	m.signAs("olga", "observe club-1\n# back")
	if r := m.signAs("gm", "unobserve club-1 OLGA"); !strings.Contains(r, "Key OLGA no longer observes club-1; it is told") ||
		len(m.queued("olga", "removed you from its observers")) != 1 {
		t.Errorf("the game master's unobserve: %s", r)
	}
	m.signAs("olga", "observe club-1\n# third time")
	if r := m.signAs("gm", "observers club-1 forbid"); !strings.Contains(r, "the 1 who observed were removed") ||
		len(m.queued("olga", "no longer allows observers")) != 1 {
		t.Errorf("observers forbid: %s", r)
	}
	if r := m.signAs("olga", "observe club-1\n# fourth"); !strings.Contains(r, "does not allow observers") {
		t.Errorf("observe a game that forbids it: %s", r)
	}
	if r := m.ask("x@players.test", "status club-1"); !strings.Contains(r, "Observers: not allowed") || !strings.Contains(r, "Press: seats may write to any seats") {
		t.Errorf("status: %s", r)
	}
	m.signAs("gm", "observers club-1 allow")
	if r := m.signAs("olga", "observe club-1\n# fifth"); !strings.Contains(r, "now observes") {
		t.Errorf("observe once allowed again: %s", r)
	}

	closed := pressGame(t, "observers = false")
	if r := closed.signAs("olga", "observe club-1"); !strings.Contains(r, "does not allow observers") {
		t.Errorf("observe a game whose file forbids observers: %s", r)
	}
}

// TestObserverGetsThePublicView: every step's report reaches the observer
// in the public view: the events every seat sees, the dice with sealed
// ones sealed, the map; never a hand, a stream key, a sealed value or a
// seat's orders.
func TestObserverGetsThePublicView(t *testing.T) {
	m := pressGame(t, "")
	m.signAs("olga", "observe club-1")
	m.signAs("alice", "game: club-1\nstep: 1\nseat: A\nsecret\nmove A1 0303\nend\n")
	m.signAs("bob", "game: club-1\nstep: 1\nseat: B\nroll 2\nend\n")
	m.signAs("gm", "process club-1 1")
	got := m.queued("olga", "club-1 step 1 report")
	if len(got) != 1 || got[0].Report == nil {
		t.Fatalf("the observer got %d reports of step 1", len(got))
	}
	r := got[0].Report
	if r.Seat != adjudicator.Spectator || len(r.Hand) > 0 || len(r.Keys) > 0 || len(r.Orders) > 0 || r.YourOrders != "" {
		t.Errorf("the observer's report shows a hand, keys or orders: seat %q hand %v keys %v orders %v %q", r.Seat, r.Hand, r.Keys, r.Orders, r.YourOrders)
	}
	sealed := 0
	for _, d := range r.Dice {
		if d.Sealed {
			sealed++
			if len(d.Values) > 0 {
				t.Errorf("a sealed draw shows its values to the observer: %+v", d)
			}
		}
	}
	if sealed == 0 || r.Picture == nil || len(r.OrderList) != 2 {
		t.Errorf("the observer's report lacks the sealed draw, the map or the order list: %d sealed, %d order entries", sealed, len(r.OrderList))
	}
	if alice := m.queued("alice", "club-1 step 1 report"); len(alice) != 1 || len(alice[0].Report.Hand) == 0 || len(alice[0].Report.Orders) == 0 {
		t.Errorf("seat A's own report lacks its hand or orders")
	}
	if regexp.MustCompile(`card \d|secret|your orders`).MatchString(got[0].Text) {
		t.Errorf("the observer's text shows a card or an order:\n%s", got[0].Text)
	}
}

// TestReportHistoryGamesKey: report sends a past report again in the
// asker's own view; history lists the steps with when and why each closed;
// games lists the listed games; key attaches the judge's key.
func TestReportHistoryGamesKey(t *testing.T) {
	m := pressGame(t, "")
	m.intake.JudgeKey = &adjudicator.JudgeKey{Fingerprint: "JUDGEFPR", Armored: []byte("-----BEGIN PGP PUBLIC KEY BLOCK-----\n...\n")}
	if r := m.ask("x@players.test", "report club-1"); !strings.Contains(r, "has no report yet") {
		t.Errorf("report before any step: %s", r)
	}
	m.signAs("alice", "game: club-1\nstep: 1\nseat: A\nsecret\nend\n")
	m.signAs("gm", "process club-1 1")
	m.now = m.now.Add(time.Hour)
	m.signAs("alice", "ready club-1")
	m.signAs("bob", "ready club-1")
	m.signAs("carol", "ready club-1")

	view := func(name, command string, signed bool) *adjudicator.Report {
		t.Helper()
		before := len(m.queued(name, "(sent again)"))
		var r string
		if signed {
			r = m.signAs(name, command)
		} else {
			r = m.ask(name+"@players.test", command)
		}
		got := m.queued(name, "(sent again)")
		if len(got) != before+1 || got[len(got)-1].Report == nil {
			t.Fatalf("%s %q: no report; answer:\n%s", name, command, r)
		}
		return got[len(got)-1].Report
	}
	if r := view("alice", "report club-1 1", true); r.Seat != "A" || r.Step != 1 || len(r.Hand) == 0 || len(r.Keys) == 0 {
		t.Errorf("seat A's report again: seat %q step %d hand %v keys %v", r.Seat, r.Step, r.Hand, r.Keys)
	}
	if r := view("bob", "report club-1 1", true); r.Seat != "B" || len(r.Hand) > 0 || len(r.Keys) > 0 {
		t.Errorf("seat B's report again shows A's hand: %+v", r.Hand)
	}
	if r := view("gm", "report club-1", true); r.Seat != "" || r.Step != 2 {
		t.Errorf("the game master's last report: seat %q step %d", r.Seat, r.Step)
	}
	// the game master of a game with hidden hands is answered with the
	// public view before the end: no hand, key, private event or orders.
	if r := view("gm", "report club-1 1", true); r.Seat != "" || r.GMView != adjudicator.GMViewPublic || len(r.Hand) > 0 || len(r.Keys) > 0 ||
		len(r.Orders) > 0 || len(r.OrderList) != 1 || regexp.MustCompile(`card \d`).MatchString(strings.Join(eventTexts(r), "\n")) {
		t.Errorf("the game master's report of step 1 again shows hidden information: view %q, hand %v, keys %v, orders %v, events %v", r.GMView, r.Hand, r.Keys, r.Orders, eventTexts(r))
	}
	if got := m.queued("gm", "(sent again)"); !strings.Contains(got[len(got)-1].Text, "as the game master (the public view") || regexp.MustCompile(`card \d`).MatchString(got[len(got)-1].Text) {
		t.Errorf("the game master's answer does not say it is the public view, or names a card:\n%s", got[len(got)-1].Text)
	}
	if r := view("alice", "report club-1 1", false); r.Seat != adjudicator.Spectator || len(r.Hand) > 0 {
		t.Errorf("an unsigned report is not the public view: seat %q hand %v", r.Seat, r.Hand)
	}
	if r := view("olga", "report club-1 1", true); r.Seat != adjudicator.Spectator {
		t.Errorf("a key with no seat got seat %q's view", r.Seat)
	}
	for cmd, want := range map[string]string{
		"report club-1 3":   "Step 3 of club-1 has no report: it is open",
		"report club-1 9":   "it does not exist",
		"report club-1 one": `"one" is not a step number`,
		"report nogame":     `There is no game "nogame"`,
	} {
		if r := m.ask("x@players.test", cmd); !strings.Contains(r, want) {
			t.Errorf("%s: %s", cmd, r)
		}
	}
	h := m.ask("x@players.test", "history club-1")
	for _, want := range []string{
		"Step 1 (turn-1): opened Mon 23 Nov 2026 18:00 UTC.\n  Closed by the game master's process and adjudicated on Mon 23 Nov 2026 18:00 UTC.",
		"Step 2 (turn-2): opened Mon 23 Nov 2026 18:00 UTC.\n  Closed when every seat was ready and adjudicated on Mon 23 Nov 2026 19:00 UTC.",
		"Step 3 (turn-3): opened Mon 23 Nov 2026 19:00 UTC.\n  Open: orders due from A, B, C by Wed 25 Nov 2026 19:00 UTC.",
	} {
		if !strings.Contains(h, want) {
			t.Errorf("history lacks %q:\n%s", want, h)
		}
	}

	m.signAs("gm", "create\nid = \"secret-1\"\ngame = \"fake\"\nscenario = \"duel\"\nunlisted = true\n[schedule]\nevery = \"48h\"\n")
	g := m.ask("x@players.test", "games")
	if !strings.Contains(g, "club-1: Fake (a test game) (fake, scenario trio)\n  running at step 3, orders due Wed 25 Nov 2026 19:00 UTC\n  3 seats, no seat vacant; observers welcome") ||
		strings.Contains(g, "secret-1") {
		t.Errorf("games:\n%s", g)
	}
	if l := m.ask("x@players.test", "list"); strings.Contains(l, "secret-1") || !strings.Contains(l, "club-1") {
		t.Errorf("list shows an unlisted game, or not a listed one:\n%s", l)
	}
	if s := m.ask("x@players.test", "status secret-1"); !strings.Contains(s, "secret-1 (fake)") {
		t.Errorf("an unlisted game is not found by its id: %s", s)
	}
	k := m.queued("x", "the judge's key")
	if len(k) != 0 {
		t.Fatal("a key answer before asking")
	}
	m.ask("x@players.test", "key")
	k = m.queued("x", "the judge's key")
	if len(k) != 1 || !strings.Contains(k[0].Text, "OpenPGP key JUDGEFPR") || len(k[0].Files) != 1 ||
		k[0].Files[0].Name != "umpire-judge.asc" || !strings.HasPrefix(string(k[0].Files[0].Data), "-----BEGIN PGP PUBLIC KEY BLOCK-----") {
		t.Errorf("key answer: %+v", k)
	}
}

// TestPressRefusalsDocumented: every refusal of press, observers and the
// look-back commands (the reasons of "not done" answers, and the subjects
// of their error answers) is in docs/troubleshooting.md, with what to do.
func TestPressRefusalsDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "troubleshooting.md"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	n := 0
	for _, name := range []string{"press.go", "observe.go", "history.go"} {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(node ast.Node) bool {
			call, ok := node.(*ast.CallExpr)
			if !ok {
				return true
			}
			var lit ast.Expr
			switch fn := call.Fun.(type) {
			case *ast.SelectorExpr:
				switch {
				case fn.Sel.Name == "Errorf" && len(call.Args) > 0:
					lit = call.Args[0]
				case fn.Sel.Name == "reply" && len(call.Args) > 1:
					if k, ok := call.Args[0].(*ast.Ident); ok && k.Name == "MailError" {
						lit = call.Args[1]
						if s, ok := lit.(*ast.CallExpr); ok && len(s.Args) > 0 {
							lit = s.Args[0] // fmt.Sprintf("no report of step %d", k)
						}
					}
				}
			}
			l, ok := lit.(*ast.BasicLit)
			if !ok || l.Kind != token.STRING {
				return true
			}
			format, _ := strconv.Unquote(l.Value)
			n++
			if q := "`" + rulestest.DocForm(format) + "`"; !strings.Contains(string(doc), q) {
				t.Errorf("%s: docs/troubleshooting.md does not list %s", fset.Position(l.Pos()), q)
			}
			return true
		})
	}
	if n < 30 {
		t.Errorf("only %d refusals found: the walk is broken", n)
	}
}

// limits records whom each mail a message causes counts against in the
// reply limit.
type limits struct {
	adjudicator.Tx
	got map[string]string // To -> Limit
}

func (l *limits) Enqueue(mm adjudicator.Mail) error {
	l.got[mm.To] = mm.Limit
	return l.Tx.Enqueue(mm)
}

// TestPressIsNeverOrders: press whose text is an order file stores no
// orders and changes nothing in the step; the judge writes no hand into
// press; the same signed press sent again is not relayed again; and every
// mail a press causes counts against its sender's key only.
func TestPressIsNeverOrders(t *testing.T) {
	m := pressGame(t, "")
	m.signAs("alice", "game: club-1\nstep: 1\nseat: A\nsecret\nend\n")
	m.signAs("gm", "process club-1 1")
	orders := "press club-1 TO all\ngame: club-1\nstep: 2\nseat: A\nroll 3\nend\n"
	var got map[string]string
	storetest.MustUpdate(t, m.db, func(tx *store.Tx) error {
		l := &limits{Tx: tx.Judge("judge@umpire.test", m.now), got: map[string]string{}}
		env := &adjudicator.Envelope{MessageID: "p1@players.test", From: "alice@players.test", Received: m.now, Text: orders,
			Signed: &adjudicator.Signature{Kind: "openpgp", Fingerprint: "ALICE", Content: orders, Signed: []byte(orders)}}
		_, err := m.intake.Handle(context.Background(), l, env)
		got = l.got
		return err
	})
	if len(got) != 4 { // alice's answer, bob, carol, the game master
		t.Fatalf("the press caused mail to %v", got)
	}
	for to, limit := range got {
		if limit != "key ALICE" {
			t.Errorf("the press's mail to %s counts against %q, not alice's key", to, limit)
		}
	}
	relay := m.readers("roll 3")
	if !strings.Contains(relay["bob"], "seat: A\nroll 3") || regexp.MustCompile(`card \d`).MatchString(relay["bob"]) {
		t.Errorf("the press to bob is not the text as written, or shows a card:\n%s", relay["bob"])
	}
	if r := m.signAs("alice", orders); !strings.Contains(r, "was already carried out") {
		t.Errorf("the same signed press again: %s", r)
	}
	if n := len(m.queued("bob", "roll 3")); n != 1 {
		t.Errorf("bob got the press %d times", n)
	}
	m.signAs("gm", "process club-1 2")
	m.view(func(tx adjudicator.Tx) {
		if os, _ := tx.LatestOrders("club-1", 2); len(os) != 0 {
			t.Errorf("the press became orders of step 2: %+v", os)
		}
		if st, _ := tx.Step("club-1", 2); len(st.Used) != 0 {
			t.Errorf("step 2 used orders: %v", st.Used)
		}
	})
}

// TestObserverWhoTakesASeat: an observer who takes a seat gets that seat's
// report, not a second, public one; the game master's press to itself is
// refused.
func TestObserverWhoTakesASeat(t *testing.T) {
	m := pressGame(t, "")
	m.signAs("olga", "observe club-1")
	m.signAs("gm", "replace club-1 C")
	if r := m.signAs("olga", "join club-1 C"); !strings.Contains(r, "now holds seat C") {
		t.Fatalf("join: %s", r)
	}
	m.signAs("gm", "process club-1 1")
	got := m.queued("olga", "club-1 step 1 report")
	if len(got) != 1 || got[0].Report.Seat != "C" {
		t.Errorf("the observer who took seat C got %d reports of step 1", len(got))
	}
	if r := m.signAs("gm", "press club-1 TO gm\nnote to self"); !strings.Contains(r, "names no reader but yourself") {
		t.Errorf("the game master's press to itself: %s", r)
	}
}

// TestReportAgainGMSeesHands: with gm_sees_hands = true the game master's
// report command is answered with every seat's hand and orders, and says
// so; a seat's is unchanged.
func TestReportAgainGMSeesHands(t *testing.T) {
	m := pressGame(t, "gm_sees_hands = true")
	m.signAs("alice", "game: club-1\nstep: 1\nseat: A\nsecret\nend\n")
	m.signAs("gm", "process club-1 1")
	m.signAs("gm", "report club-1 1")
	got := m.queued("gm", "(sent again)")
	if len(got) != 1 || got[0].Report == nil {
		t.Fatalf("the game master has %d reports again", len(got))
	}
	r := got[0].Report
	if r.GMView != adjudicator.GMViewHands || len(r.Hand) != 1 || !strings.HasPrefix(r.Hand[0], "A: card ") || len(r.Orders) != 1 {
		t.Errorf("the game master who opted in: view %q, hand %v, orders %v", r.GMView, r.Hand, r.Orders)
	}
	if !strings.Contains(got[0].Text, "gm_sees_hands") {
		t.Errorf("the answer does not say the game master sees hands:\n%s", got[0].Text)
	}
	m.signAs("bob", "report club-1 1")
	if b := m.queued("bob", "(sent again)"); len(b) != 1 || len(b[0].Report.Hand) > 0 {
		t.Errorf("seat B's report again shows a hand")
	}
}
