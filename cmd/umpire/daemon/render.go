package daemon

import (
	"context"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/templates"
)

// Render renders the report of step of game as seat sees it ("": as the
// game master does; step 0: the last adjudicated) exactly as the judge
// mails it, for "umpire render"; it returns the step and the seat's name
// as the game spells it.
func (c *Console) Render(ctx context.Context, game string, step uint64, seat string) (*templates.Rendered, uint64, string, error) {
	cfg, db, err := c.open(false)
	if err != nil {
		return nil, 0, "", err
	}
	rs, err := templates.NewReports(cfg.Templates.Dir)
	if err != nil {
		return nil, 0, "", err
	}
	j := &adjudicator.Judge{Games: c.Games, Logger: c.Logger}
	rs.WithMapImages(MapImages(db)).WithPages(Pages(db, j, cfg.Address, cfg.Web.baseURL(), c.Now))
	var rep *adjudicator.Report
	err = db.View(ctx, func(tx *store.Tx) error {
		jt := tx.Judge(cfg.Address, c.Now())
		g, err := findGame(jt, cfg.Store, game)
		if err != nil {
			return err
		}
		if step == 0 {
			step = max(g.Step, 2) - 1
		}
		if err := checkStep(g, step); err != nil {
			return err
		}
		if seat != "" {
			if seat, err = findSeat(jt, game, seat); err != nil {
				return err
			}
		}
		rep, err = j.BuildReport(jt, game, step, seat)
		return err
	})
	if err != nil {
		return nil, 0, "", err
	}
	r, err := rs.Render(rep)
	return r, step, seat, err
}
