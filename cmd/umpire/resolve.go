package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator/resolve"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon"
)

func resolveCommand() *command {
	return &command{
		name:    "resolve",
		args:    "[GAME [PROCEDURE name=value ... [dice=a,b,...]]] [--distribution]",
		summary: "Rules calculator: what the rules say for a situation and dice (disputed rolls, odds).",
		flags: func(fs *flag.FlagSet) {
			fs.Bool("distribution", false, "print the exact probability of each outcome instead of rolling")
		},
		run: runResolve,
	}
}

func runResolve(_ context.Context, m *Main, fs *flag.FlagSet, args []string) error {
	reg := calculators()
	if len(args) == 0 {
		resolve.ListGames(m.Stdout, reg)
		return nil
	}
	g := reg.Game(args[0])
	if g == nil {
		ids := ""
		for i, g := range reg.Games() {
			if i > 0 {
				ids += ", "
			}
			ids += g.ID
		}
		return usagef("game %q: unknown; the games are %s", args[0], ids)
	}
	if len(args) == 1 {
		resolve.List(m.Stdout, g)
		return nil
	}
	p := g.Procedure(args[1])
	if p == nil {
		return usagef("procedure %q: unknown in %s; run 'umpire resolve %s' for the list", args[1], g.ID, g.ID)
	}
	var out []byte
	if fs.Lookup("distribution").Value.String() == "true" {
		outcomes, e, err := resolve.Distribution(g, p, args[2:])
		if err != nil {
			return resolveErr(err)
		}
		out, err = resolve.DistributionJSON(g, p, outcomes, e)
		if err != nil {
			return err
		}
	} else {
		ans, err := resolve.Resolve(g, p, args[2:])
		if err != nil {
			return resolveErr(err)
		}
		if out, err = ans.JSON(); err != nil {
			return err
		}
	}
	_, err := m.Stdout.Write(out)
	return err
}

func resolveErr(err error) error {
	if resolve.IsInput(err) {
		return daemon.UsageError{Err: err}
	}
	return fmt.Errorf("%w", err)
}
