package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

func renderCommand() *command {
	return &command{
		name:    "render",
		args:    "GAME [--step N] [--seat S] [--out FILE]",
		summary: "Write the situation report and map picture of a stored game.",
		help: "Renders the report of an adjudicated step exactly as the judge mails it: as the game master " +
			"sees it, or with --seat as that seat sees it (its hidden information only). " +
			"Without --out the text report goes to standard output and the map picture to GAME-stepN.png " +
			"(GAME-stepN-SEAT.png) in the current folder. --out FILE.txt, FILE.html or FILE.png writes that part " +
			"alone; --out DIR/ writes all three into the folder DIR.",
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
	write := func(path string, data []byte) error {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(m.Stderr, "wrote %s\n", path)
		return nil
	}
	picture := func(path string) error {
		if r.Map == nil {
			fmt.Fprintf(m.Stderr, "%s step %d has no map picture\n", game, step)
			return nil
		}
		return write(path, r.Map)
	}
	switch {
	case out == "":
		if _, err := fmt.Fprint(m.Stdout, r.Text); err != nil {
			return err
		}
		return picture(base + ".png")
	case strings.HasSuffix(out, "/") || isDir(out):
		if err := os.MkdirAll(out, 0o755); err != nil {
			return err
		}
		if err := write(filepath.Join(out, base+".txt"), []byte(r.Text)); err != nil {
			return err
		}
		if err := write(filepath.Join(out, base+".html"), []byte(r.HTML)); err != nil {
			return err
		}
		return picture(filepath.Join(out, base+".png"))
	}
	switch strings.ToLower(filepath.Ext(out)) {
	case ".png":
		if r.Map == nil {
			return fmt.Errorf("%s step %d has no map picture", game, step)
		}
		return write(out, r.Map)
	case ".html", ".htm":
		// a file on disk cannot resolve cid: references: point at the
		// picture written beside it.
		html := r.HTML
		if r.Map != nil {
			png := strings.TrimSuffix(out, filepath.Ext(out)) + ".png"
			if err := write(png, r.Map); err != nil {
				return err
			}
			html = strings.ReplaceAll(html, "cid:"+r.MapCID, filepath.Base(png))
		}
		return write(out, []byte(html))
	case ".txt", ".text":
		return write(out, []byte(r.Text))
	}
	return usagef("--out %s: want a .txt, .html or .png file, or a folder ending in /", out)
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
