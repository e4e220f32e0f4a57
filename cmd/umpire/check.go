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
		help: `check reads the configuration (--config, UMPIRE_CONFIG or ./umpire.toml) and
tries what serve will need, printing one line per check: "ok", "warn" (works,
but read the indented line) or "FAIL" with an indented line saying what to
change. In order: the file parses; the secret files (password_file, ca_file)
can be read and are not readable by every user; the IMAP server connects,
speaks the TLS configured, has a certificate that verifies for its host,
takes the login, has the folder orders arrive in (the processed, rejected
and quarantine folders are made if missing, as serve makes them), has IDLE,
and takes messages as large as limits.message_bytes; the SMTP server the
same up to the login, and its SIZE; the judge's signing key signs and
verifies; the store opens (read-only) and it and its folder can be written;
a log.file can be written; the [web] address can be listened on and its
certificate loads.

--mail sends a test mail to the configuration's operator, or to ADDRESS.

Exit status: 0 when no check failed (warnings do not fail), 1 when one did.
It changes nothing but the folders it makes; it can run while the judge runs.`,
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
