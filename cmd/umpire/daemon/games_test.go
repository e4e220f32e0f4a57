package daemon

import (
	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/games/bu"
	"github.com/umpire-pbem/umpire/adjudicator/games/fake"
	"github.com/umpire-pbem/umpire/adjudicator/games/pcs1995"
	"github.com/umpire-pbem/umpire/adjudicator/games/perrote"
	"github.com/umpire-pbem/umpire/adjudicator/games/sms1914"
	"github.com/umpire-pbem/umpire/adjudicator/games/wbt"
)

// games is the games the judge hosts, as cmd/umpire/registry.go lists them
// (only the registry may import the games outside tests).
func games() adjudicator.Registry {
	return adjudicator.NewRegistry(fake.Game, perrote.Game, wbt.Game, pcs1995.Game, sms1914.Game, bu.Game)
}
