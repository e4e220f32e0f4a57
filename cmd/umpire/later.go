package main

import (
	"context"
	"flag"
	"fmt"
)

// The commands in this file are listed and documented but their capability
// is not built yet: they answer with errNotYet and exit status 1.

func notYet(what string) func(context.Context, *Main, *flag.FlagSet, []string) error {
	return func(context.Context, *Main, *flag.FlagSet, []string) error {
		return fmt.Errorf("%s: %w", what, errNotYet)
	}
}

func renderCommand() *command {
	return &command{
		name:    "render",
		args:    "GAME [--step N] [--seat S] [--out FILE]",
		summary: "Write the situation report and map picture of a stored game.",
		flags: func(fs *flag.FlagSet) {
			fs.Int("step", 0, "the step to render (default: the latest)")
			fs.String("seat", "", "render as this seat sees it (default: the GM's full view)")
			fs.String("out", "", "write to this file (default: standard output)")
		},
		run: notYet("render"),
	}
}
