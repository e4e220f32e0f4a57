package daemon

import (
	"context"
	"fmt"
	"os"
	"text/tabwriter"
	"time"

	"github.com/umpire-pbem/umpire/mail/signature"
	"github.com/umpire-pbem/umpire/store"
)

// Keys carries out "umpire keys": server, list, and add FILE (address:
// --address).
func (c *Console) Keys(ctx context.Context, args []string, address string) error {
	if len(args) == 0 {
		return usagef("want a subcommand: server, list or add")
	}
	var pub []byte
	var key signature.Key
	switch {
	case args[0] == "add" && len(args) == 2:
		var err error
		if pub, err = os.ReadFile(args[1]); err != nil {
			return usagef("%w", err)
		}
		if key, err = signature.ParseKey(pub); err != nil {
			return usagef("%s: %w", args[1], err)
		}
	case (args[0] == "server" || args[0] == "list") && len(args) == 1:
	default:
		return usagef("want keys server, keys list or keys add FILE --address ADDR")
	}
	cfg, db, err := c.open(args[0] == "add")
	if err != nil {
		return err
	}
	switch args[0] {
	case "server":
		k, err := serverKey(ctx, db, cfg, c.Now())
		if err != nil {
			return err
		}
		fmt.Fprintf(c.Stdout, "The judge signs every mail with this key (fingerprint %s):\n\n%s", k.Public().Fingerprint, k.ArmoredPublic())
		return nil
	case "add":
		err := db.Update(ctx, func(tx *store.Tx) error {
			return tx.PutKey(store.Key{Fingerprint: key.Fingerprint, Kind: string(key.Kind), Public: pub,
				Address: address, Added: c.Now()})
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(c.Stdout, "added %s key %s (%s)\n", key.Kind, key.Fingerprint, key.Comment)
		return nil
	}
	return db.View(ctx, func(tx *store.Tx) error {
		keys, err := tx.Keys()
		if err != nil {
			return err
		}
		w := tabwriter.NewWriter(c.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(w, "FINGERPRINT\tKIND\tADDRESS\tADDED")
		for _, k := range keys {
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", k.Fingerprint, k.Kind, orNone(k.Address), k.Added.UTC().Format("2006-01-02"))
		}
		return w.Flush()
	})
}

// serverKey returns the judge's signing key, making and storing it on
// first use.
func serverKey(ctx context.Context, db *store.DB, cfg *Config, now time.Time) (*signature.ServerKey, error) {
	var k *signature.ServerKey
	err := db.Update(ctx, func(tx *store.Tx) error {
		raw, err := tx.ServerKey()
		if err != nil {
			return err
		}
		if raw != nil {
			k, err = signature.ParseServerKey(raw)
			return err
		}
		address := cfg.Address
		if address == "" {
			address = "judge@" + store.DefaultHost
		}
		if k, err = signature.GenerateServerKey(cfg.Name, address, now); err != nil {
			return err
		}
		priv, err := k.MarshalPrivate()
		if err != nil {
			return err
		}
		return tx.PutServerKey(priv)
	})
	return k, err
}
