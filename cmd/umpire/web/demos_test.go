package web

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"html/template"
	"regexp"
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
)

// demoScenarios are each game's demo scenario, the one `umpire demo` and
// the docs show.
var demoScenarios = []struct{ kind, scenario string }{
	{"perrote", "demo"}, {"wbt", "demo"}, {"bu", "three"}, {"pcs1995", "demo"}, {"sms1914", "demo"},
}

// endedDemo plays kind's scenario between the rules' bots to its end, as
// mail would (every seat owing sends the bot's orders, the game master
// processes the step), and returns the world and the game's id.
func endedDemo(t testing.TB, kind, scenario string) (*world, string) {
	t.Helper()
	return endedDemoWith(t, kind, scenario, "", nil)
}

// demoGames are the rules of the games of demoScenarios.
func demoGames() adjudicator.Registry {
	return adjudicator.NewRegistry(fake.Game, perrote.Game, wbt.Game, bu.Game, pcs1995.Game, sms1914.Game)
}

// endedDemoWith is endedDemo with more settings in the game file (extra,
// lines before its [schedule]) and, when created is set, a call of it on
// the game just created, before the first step is played.
func endedDemoWith(t testing.TB, kind, scenario, extra string, created func(w *world, id string)) (*world, string) {
	t.Helper()
	w := newWorld(t)
	w.j.Games = demoGames()
	id := kind + "-end"
	w.create(fmt.Sprintf("id = %q\ngame = %q\nscenario = %q\ngm = \"GMKEY\"\n%s[schedule]\nevery = \"72h\"\n", id, kind, scenario, extra))
	if created != nil {
		created(w, id)
	}
	// open is the open step's owing seats, none once the game has ended.
	open := func() (owing []string, ended bool) {
		w.update(func(tx adjudicator.Tx) error {
			g, err := tx.Game(id)
			if ended = err == nil && g.Status == adjudicator.Ended; err != nil || ended {
				return err
			}
			st, err := tx.Step(id, g.Step)
			owing = st.Owing
			return err
		})
		return owing, ended
	}
	for range 400 {
		owing, ended := open()
		if ended {
			return w, id
		}
		for _, seat := range owing {
			w.bot(id, seat)
		}
		if _, ended := open(); !ended { // the last orders may have closed the step
			w.process(id)
		}
	}
	t.Fatalf("%s did not end in 400 steps", id)
	return nil, ""
}

// lastPlayed is the number of the last adjudicated step of an ended game:
// the step the judge's last report tells.
func lastPlayed(t testing.TB, w *world, id string) uint64 {
	t.Helper()
	var last uint64
	err := w.db.View(context.Background(), func(stx *store.Tx) error {
		steps, err := stx.Steps(id)
		for _, st := range steps {
			if st.Status == adjudicator.StepClosed {
				last = st.Number
			}
		}
		return err
	})
	if err != nil || last == 0 {
		t.Fatalf("%s: no step adjudicated (%v)", id, err)
	}
	return last
}

// TestEndedDemoPages plays each game's demo to its end and reads its
// public pages as an observer would.
func TestEndedDemoPages(t *testing.T) {
	t.Parallel()
	for _, d := range demoScenarios {
		t.Run(d.kind, func(t *testing.T) {
			t.Parallel()
			w, id := endedDemo(t, d.kind, d.scenario)
			s := w.server(nil)
			t.Run("steps", func(t *testing.T) { endedSteps(t, w, s, id) })
			t.Run("tracks", func(t *testing.T) { tracksRead(t, s, id) })
			t.Run("seats, not you", func(t *testing.T) { noYou(t, w, s, id) })
		})
	}
}

// endedSteps: the game's page says the game ended after the judge's last
// step, links that step last (with its phase), and has no step after it:
// /steps/N+1 is not found, in the page as in the JSON.
func endedSteps(t *testing.T, w *world, s *Server, id string) {
	last := lastPlayed(t, w, id)
	page := get(t, s, "GET", "/games/"+id+"/").Body.String()
	if want := fmt.Sprintf("The game has ended after step %d.", last); !strings.Contains(page, want) {
		t.Errorf("the page does not say %q:\n%s", want, lead(page))
	}
	links := stepLinks(page[strings.Index(page, "<h2>History</h2>")+1:], id)
	if len(links) == 0 || links[len(links)-1] != fmt.Sprint(last) {
		t.Errorf("the page's step links %v; want the last to be %d, the last step adjudicated", links, last)
	}
	if strings.Contains(page, "<td data-label=\"Phase\"></td>") {
		t.Errorf("a step of the history has no phase:\n%s", page)
	}
	for _, target := range []string{fmt.Sprintf("/games/%s/steps/%d", id, last+1), fmt.Sprintf("/api/games/%s/steps/%d", id, last+1), fmt.Sprintf("/games/%s/steps/%d/map.svg", id, last+1)} {
		if code := get(t, s, "GET", target).Code; code != 404 {
			t.Errorf("%s: %d, want 404: the game ended after step %d", target, code, last)
		}
	}
	if rec := get(t, s, "GET", fmt.Sprintf("/games/%s/steps/%d", id, last)); rec.Code != 200 || strings.Contains(rec.Body.String(), fmt.Sprintf(`/steps/%d"`, last+1)) {
		t.Errorf("the last step's page: %d, or it links a step after it", rec.Code)
	}
	var api GameView
	if err := json.Unmarshal(get(t, s, "GET", "/api/games/"+id).Body.Bytes(), &api); err != nil {
		t.Fatal(err)
	}
	if api.Step != last || len(api.Steps) == 0 || api.Steps[len(api.Steps)-1].N != last || api.Steps[len(api.Steps)-1].Phase == "" {
		t.Errorf("the game's JSON says step %d, its steps end with %+v; want step %d", api.Step, api.Steps[len(api.Steps)-1:], last)
	}
}

