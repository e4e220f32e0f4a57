package main

import (
	"context"
	"flag"
)

func keysCommand() *command {
	return &command{
		name:    "keys",
		args:    "server | list | add FILE --address ADDR",
		summary: "Show the judge's signing key, list the keys it knows, add a key (a game master's).",
		help: `Subcommands:
  keys server               the judge's OpenPGP public key, which signs every mail it
                            sends (made in the store on first use; the store must exist:
                            'umpire serve' or 'game new' makes it); players import it
                            with gpg --import
  keys list                 the player and game master keys the judge knows
  keys add FILE --address A register a public key (gpg --export --armor, or an SSH .pub
                            line), for instance a game master's, with the address
                            mail for it goes to

While 'umpire serve' runs, server and list go to it through its control socket
(docs/operations.md).`,
		flags: func(fs *flag.FlagSet) {
			fs.String("config", "", "configuration file (default: $UMPIRE_CONFIG or ./umpire.toml)")
			fs.String("store", "", "store file, overriding the configuration's store")
			fs.String("address", "", "with add: the key holder's mail address")
		},
		run: runKeys,
	}
}

func runKeys(ctx context.Context, m *Main, fs *flag.FlagSet, args []string) error {
	return m.console(fs).Keys(ctx, args, fs.Lookup("address").Value.String())
}
