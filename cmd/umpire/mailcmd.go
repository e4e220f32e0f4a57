package main

import (
	"context"
	"flag"

	"github.com/umpire-pbem/umpire/cmd/umpire/daemon"
)

func mailCommand() *command {
	return &command{
		name:    "mail",
		args:    "held | quarantined | release ID | drop qID | authorize",
		summary: "List the answers held back and the messages set aside, and release or drop them; get an OAuth 2.0 refresh token.",
		flags: func(fs *flag.FlagSet) {
			fs.String("config", "", "configuration file (default: $UMPIRE_CONFIG or ./umpire.toml)")
			fs.String("store", "", "store file, overriding the configuration's store")
			fs.String("section", "imap", "authorize: the section whose OAuth 2.0 settings to use (imap or smtp)")
			fs.String("flow", "", "authorize: device or loopback (default: the provider's)")
			fs.String("auth-url", "", "authorize: the authorization endpoint of a provider umpire does not know")
			fs.String("device-url", "", "authorize: the device authorization endpoint of a provider umpire does not know")
			fs.String("listen", "127.0.0.1:0", "authorize: the loopback address the provider redirects to")
		},
		run: runMail,
	}
}

func runMail(ctx context.Context, m *Main, fs *flag.FlagSet, args []string) error {
	if len(args) > 0 && args[0] == "authorize" {
		if len(args) > 1 {
			return usagef("authorize takes no arguments")
		}
		flag := func(name string) string { return fs.Lookup(name).Value.String() }
		path := flag("config")
		if path == "" {
			path = m.Getenv("UMPIRE_CONFIG")
		}
		return daemon.Authorize(ctx, daemon.AuthorizeOptions{Config: path, Section: flag("section"), Flow: flag("flow"),
			AuthURL: flag("auth-url"), DeviceURL: flag("device-url"), Listen: flag("listen"), Out: m.Stdout})
	}
	return m.console(fs).Mail(ctx, args)
}
