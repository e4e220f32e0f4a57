package edit

// This file holds what the editor edits: a game's map file and counter
// file, read from disk (or new), and which format each game's map has.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Map formats.
const (
	hexFormat     = "hex"     // board.ParseMap: 1995, WbT, 1914
	networkFormat = "network" // B&U's point-to-point board
)

// formats is each game's map format; a game not listed has no map file
// the editor knows (Per Rote's maps come with its scenario).
var formats = map[string]string{"pcs1995": hexFormat, "wbt": hexFormat, "sms1914": hexFormat, "bu": networkFormat}

// Games lists the games the editor edits, with their map formats.
func Games() map[string]string {
	out := map[string]string{}
	for k, v := range formats {
		out[k] = v
	}
	return out
}

// Document is the editor's whole document: the map and, when a counter
// file is edited too, the counters.
type Document struct {
	Game     string    `json:"game"`
	Format   string    `json:"format"`
	Hex      *HexMap   `json:"hex,omitempty"`
	Network  *NetMap   `json:"network,omitempty"`
	Counters *Counters `json:"counters,omitempty"`
}

// load reads the files, or starts new ones where a file does not exist: a
// new hex map on grid (nil: ten by ten hexes), a new network of the
// scan's size.
func load(game, mapPath, countersPath string, grid *GridSpec, scanW, scanH int) (*Document, error) {
	doc := &Document{Game: game, Format: formats[game]}
	if doc.Format == "" {
		return nil, fmt.Errorf("edit: game %q has no map file the editor knows: it edits pcs1995, wbt, sms1914 (hex maps) and bu (a network of spaces)", game)
	}
	data, err := os.ReadFile(mapPath)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("edit: %w", err)
	}
	switch {
	case exists && grid != nil:
		return nil, fmt.Errorf("edit: %s exists: a size is for a new map (the file's [grid] says its size; change it in the File box)", mapPath)
	case doc.Format != hexFormat && grid != nil:
		return nil, fmt.Errorf("edit: a size is for a new hex map: a new %s map takes the scan's size", game)
	case doc.Format == hexFormat && exists:
		if doc.Hex, err = readHexMap(mapPath, data); err != nil {
			return nil, err
		}
	case doc.Format == hexFormat:
		doc.Hex = newHexMap(grid)
	case exists:
		if doc.Network, err = readNetMap(mapPath, data); err != nil {
			return nil, err
		}
	default:
		doc.Network = newNetMap(scanW, scanH)
	}
	doc.normalize()
	if countersPath == "" {
		return doc, nil
	}
	data, err = os.ReadFile(countersPath)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		doc.Counters = &Counters{}
	case err != nil:
		return nil, fmt.Errorf("edit: %w", err)
	default:
		if doc.Counters, err = readCounters(countersPath, data); err != nil {
			return nil, err
		}
	}
	return doc, nil
}

// normalize gives every list and table of the map a value: the page adds
// to them.
func (d *Document) normalize() {
	if h := d.Hex; h != nil {
		h.Sides, h.Roads, h.Places = nonNil(h.Sides), nonNil(h.Roads), nonNil(h.Places)
	}
	if n := d.Network; n != nil {
		n.Regions, n.Spaces, n.Roads = nonNil(n.Regions), nonNil(n.Spaces), nonNil(n.Roads)
	}
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