// tracksRead: every track of the game's page reads as a player says it:
// a track counted from 0 or 1 "6 of 6", from further on "7 of 7 (from 5)",
// a signed one "−1 on −7…+7", never "of 0–6" or "of −7–7".
func tracksRead(t *testing.T, s *Server, id string) {
	var api GameView
	if err := json.Unmarshal(get(t, s, "GET", "/api/games/"+id).Body.Bytes(), &api); err != nil {
		t.Fatal(err)
	}
	page := get(t, s, "GET", "/games/"+id+"/").Body.String()
	signed := regexp.MustCompile(`^(0|[+−][1-9][0-9]*) on −[0-9]+…\+[0-9]+$`)
	for _, tr := range api.Tracks {
		m := regexp.MustCompile(`<dt>` + regexp.QuoteMeta(template.HTMLEscapeString(tr.Name)) + `</dt><dd>([^<]*)</dd>`).FindStringSubmatch(page)
		if m == nil {
			t.Errorf("track %q is not on the page", tr.Name)
			continue
		}
		got := html.UnescapeString(m[1])
		switch {
		case tr.Text != "":
			if got != tr.Text {
				t.Errorf("track %s reads %q, want its word %q", tr.Name, got, tr.Text)
			}
		case tr.Max > 0 && tr.Min < 0:
			if !signed.MatchString(got) || !strings.Contains(got, fmt.Sprintf("%d on −%d…+%d", abs(tr.Value), -tr.Min, tr.Max)) {
				t.Errorf("track %s (%d on %d…%d) reads %q, want it signed: \"−1 on −7…+7\"", tr.Name, tr.Value, tr.Min, tr.Max, got)
			}
		case tr.Max > 0:
			want := fmt.Sprintf("%d of %d", tr.Value, tr.Max)
			if tr.Min > 1 {
				want += fmt.Sprintf(" (from %d)", tr.Min)
			}
			if got != want {
				t.Errorf("track %s reads %q, want %q", tr.Name, got, want)
			}
		}
		t.Logf("%s: %s", tr.Name, got)
	}
	if len(api.Tracks) > 0 && regexp.MustCompile(`<dl class="tracks">.*[0-9]–[0-9−]`).MatchString(page) {
		t.Errorf("a track reads as a dash range:\n%s", page)
	}
}

// noYou crawls every public page of the game (the list, the game, each
// step, the verifier, a page not found) and rejects "you" and "your" in
// their text outside what a player wrote (published orders, quotes): the
// pages are for observers, and speak of seats.
func noYou(t *testing.T, w *world, s *Server, id string) {
	targets := []string{"/", "/games/" + id + "/", "/games/" + id + "/verify", "/verify", "/games/" + id + "/steps/9999"}
	for k := uint64(1); k <= lastPlayed(t, w, id); k++ {
		targets = append(targets, fmt.Sprintf("/games/%s/steps/%d", id, k))
	}
	you := regexp.MustCompile(`(?i)\byou(r|rs|rself)?\b`)
	for _, target := range targets {
		text := pageText(get(t, s, "GET", target).Body.String())
		for _, m := range you.FindAllStringIndex(text, -1) {
			t.Errorf("%s says %q: %q", target, text[m[0]:m[1]], text[max(0, m[0]-60):min(len(text), m[1]+60)])
		}
	}
}

var (
	// unread are the parts of a page that are not its text (script,
	// style) or are a player's own words (published orders).
	unread = regexp.MustCompile(`(?s)<script.*?</script>|<style.*?</style>|<dl class="published-orders">.*?</dl>`)
	tag    = regexp.MustCompile(`(?s)<[^>]*>`)
	quoted = regexp.MustCompile(`“[^”]*”`)
)

// pageText is the text a reader sees on a page, without the words of a
// player quoted there.
func pageText(page string) string {
	text := html.UnescapeString(tag.ReplaceAllString(unread.ReplaceAllString(page, " "), " "))
	return strings.Join(strings.Fields(quoted.ReplaceAllString(text, " ")), " ")
}

func abs(n int) int { return max(n, -n) }

// lead is the page's lead paragraph, for a failure's message.
func lead(page string) string {
	i := strings.Index(page, `<p class="lead">`)
	if i < 0 {
		return page
	}
	j := strings.Index(page[i:], "</p>")
	if j < 0 {
		return page[i:]
	}
	return page[i : i+j]
}

// stepLinks are the step numbers a page links to, in order (each once).
func stepLinks(page, id string) []string {
	var out []string
	seen := map[string]bool{}
	prefix := `href="/games/` + id + `/steps/`
	for rest := page; ; {
		i := strings.Index(rest, prefix)
		if i < 0 {
			return out
		}
		rest = rest[i+len(prefix):]
		n := rest[:strings.IndexAny(rest, `"/`)]
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
}
