package web

import (
	"context"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/games/bu"
	"github.com/umpire-pbem/umpire/adjudicator/games/fake"
	"github.com/umpire-pbem/umpire/adjudicator/games/perrote"
	"github.com/umpire-pbem/umpire/adjudicator/games/wbt"
	"github.com/umpire-pbem/umpire/store"
)

const buGame = `id = "bu-1"
game = "bu"
scenario = "three"
gm = "GMKEY"
[schedule]
every = "72h"
`

// TestBUHandsAreNotServed plays a three-player Brotherhood & Unity game
// between bots into its first action rounds and crawls the site: no page,
// file or API answer holds a card a seat holds (its id with its title, as
// the seat's own report gives it), nor the hand lines of any seat's report.
func TestBUHandsAreNotServed(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.j.Games = adjudicator.NewRegistry(fake.Game, perrote.Game, wbt.Game, bu.Game)
	w.create(buGame)
	for range 6 {
		var owing []string
		w.update(func(tx adjudicator.Tx) error {
			g, err := tx.Game("bu-1")
			if err != nil {
				return err
			}
			st, err := tx.Step("bu-1", g.Step)
			owing = st.Owing
			return err
		})
		for _, seat := range owing {
			w.bot("bu-1", seat)
		}
	}
	var secrets []string
	err := w.db.View(context.Background(), func(stx *store.Tx) error {
		tx := stx.Judge(judgeFrom, w.now)
		g, err := tx.Game("bu-1")
		if err != nil {
			return err
		}
		if g.Step < 4 {
			t.Fatalf("the game reached only step %d", g.Step)
		}
		for _, seat := range []string{"Serb", "Croat", "Bosniak"} {
			r, err := w.j.BuildReport(tx, "bu-1", g.Step-1, seat)
			if err != nil {
				return err
			}
			if len(r.Hand) == 0 {
				t.Errorf("%s's report of step %d shows no hand", seat, g.Step-1)
			}
			for _, h := range r.Hand {
				// "S12 Title, CV 3, ...": the line, and the id with its title
				idTitle, _, _ := strings.Cut(h, ", CV ")
				secrets = append(secrets, h, idTitle)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(secrets) < 10 {
		t.Fatalf("only %d hand lines", len(secrets))
	}
	pages := crawl(t, w.server(nil))
	if _, ok := pages["/games/bu-1/"]; !ok {
		t.Fatal("the crawl did not reach /games/bu-1/")
	}
	for p, rec := range pages {
		body := rec.Body.String()
		for _, x := range secrets {
			if strings.Contains(body, x) {
				t.Errorf("%s shows %q", p, x)
			}
		}
	}
}
