package main

import (
	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/games/fake"
)

// games is every game this judge hosts. The fake game is a test game: it
// has every kind of step the real games have.
func games() adjudicator.Registry {
	return adjudicator.NewRegistry(fake.Game)
}
