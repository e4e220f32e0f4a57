package web

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/games/bu"
	"github.com/umpire-pbem/umpire/adjudicator/games/fake"
	"github.com/umpire-pbem/umpire/adjudicator/games/pcs1995"
	"github.com/umpire-pbem/umpire/adjudicator/games/perrote"
	"github.com/umpire-pbem/umpire/adjudicator/games/sms1914"
	"github.com/umpire-pbem/umpire/adjudicator/games/wbt"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/templates"
)

// TestPublishedOrdersOnTheStepPage: a fake game whose game file sets
// publish_orders shows, on its step page and in the step's JSON, every
// seat's accepted orders of the step in seat order (B's before C's, A
// sent none); the same game without the setting shows none.
func TestPublishedOrdersOnTheStepPage(t *testing.T) {
	t.Parallel()
	for _, publish := range []bool{true, false} {
		w := newWorld(t)
		file := "id = \"fk-p\"\ngame = \"fake\"\nscenario = \"trio\"\ngm = \"GMKEY\"\n"
		if publish {
			file += "publish_orders = true\n"
		}
		w.create(file + "[schedule]\nevery = \"48h\"\n")
		w.orders("fk-p", "C", "secret", "move C1 0505")
		w.orders("fk-p", "B", "roll 2", "move B2 0404")
		w.process("fk-p")
		s := w.server(nil)
		body := get(t, s, "GET", "/games/fk-p/steps/1").Body.String()
		var v StepView
		if err := json.Unmarshal(get(t, s, "GET", "/api/games/fk-p/steps/1").Body.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		if !publish {
			for _, x := range []string{"move C1 0505", "move B2 0404", "Every seat's orders"} {
				if strings.Contains(body, x) {
					t.Errorf("the step page of a game without publish_orders shows %q", x)
				}
			}
			if v.Orders != nil || v.OrdersNote != "" {
				t.Errorf("the step's JSON without publish_orders: orders %+v, note %q", v.Orders, v.OrdersNote)
			}
			continue
		}
		want := "<dl class=\"published-orders\"><dt>A</dt><dd><p>(none)</p></dd><dt>B</dt><dd><pre>roll 2\nmove B2 0404\n</pre></dd><dt>C</dt><dd><pre>secret\nmove C1 0505\n</pre></dd></dl>"
		if !strings.Contains(body, "Every seat's orders") || !strings.Contains(body, want) {
			t.Errorf("the step page does not show every seat's orders in seat order:\n%s", body)
		}
		wantJSON := []OrdersView{{Seat: "A", Lines: []string{}}, {Seat: "B", Lines: []string{"roll 2", "move B2 0404"}}, {Seat: "C", Lines: []string{"secret", "move C1 0505"}}}
		if !slices.EqualFunc(v.Orders, wantJSON, func(a, b OrdersView) bool { return a.Seat == b.Seat && slices.Equal(a.Lines, b.Lines) }) {
			t.Errorf("the step's JSON orders %+v, want %+v", v.Orders, wantJSON)
		}
	}
}

// TestHiddenOrdersAreNotPublished plays Brotherhood & Unity, 1995 and
// 1914 (games whose orders hold hidden information: cards in hand, hidden
// chits and queues, units under fog of war) between bots with
// publish_orders = true, and checks that no order line a seat sent (as its
// own report echoes it: its card ids and hidden ids) is in another seat's
// report or on any page; every report and step page says why instead.
func TestHiddenOrdersAreNotPublished(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		kind, scenario string
		seats          []string
		steps          int
	}{
		{"bu", "three", []string{"Serb", "Croat", "Bosniak"}, 6},
		{"pcs1995", "demo", nil, 4},
		{"sms1914", "demo", nil, 4},
	} {
		t.Run(c.kind, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			w.j.Games = adjudicator.NewRegistry(fake.Game, perrote.Game, wbt.Game, bu.Game, pcs1995.Game, sms1914.Game)
			id := c.kind + "-p"
			f := w.create(fmt.Sprintf("id = %q\ngame = %q\nscenario = %q\ngm = \"GMKEY\"\npublish_orders = true\n[schedule]\nevery = \"72h\"\n", id, c.kind, c.scenario))
			for range c.steps {
				var owing []string
				w.update(func(tx adjudicator.Tx) error {
					g, err := tx.Game(id)
					if err != nil {
						return err
					}
					st, err := tx.Step(id, g.Step)
					owing = st.Owing
					return err
				})
				for _, seat := range owing {
					w.bot(id, seat)
				}
				w.process(id)
			}
			// every seat's own order lines as its reports echo them, and
			// every reader's reports rendered
			rs, err := templates.NewReports("")
			if err != nil {
				t.Fatal(err)
			}
			own := map[string][]string{}      // seat -> its order lines
			rendered := map[string][]string{} // reader -> its reports' texts
			err = w.db.View(context.Background(), func(stx *store.Tx) error {
				tx := stx.Judge(judgeFrom, w.now)
				g, err := tx.Game(id)
				if err != nil {
					return err
				}
				for k := uint64(1); k < g.Step; k++ {
					if st, err := tx.Step(id, k); err != nil || st.Status != adjudicator.StepClosed {
						continue
					}
					for _, reader := range append(slices.Clone(f.Seats), "", adjudicator.Spectator) {
						r, err := w.j.BuildReport(tx, id, k, reader)
						if err != nil {
							return err
						}
						if r.OrdersNote != adjudicator.NotPublished || r.OrdersPublished {
							t.Errorf("step %d, reader %q: orders note %q, published %v", k, reader, r.OrdersNote, r.OrdersPublished)
						}
						for _, o := range r.Orders {
							switch {
							case o.Seat == reader:
								own[o.Seat] = append(own[o.Seat], o.Lines...)
							case reader != "": // the game master of a game without hidden hands sees through the fog
								t.Errorf("step %d: %q's report shows %s's orders %q", k, reader, o.Seat, o.Lines)
							}
						}
						out, err := rs.Render(r)
						if err != nil {
							return err
						}
						rendered[reader] = append(rendered[reader], out.Text+out.HTML)
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			// a seat's secrets: the lines it alone sent (not the standing
			// orders every seat gives, such as "losses auto")
			secret := map[string][]string{}
			for seat, lines := range own {
				for _, l := range lines {
					shared := false
					for other, theirs := range own {
						shared = shared || other != seat && slices.Contains(theirs, l)
					}
					if !shared && len(l) >= 8 && !slices.Contains(secret[seat], l) {
						secret[seat] = append(secret[seat], l)
					}
				}
			}
			n := 0
			for _, lines := range secret {
				n += len(lines)
			}
			if n < 3 {
				t.Fatalf("the seats' reports echo only %d order lines of their own: %v", n, own)
			}
			t.Logf("%d order lines of one seat each", n)
			pages := crawl(t, w.server(nil))
			for seat, lines := range secret {
				for _, l := range lines {
					for reader, texts := range rendered {
						if reader == seat || reader == "" && c.kind != "bu" {
							continue
						}
						for _, text := range texts {
							if strings.Contains(text, l) {
								t.Errorf("a report for %q shows %s's order %q", reader, seat, l)
								break
							}
						}
					}
					for p, rec := range pages {
						if strings.Contains(rec.Body.String(), l) {
							t.Errorf("%s shows %s's order %q", p, seat, l)
						}
					}
				}
			}
			if body := pages["/games/"+id+"/steps/1"].Body.String(); !strings.Contains(body, "orders are not published: they hold hidden information.") {
				t.Errorf("the step page does not say the orders are not published:\n%s", body)
			}
		})
	}
}

// TestGamePageShowsTheFullHead: a game's page shows the dice log head
// after its last adjudicated step whole, 64 hex digits, as its reports
// quote it, with a copy button holding the same head (copy.js puts it on
// the clipboard; the browser test presses it).
func TestGamePageShowsTheFullHead(t *testing.T) {
	t.Parallel()
	w, _ := playedWorld(t)
	s := w.server(nil)
	var g GameView
	if err := json.Unmarshal(get(t, s, "GET", "/api/games/fk-1").Body.Bytes(), &g); err != nil {
		t.Fatal(err)
	}
	var head string
	err := w.db.View(context.Background(), func(stx *store.Tx) error {
		r, err := w.j.BuildReport(stx.Judge(judgeFrom, w.now), "fk-1", 2, "A")
		head = r.Head
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(head) != 64 || g.Dice.Head != head {
		t.Fatalf("the report of step 2 quotes the head %q, the game's JSON %q", head, g.Dice.Head)
	}
	body := get(t, s, "GET", "/games/fk-1/").Body.String()
	for _, want := range []string{`<code class="hash" id="dice-head">` + head + `</code>`, `data-copy="` + head + `"`, `/assets/copy.js?v=`} {
		if !strings.Contains(body, want) {
			t.Errorf("the game's page lacks %s", want)
		}
	}
	if rec := get(t, s, "GET", "/assets/copy.js"); rec.Code != 200 || !strings.Contains(rec.Body.String(), "navigator.clipboard.writeText") {
		t.Errorf("copy.js: %d", rec.Code)
	}
}
