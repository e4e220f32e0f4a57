package main

import (
	"context"
	"flag"

	"github.com/umpire-pbem/umpire/cmd/umpire/daemon"
)

func checkCommand() *command {
	return &command{
		name:    "check",
		args:    "[--config FILE] [--mail [ADDRESS]]",
		summary: "Check a configuration before serving: mail servers, key, store, web pages.",
		flags: func(fs *flag.FlagSet) {
			fs.String("config", "", "configuration file (default: $UMPIRE_CONFIG or ./umpire.toml)")
			fs.Var(&mailFlag{}, "mail", "send a test mail to the operator (or to --mail=ADDRESS)")
		},
		run: runCheck,
	}
}

// mailFlag is --mail: bare, the operator; --mail=ADDRESS, that address.
type mailFlag struct{ to string }

func (f *mailFlag) String() string { return f.to }
func (f *mailFlag) Set(s string) error {
	switch s {
	case "true":
		s = daemon.MailOperator
	case "false":
		s = ""
	}
	f.to = s
	return nil
}
func (f *mailFlag) IsBoolFlag() bool { return true }

func runCheck(ctx context.Context, m *Main, fs *flag.FlagSet, args []string) error {
	to := fs.Lookup("mail").Value.String()
	switch {
	case len(args) == 1 && to == daemon.MailOperator:
		to = args[0] // --mail ADDRESS
	case len(args) != 0:
		return usagef("takes no arguments but --mail's address")
	}
	path := fs.Lookup("config").Value.String()
	if path == "" {
		path = m.Getenv("UMPIRE_CONFIG")
	}
	if daemon.Check(ctx, daemon.CheckOptions{Config: path, Mail: to, Out: m.Stdout, Now: m.Now}) > 0 {
		return exitCode(exitFail)
	}
	return nil
}
