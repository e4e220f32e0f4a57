package pcs1995

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/spec"
)

// seeded is a deterministic roller for whole-game tests; every draw must
// name a 1995 rule.
type seeded struct {
	rng   *rand.Rand
	draws int
}

func newSeeded(seed uint64) *seeded { return &seeded{rng: rand.New(rand.NewPCG(seed, 1995))} }

func (s *seeded) Draw(stream string, sp spec.Spec, purpose string) []int {
	if stream != dice.Open {
		panic("1995 draws everything on the open stream: " + stream)
	}
	if !strings.HasPrefix(purpose, "1995 ") {
		panic("draw without a 1995 rule purpose: " + purpose)
	}
	s.draws++
	out := make([]int, sp.Draws())
	for i := range out {
		switch sp.Kind {
		case spec.KindDice:
			out[i] = sp.Base + s.rng.IntN(sp.Faces)
		default:
			out[i] = s.rng.IntN(sp.Faces - i)
		}
	}
	return out
}

// played is a whole game between two bots.
type played struct {
	state  []byte
	events []adjudicator.Event
	steps  int
	// mails counts the order mails of each seat in each game turn.
	mails map[int]map[string]int
}

func playGame(t testing.TB, seed uint64, options map[string]string) played {
	t.Helper()
	return play(t, seed, options, false)
}

// play plays a game; asked leaves out the bots' standing orders, so that
// every decision is asked in a decision step (and answered with decide).
func play(t testing.TB, seed uint64, options map[string]string, asked bool) played {
	t.Helper()
	state, err := Game.New("demo", options)
	if err != nil {
		t.Fatal(err)
	}
	bot := Game.(adjudicator.Bot)
	rep := Game.(adjudicator.Reporter)
	r := newSeeded(seed)
	p := played{mails: map[int]map[string]int{}}
	for ; p.steps < 3000; p.steps++ {
		sp, err := Game.Step(state)
		if err != nil {
			t.Fatal(err)
		}
		if sp.Over {
			break
		}
		g, _ := decode(state)
		orders := map[string][]string{}
		for _, seat := range sp.Owing {
			lines, err := bot.Bot(state, seat)
			if err != nil {
				t.Fatal(err)
			}
			if asked {
				lines = slices.DeleteFunc(lines, func(l string) bool { return lineKind(strings.Fields(l)) == "standing" })
			}
			var ol []adjudicator.OrderLine
			for i, l := range lines {
				ol = append(ol, adjudicator.OrderLine{Line: i + 1, Text: l})
			}
			canon, probs := Game.ParseOrders(state, seat, ol)
			if len(probs) > 0 {
				t.Fatalf("step %d (%s): the bot's orders for %s have problems %+v:\n%s", p.steps, sp.Phase, seat, probs, strings.Join(lines, "\n"))
			}
			orders[seat] = canon
			if p.mails[g.Turn] == nil {
				p.mails[g.Turn] = map[string]int{}
			}
			p.mails[g.Turn][seat]++
		}
		next, events, err := Game.Adjudicate(state, orders, r)
		if err != nil {
			t.Fatalf("step %d (%s): %v", p.steps, sp.Phase, err)
		}
		for _, e := range events {
			if e.Rule == "" {
				t.Fatalf("an event without a rule: %q", e.Text)
			}
		}
		for _, seat := range []string{seatNATO, seatRS, "", adjudicator.Spectator} {
			if _, err := rep.Situation(next, seat); err != nil {
				t.Fatal(err)
			}
		}
		p.events = append(p.events, events...)
		state = next
	}
	p.state = state
	return p
}

// TestBotPlaysWholeGames plays the demo to its end between two bots, in
// the default and the strict mode: every order they send is accepted,
// every event cites a rule and every draw names one, and the game ends
// after turn 8 or earlier by an automatic victory (11.0).
func TestBotPlaysWholeGames(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		seed    uint64
		options map[string]string
	}{{"default-1", 1, nil}, {"default-2", 2, nil}, {"strict", 4, map[string]string{"strict": "yes"}}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := playGame(t, c.seed, c.options)
			g, err := decode(p.state)
			if err != nil {
				t.Fatal(err)
			}
			if !g.Over || g.Winner == "" {
				t.Fatalf("the game did not end after %d steps (turn %d, %s)", p.steps, g.Turn, g.Phase)
			}
			if g.Turn < gameTurns && !strings.Contains(g.Reason, "automatic") {
				t.Errorf("ended on turn %d: %s", g.Turn, g.Reason)
			}
			combats := 0
			for _, e := range p.events {
				if strings.Contains(e.Text, " draws chit ") {
					combats++
				}
			}
			if combats < 5 {
				t.Errorf("only %d combats in a whole game", combats)
			}
			worst := 0
			for _, m := range p.mails {
				for _, n := range m {
					worst = max(worst, n)
				}
			}
			if c.options == nil && worst > 6 {
				t.Errorf("a seat sent %d order mails in one game turn (the design aims at 6 or fewer): %v", worst, p.mails)
			}
			t.Logf("%s after %d steps: %s; %d combats; order mails per turn per seat: %v", g.Winner, p.steps, g.Reason, combats, p.mails)
		})
	}
}

