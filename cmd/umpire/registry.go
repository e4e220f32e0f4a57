package main

import (
	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/games/bu"
	"github.com/umpire-pbem/umpire/adjudicator/games/fake"
	"github.com/umpire-pbem/umpire/adjudicator/games/pcs1995"
	"github.com/umpire-pbem/umpire/adjudicator/games/perrote"
	"github.com/umpire-pbem/umpire/adjudicator/games/sms1914"
	"github.com/umpire-pbem/umpire/adjudicator/games/wbt"
	"github.com/umpire-pbem/umpire/adjudicator/resolve"
)

// games is every game this judge hosts. The fake game is a test game: it
// has every kind of step the real games have.
func games() adjudicator.Registry {
	return adjudicator.NewRegistry(fake.Game, perrote.Game, wbt.Game, pcs1995.Game, sms1914.Game, bu.Game)
}

// calculators is every game's rules calculator (umpire resolve).
func calculators() *resolve.Registry {
	return resolve.NewRegistry(wbt.Calculator, pcs1995.Calculator, bu.Calculator, sms1914.Calculator, perrote.Calculator)
}
