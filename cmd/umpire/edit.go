package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"

	editor "github.com/umpire-pbem/umpire/cmd/umpire/edit"
)

func editCommand() *command {
	return &command{
		name:    "edit",
		args:    "GAME FILE [--counters FILE] [--size COLSxROWS] [--image SCAN] [--vassal MODULE.vmod [--board NAME]]",
		summary: "Edit a game's map (and counter) file in your browser, over your scan of the map.",
		flags: func(fs *flag.FlagSet) {
			fs.String("counters", "", "the game's counter file, edited in a table (default: the demo counters check the map)")
			fs.String("image", "", "your scan or photo of the map, PNG or JPEG, shown under the grid")
			fs.String("vassal", "", "a VASSAL module (.vmod) to take the board image and grid from")
			fs.String("board", "", "the module's board to take, when it has several with a hex grid")
			fs.String("size", "", "a new map's size: COLSxROWS (from hex 0101) or FIRST..LAST hex ids (default: the module's grid, else 10x10)")
			fs.String("web", "127.0.0.1:0", "loopback address to serve the editor on")
		},
		run: runEdit,
	}
}

func runEdit(ctx context.Context, m *Main, fs *flag.FlagSet, args []string) error {
	if len(args) != 2 {
		return usagef("takes a game (pcs1995, wbt, sms1914, bu) and the map file to edit")
	}
	reg := m.Games
	if reg == nil {
		reg = games()
	}
	rules, err := reg.Get(args[0])
	if err != nil {
		return usagef("%v", err)
	}
	cfg := editor.Config{Game: rules, MapPath: args[1], CountersPath: fs.Lookup("counters").Value.String(), Logger: m.Logger}
	if fs.Lookup("vassal").Value.String() != "" && fs.Lookup("image").Value.String() != "" {
		return usagef("give the map's image with --image or a VASSAL module with --vassal, not both")
	}
	if s := fs.Lookup("size").Value.String(); s != "" {
		if cfg.NewGrid, err = editor.ParseSize(s); err != nil {
			return usagef("--size: %v", err)
		}
	}
	if fs.Lookup("board").Value.String() != "" && fs.Lookup("vassal").Value.String() == "" {
		return usagef("--board chooses a board of the module given with --vassal")
	}
	if p := fs.Lookup("vassal").Value.String(); p != "" {
		mod, err := editor.ReadModule(ctx, p, fs.Lookup("board").Value.String())
		if err != nil {
			return usagef("--vassal: %v", err)
		}
		cfg.Scan, cfg.Hexes = mod.Scan, mod.Hexes
		fmt.Fprintf(m.Stdout, "From %s: board %s, %d×%d pixels, %d hexes named.\n", p, mod.Board, mod.Scan.Width, mod.Scan.Height, len(mod.Hexes))
		_, err = os.Stat(args[1])
		if cfg.NewGrid == nil && mod.Grid != nil && editor.Games()[rules.ID()] == "hex" && errors.Is(err, os.ErrNotExist) {
			cfg.NewGrid = mod.Grid // a new map has the board's hexes
			fmt.Fprintf(m.Stdout, "A new map of the board's hexes, %s to %s.\n", mod.Grid.First, mod.Grid.Last)
		}
		for _, n := range mod.Notes {
			fmt.Fprintln(m.Stdout, "  note: "+n)
		}
	}
	if p := fs.Lookup("image").Value.String(); p != "" {
		if cfg.Scan, err = editor.ReadScan(p); err != nil {
			return usagef("%v", err)
		}
	}
	s, err := editor.New(cfg)
	if err != nil {
		return usagef("%v", err)
	}
	addr := fs.Lookup("web").Value.String()
	if host, _, err := net.SplitHostPort(addr); err != nil || !net.ParseIP(host).IsLoopback() {
		return usagef("--web %s: the editor serves on a loopback address only, such as 127.0.0.1:8090", addr)
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(m.Stdout, "Editing %s (%s) at http://%s/\nSave from the page; press Ctrl-C here to stop.\n", args[1], rules.Title(), l.Addr())
	return s.Serve(ctx, l)
}
