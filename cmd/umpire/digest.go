package main

import (
	"context"
	"crypto/sha256"
	"flag"
	"fmt"
	"os"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/mail/signature"
)

func digestCommand() *command {
	return &command{
		name:    "digest",
		args:    "--salt SALT --step K --version N FILE",
		summary: "Compute an order file's digest, as your receipt and the dice log quote it.",
		flags: func(fs *flag.FlagSet) {
			fs.String("salt", "", "your seat's order salt, 64 hex digits (umpire-dice-v3)")
			fs.Uint64("step", 0, "the step the file was sent for")
			fs.Uint64("version", 0, "the version the receipt gave the file")
		},
		run: runDigest,
	}
}

func runDigest(ctx context.Context, m *Main, fs *flag.FlagSet, args []string) error {
	if len(args) != 1 {
		return usagef("want one FILE argument, got %d", len(args))
	}
	data, err := os.ReadFile(args[0])
	if err != nil {
		return usagef("%w", err)
	}
	signed, clear := signature.ClearSignedBytes(data)
	if !clear {
		signed = data
	}
	what := "the file's bytes"
	if clear {
		what = "the clear-signed text, as its signature covers it"
	}
	saltHex := fs.Lookup("salt").Value.String()
	step := fs.Lookup("step").Value.(flag.Getter).Get().(uint64)
	version := fs.Lookup("version").Value.(flag.Getter).Get().(uint64)
	if saltHex == "" {
		if step != 0 || version != 0 {
			return usagef("--step and --version go with --salt (an umpire-dice-v3 game's keyed digest)")
		}
		fmt.Fprintf(m.Stdout, "%x  SHA-256 of %s (umpire-dice-v2 and v1 games)\n", sha256.Sum256(signed), what)
		return nil
	}
	salt, err := dice.ParseHash(saltHex)
	if err != nil {
		return usagef("--salt: %w", err)
	}
	if step == 0 || version == 0 {
		return usagef("--salt needs --step (the step the file was sent for) and --version (as its receipt gave it), both from 1")
	}
	fmt.Fprintf(m.Stdout, "%s  %s digest of %s, step %d, version %d\n", dice.OrderDigest(salt, step, version, signed), dice.Scheme, what, step, version)
	return nil
}
