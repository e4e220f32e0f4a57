package main

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
	"github.com/umpire-pbem/umpire/store"
)

func versionCommand() *command {
	return &command{
		name:    "version",
		args:    "",
		summary: "Print umpire's version, its store schema and its dice scheme.",
		run: func(_ context.Context, m *Main, _ *flag.FlagSet, args []string) error {
			if len(args) != 0 {
				return usagef("takes no arguments")
			}
			fmt.Fprintf(m.Stdout, "umpire %s (%s, store schema %d, dice %s, dice log format %d; reads %s and %s logs too)\n",
				buildVersion(), runtime.Version(), store.SchemaVersion, dice.Scheme, dice.Version, legacy.Records.Name(), legacy.Hashed.Name())
			return nil
		},
	}
}

// buildVersion is the module version, or the VCS revision of a build from a
// checkout, or "devel".
func buildVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "+dirty"
	}
	return "devel-" + rev
}
