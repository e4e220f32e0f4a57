// Command umpire is a play-by-email judge for board wargames: the daemon that
// reads signed orders from a mailbox and mails reports, and the command-line
// tool for game masters and for anyone checking a game's dice.
//
// Exit codes: 0 when the command did what was asked (for verify: every check
// held); 1 when it ran but failed (a log that does not verify, a store that
// cannot be opened, a feature not built yet); 2 when the command line or an
// input file is wrong (unknown command or flag, missing argument, a file that
// is not what the command reads).
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	m := NewMain()
	if len(os.Args) > 1 && os.Args[1] == "serve" {
		// serve reopens its log and rereads its templates on SIGHUP; the
		// other commands keep its default (they end).
		hup := make(chan os.Signal, 1)
		signal.Notify(hup, syscall.SIGHUP)
		m.Hangup = hup
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := m.Run(ctx, os.Args[1:])
	stop() // a second signal now ends the process at once
	if err := m.Close(); err != nil {
		fmt.Fprintln(m.Stderr, "umpire:", err)
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}
