package adjudicator_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/games/fake"
	"github.com/umpire-pbem/umpire/templates"
)

// The game file's publish_orders (issue 31, section 4): what every seat,
// the game master and an observer see of the seats' orders after a step.

// publishStep plays step 1 of a talk game (fake trio, rules) with the
// settings extra, olga observing: A draws a hidden card and moves, B
// rolls, C sends nothing; the game master processes the step. It returns
// the rendered text and HTML of the report of step 1 each address got.
func publishStep(t *testing.T, rules adjudicator.Rules, extra string) (text, html map[string]string) {
	t.Helper()
	m := pressGameOf(t, rules, extra)
	m.signAs("olga", "observe club-1")
	m.signAs("alice", "game: club-1\nstep: 1\nseat: A\nsecret\nmove A1 0303\nend\n")
	m.signAs("bob", "game: club-1\nstep: 1\nseat: B\nroll 2\nend\n")
	m.signAs("gm", "process club-1 1")
	rs, err := templates.NewReports("")
	if err != nil {
		t.Fatal(err)
	}
	text, html = map[string]string{}, map[string]string{}
	for _, name := range who {
		got := m.queued(name, "club-1 step 1 report")
		if len(got) != 1 || got[0].Report == nil {
			t.Fatalf("%s got %d reports of step 1", name, len(got))
		}
		out, err := rs.Render(got[0].Report)
		if err != nil {
			t.Fatal(err)
		}
		text[name], html[name] = out.Text, out.HTML
	}
	return text, html
}

// TestPublishedOrders: with publish_orders = true every seat's report, the
// game master's and the observer's show every seat's accepted orders, in
// seat order (A, B, then C, which sent none), in the text and the HTML
// part; the card A drew stays in A's report alone.
func TestPublishedOrders(t *testing.T) {
	text, html := publishStep(t, fake.Game, "publish_orders = true")
	want := "EVERY SEAT'S ORDERS (published: publish_orders)\n  A:\n    secret\n    move A1 0303\n  B:\n    roll 2\n  C:\n    (none)\n"
	card := cardOf(t, text["alice"])
	for _, name := range who {
		if !strings.Contains(text[name], want) {
			t.Errorf("%s's report does not publish every seat's orders:\n%s", name, text[name])
		}
		for _, line := range []string{"<li><code>move A1 0303</code></li>", "<li><code>roll 2</code></li>", "<p>C:</p>"} {
			if !strings.Contains(html[name], line) {
				t.Errorf("%s's HTML part lacks %s", name, line)
			}
		}
		if strings.Contains(text[name], adjudicator.NotPublished) {
			t.Errorf("%s's report says the orders are not published", name)
		}
		if name != "alice" && strings.Contains(text[name], card) {
			t.Errorf("%s's report shows A's hidden card %q", name, card)
		}
	}
}

// cardOf is the hidden card a report's reader drew ("A draws card 4").
func cardOf(t *testing.T, report string) string {
	t.Helper()
	for _, l := range strings.Split(report, "\n") {
		if i := strings.Index(l, "A draws card "); i >= 0 {
			var n int
			if _, err := fmt.Sscanf(l[i:], "A draws card %d", &n); err == nil {
				return fmt.Sprintf("A draws card %d", n)
			}
		}
	}
	t.Fatalf("no card drawn in:\n%s", report)
	return ""
}

// TestUnpublishedOrders: without the setting each seat sees its own orders
// only, and an observer none.
func TestUnpublishedOrders(t *testing.T) {
	text, _ := publishStep(t, fake.Game, "")
	for _, name := range who {
		own := map[string]string{"alice": "A", "bob": "B"}[name]
		for seat, line := range map[string]string{"A": "    move A1 0303\n", "B": "    roll 2\n"} {
			shown := strings.Contains(text[name], "  "+seat+":\n") && strings.Contains(text[name], line)
			if want := seat == own; shown != want {
				t.Errorf("%s's report shows %s's orders: %v\n%s", name, seat, shown, text[name])
			}
		}
		if strings.Contains(text[name], "EVERY SEAT'S ORDERS") || strings.Contains(text[name], adjudicator.NotPublished) {
			t.Errorf("%s's report speaks of published orders in a game without publish_orders", name)
		}
	}
}

// secretOrders is the fake game as rules whose orders hold hidden
// information: it does not implement adjudicator.PublicOrders, and is the
// fake game in everything else.
type secretOrders struct{ adjudicator.Rules }

func (s secretOrders) HiddenStreams(state []byte) ([]string, error) {
	return s.Rules.(adjudicator.HiddenStreams).HiddenStreams(state)
}

func (s secretOrders) StreamSeat(state []byte, stream string) string {
	return s.Rules.(adjudicator.StreamSeats).StreamSeat(state, stream)
}

func (s secretOrders) Situation(state []byte, seat string) (adjudicator.Situation, error) {
	return s.Rules.(adjudicator.Reporter).Situation(state, seat)
}

// TestOrdersWithHiddenInformationAreNotPublished: with publish_orders =
// true, rules that give no public form of their orders publish none: no
// reader sees another seat's order text, and every report says why.
func TestOrdersWithHiddenInformationAreNotPublished(t *testing.T) {
	if _, ok := any(secretOrders{fake.Game}).(adjudicator.PublicOrders); ok {
		t.Fatal("secretOrders publishes its orders")
	}
	text, html := publishStep(t, secretOrders{fake.Game}, "publish_orders = true")
	for _, name := range who {
		if !strings.Contains(text[name], "ORDERS ADJUDICATED\n  "+adjudicator.NotPublished+".\n") ||
			!strings.Contains(html[name], "<p>"+strings.ReplaceAll(adjudicator.NotPublished, "'", "&#39;")+".</p>") {
			t.Errorf("%s's report does not say the orders are not published:\n%s", name, text[name])
		}
		own := map[string]string{"alice": "A", "bob": "B"}[name]
		for seat, line := range map[string]string{"A": "move A1 0303", "B": "roll 2"} {
			if seat != own && strings.Contains(text[name], line) {
				t.Errorf("%s's report shows %s's order %q", name, seat, line)
			}
		}
	}
}
