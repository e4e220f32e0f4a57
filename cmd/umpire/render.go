package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/umpire-pbem/umpire/templates"
)

func renderCommand() *command {
	return &command{
		name:    "render",
		args:    "GAME [--step N] [--seat S] [--out FILE]",
		summary: "Write the situation report and map picture of a stored game.",
		flags: func(fs *flag.FlagSet) {
			fs.String("config", "", "configuration file (default: $UMPIRE_CONFIG or ./umpire.toml)")
			fs.String("store", "", "store file, overriding the configuration's store")
			fs.Int("step", 0, "the step to render (default: the last adjudicated)")
			fs.String("seat", "", "render as this seat sees it (default: the GM's full view)")
			fs.String("out", "", "write to this file (.txt, .html, .png) or folder (ending in /)")
		},
		run: runRender,
	}
}

func runRender(ctx context.Context, m *Main, fs *flag.FlagSet, args []string) error {
	if len(args) != 1 {
		return usagef("render takes one game id, not %d arguments: umpire render GAME [--step N] [--seat S] [--out FILE]", len(args))
	}
	game := args[0]
	step := uint64(max(flagInt(fs, "step"), 0))
	if flagInt(fs, "step") < 0 {
		return usagef("--step %d: steps count from 1", flagInt(fs, "step"))
	}
	seat := fs.Lookup("seat").Value.String()
	out := fs.Lookup("out").Value.String()
	r, step, seat, err := m.console(fs).Render(ctx, game, step, seat)
	if err != nil {
		return err
	}
	base := fmt.Sprintf("%s-step%d", game, step)
	if seat != "" {
		base += "-" + seat
	}
	noMap := fmt.Sprintf("%s step %d has no map picture", game, step)
	var files []templates.File
	tell := r.Map == nil // that there is no picture, after the files
	switch {
	case out == "":
		if _, err := fmt.Fprint(m.Stdout, r.Text); err != nil {
			return err
		}
		files, _ = r.File(base + ".png")
	case strings.HasSuffix(out, "/") || isDir(out):
		if err := os.MkdirAll(out, 0o755); err != nil {
			return err
		}
		files = r.Folder(out, base)
	default:
		var ok bool
		if files, ok = r.File(out); !ok {
			return usagef("--out %s: want a .txt, .html, .png or .svg file, or a folder ending in /", out)
		} else if len(files) == 0 {
			return errors.New(noMap)
		}
		tell = false
	}
	for _, f := range files {
		if err := os.WriteFile(f.Path, f.Data, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(m.Stderr, "wrote %s\n", f.Path)
	}
	if tell {
		fmt.Fprintln(m.Stderr, noMap)
	}
	return nil
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
