package daemon

import (
	"io"
	"log/slog"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/store"
)

// Console carries out the operator's commands on a judge's store (umpire
// game, keys, mail, store and replay): in the command line's own process,
// or, while "umpire serve" holds the store, in the running judge, which
// the command line reaches through the control socket (control.go). Its
// methods take the command's arguments after the command's name; their
// errors about what was asked are UsageErrors.
type Console struct {
	Stdout, Stderr io.Writer
	Now            func() time.Time
	Logger         *slog.Logger
	// Games is the games a game file may name (game new).
	Games adjudicator.Registry
	// Open loads the configuration and opens its store; create makes a
	// store that is not there yet. It is not called in a running judge.
	Open func(create bool) (*Config, *store.DB, error)
	// Running is the judge the command runs in, for its control socket;
	// nil on the command line.
	Running *Daemon
}

// open is Open, or the running judge's configuration and store.
func (c *Console) open(create bool) (*Config, *store.DB, error) {
	if c.Running != nil {
		return c.Running.cfg, c.Running.db, nil
	}
	cfg, db, err := c.Open(create)
	if err == nil && cfg.Logger != nil {
		c.Logger = cfg.Logger // the configuration's log
	}
	return cfg, db, err
}