// TestDeterministic replays a game with the same dice: the same state.
func TestDeterministic(t *testing.T) {
	t.Parallel()
	a, b := playGame(t, 9, nil), playGame(t, 9, nil)
	if !bytes.Equal(a.state, b.state) {
		t.Fatal("the same game with the same dice ended in different states")
	}
}

// TestDecisionSteps plays whole games in which no seat has standing
// orders: every interception, combat air, interdiction, LP absorption and
// advance is asked in a decision step and the activation resumed with its
// dice; the game still ends, and the same dice give the same game.
func TestDecisionSteps(t *testing.T) {
	t.Parallel()
	for _, seed := range []uint64{21} {
		a := play(t, seed, nil, true)
		g, _ := decode(a.state)
		if !g.Over {
			t.Fatalf("seed %d: not over", seed)
		}
		decisions := 0
		for _, e := range a.events {
			if strings.Contains(e.Text, "default applies") {
				t.Errorf("a decision went unanswered: %s", e.Text)
			}
		}
		for _, m := range a.mails {
			for _, n := range m {
				decisions += n
			}
		}
		b := play(t, seed, nil, true)
		if !bytes.Equal(a.state, b.state) {
			t.Fatal("the same game with the same dice ended in different states")
		}
		t.Logf("seed %d: %d steps, %d order mails, %s", seed, a.steps, decisions, g.Reason)
	}
}

// TestQueuesArePrivate checks the reports: a seat's pending queue, air
// script and standing orders are shown to that seat only (and the game
// master), never to the other seat or a spectator; the tracks show the
// turn, VP, initiative, de-escalation and both sides' air boxes.
func TestQueuesArePrivate(t *testing.T) {
	t.Parallel()
	state, err := Game.New("demo", nil)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := decode(state)
	g.Phase, g.Stage, g.Turn, g.Initiative = phaseQueue, stageAction, 1, NATO
	g.Pending = &pending{Kind: phaseQueue, Seat: seatNATO, Question: "your activation queue is empty", Default: "pass"}
	g.Queue[seatNATO] = []string{"move US-1-1AD 1506"}
	g.Queue[seatRS] = []string{"move SR-SRP1 2510"}
	g.Standing[seatRS] = map[string]string{"absorb": "rout"}
	state, _ = g.encode()
	rep := Game.(adjudicator.Reporter)
	hand := func(seat string) string {
		sit, err := rep.Situation(state, seat)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(sit.Hand, "\n")
	}
	if h := hand(seatNATO); !strings.Contains(h, "US-1-1AD 1506") || strings.Contains(h, "SR-SRP1") || !strings.Contains(h, "asked: your activation queue is empty") {
		t.Errorf("NATO's hand:\n%s", h)
	}
	if h := hand(seatRS); strings.Contains(h, "US-1-1AD") || !strings.Contains(h, "SR-SRP1 2510") || !strings.Contains(h, `standing order "absorb rout"`) {
		t.Errorf("RS's hand:\n%s", h)
	}
	if h := hand(adjudicator.Spectator); h != "" {
		t.Errorf("the spectator sees %q", h)
	}
	if h := hand(""); !strings.Contains(h, "NATO queue 1: move US-1-1AD") || !strings.Contains(h, "RS queue 1: move SR-SRP1") {
		t.Errorf("the game master's hand:\n%s", h)
	}
	sit, _ := rep.Situation(state, seatRS)
	var names []string
	for _, tr := range sit.Tracks {
		names = append(names, tr.Name)
	}
	for _, want := range []string{"Turn", "VP", "Initiative", "De-escalation", "NATO air", "RS air"} {
		if !slices.Contains(names, want) {
			t.Errorf("no %s track: %v", want, names)
		}
	}
	if sit.Picture == nil || len(sit.Picture.Counters) == 0 || sit.Picture.Notice == "" {
		t.Error("no map, counters or stand-in notice")
	}
}

// TestDocumentedExample parses the example order file of
// docs/orders-pcs1995.md against the demo's turn 1 (the Germans arrived):
// the receipt accepts every line.
func TestDocumentedExample(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "orders-pcs1995.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	start := strings.Index(text, "```order-file turn start\n# turn 1, NATO, in the demo")
	end := strings.Index(text[start+3:], "```")
	if start < 0 || end < 0 {
		t.Fatal("no example order file in the doc")
	}
	var lines []adjudicator.OrderLine
	body := text[start+3 : start+3+end]
	for i, l := range strings.Split(body[strings.IndexByte(body, '\n')+1:], "\n") {
		lines = append(lines, adjudicator.OrderLine{Line: i + 1, Text: l})
	}
	state, _ := Game.New("demo", nil)
	state, _, err = Game.Adjudicate(state, nil, newSeeded(1))
	if err != nil {
		t.Fatal(err)
	}
	g, _ := decode(state)
	g.byID["DE-12P"].Status = arriving
	state, _ = g.encode()
	canon, probs := Game.ParseOrders(state, seatNATO, lines)
	if len(probs) > 0 {
		t.Fatalf("the documented example has problems: %+v", probs)
	}
	if len(canon) != 12 {
		t.Errorf("%d orders understood: %q", len(canon), canon)
	}
}
