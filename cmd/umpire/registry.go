package main

import (
	"github.com/umpire-pbem/umpire/adjudicator/games/bu"
	"github.com/umpire-pbem/umpire/adjudicator/games/pcs1995"
	"github.com/umpire-pbem/umpire/adjudicator/games/perrote"
	"github.com/umpire-pbem/umpire/adjudicator/games/sms1914"
	"github.com/umpire-pbem/umpire/adjudicator/games/wbt"
	"github.com/umpire-pbem/umpire/adjudicator/resolve"
)

// calculators is every game's rules calculator (umpire resolve).
func calculators() *resolve.Registry {
	return resolve.NewRegistry(wbt.Calculator, pcs1995.Calculator, bu.Calculator, sms1914.Calculator, perrote.Calculator)
}
