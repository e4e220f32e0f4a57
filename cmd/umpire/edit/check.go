package edit

// This file checks a document as create does: the game's own New reads the
// written files as a game file's options would give them (map = '''...''',
// counters = '''...'''), so every refusal is create's, word for word, with
// its file, line and field. The line is then traced back to the hexes,
// sides, spaces or counter row it holds. A document the judge accepts is
// drawn by the judge's own renderer, as the game's web page draws it.

import (
	"bytes"
	"errors"
	"fmt"
	"html"
	"regexp"
	"strconv"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/adjudicator/datafile"
	"github.com/umpire-pbem/umpire/templates"
)

// Option names: how create names text given in a game file's option.
const (
	mapOption      = "option map"
	countersOption = "option counters"
)

// Result is a check's answer: the judge's refusal, if any, where it
// points, and the judge's picture of the files it accepts.
type Result struct {
	OK       bool      `json:"ok"`
	Problems []Problem `json:"problems"`
	// SVG is the judge's map picture; SVGPlaces each hex's or space's
	// centre in it, to lay it over the scan.
	SVG       string                `json:"svg,omitempty"`
	SVGPlaces map[string][2]float64 `json:"svg_places,omitempty"`
	// Geometry is the hex grid's layout (hex maps whose grid reads).
	Geometry *Geometry `json:"geometry,omitempty"`
	// MapText and CountersText are the files as they would be saved.
	MapText      string `json:"map_text"`
	CountersText string `json:"counters_text,omitempty"`
}

// Problem is a refusal: the message as create gives it, and where it
// points: the file's line and field, the hexes, sides or spaces the line
// holds (Where), or a counter table's row.
type Problem struct {
	Message string   `json:"message"`
	File    string   `json:"file,omitempty"`
	Line    int      `json:"line,omitempty"`
	Field   string   `json:"field,omitempty"`
	Where   []string `json:"where,omitempty"`
	Table   string   `json:"table,omitempty"`
	Row     int      `json:"row"`
}

// check reads doc's files with the game's own reader.
func (s *Server) check(doc *Document) *Result {
	res := &Result{}
	var mw, cw *writer
	ids := ""
	switch {
	case doc.Hex != nil:
		mw = doc.Hex.encode()
		ids = doc.Hex.Grid.IDs
		if geo, err := doc.Hex.geometry(mapOption); err == nil {
			res.Geometry = geo
		}
	case doc.Network != nil:
		mw = doc.Network.encode()
	default:
		res.Problems = []Problem{{Message: "the document holds no map", Row: -1}}
		return res
	}
	res.MapText = mw.b.String()
	opts := map[string]string{"map": res.MapText}
	if doc.Counters != nil {
		cw = doc.Counters.encode()
		res.CountersText = cw.b.String()
		opts["counters"] = res.CountersText
	}
	state, err := s.newGame(opts)
	if err != nil {
		res.Problems = []Problem{locate(err, mw, cw)}
		return res
	}
	res.OK = true
	if err := s.render(res, state, ids); err != nil {
		res.Problems = []Problem{{Message: "the map could not be drawn: " + err.Error(), Row: -1}}
	}
	return res
}

// newGame is the game's New, as create calls it; a panic in a reader is a
// refusal, not the editor's end.
func (s *Server) newGame(opts map[string]string) (state []byte, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("the game's reader failed: %v", v)
		}
	}()
	// text must read as text, not a path: every written file ends in a
	// line break.
	for k, v := range opts {
		if !strings.Contains(v, "\n") {
			opts[k] = v + "\n"
		}
	}
	return s.cfg.Game.New(s.cfg.Scenario, opts)
}

// locate finds where a refusal points.
func locate(err error, mw, cw *writer) Problem {
	p := Problem{Message: err.Error(), Row: -1}
	var fe *datafile.FileError
	if !errors.As(err, &fe) {
		return p
	}
	p.File, p.Line, p.Field = fe.File, fe.Line, fe.Field
	var w *writer
	switch fe.File {
	case mapOption:
		w = mw
	case countersOption:
		w = cw
	}
	if w == nil {
		return p
	}
	o, ok := w.at(fe.Line)
	if !ok {
		return p
	}
	p.Table, p.Row = o.Table, o.Row
	// the places the message names, else every place of the line
	for _, pl := range o.Places {
		if strings.Contains(fe.Err, pl) {
			p.Where = append(p.Where, pl)
		}
	}
	if len(p.Where) == 0 {
		p.Where = o.Places
	}
	return p
}

var placesAttr = regexp.MustCompile(`data-places="([^"]*)"`)

// render draws the game's map at its start as the web page does and
// notes where each place is in the picture.
func (s *Server) render(res *Result, state []byte, ids string) error {
	rep, ok := s.cfg.Game.(adjudicator.Reporter)
	if !ok {
		return nil
	}
	sit, err := rep.Situation(state, adjudicator.Spectator)
	if err != nil || sit.Picture == nil {
		return err
	}
	var buf bytes.Buffer
	if err := templates.RenderSVG(*sit.Picture, &buf); err != nil {
		return err
	}
	res.SVG = buf.String()
	res.SVGPlaces = map[string][2]float64{}
	m := placesAttr.FindStringSubmatch(res.SVG)
	if m == nil {
		return nil
	}
	for entry := range strings.SplitSeq(html.UnescapeString(m[1]), ";") {
		f := strings.Fields(entry)
		if len(f) != 3 {
			continue
		}
		x, errX := strconv.ParseFloat(f[1], 64)
		y, errY := strconv.ParseFloat(f[2], 64)
		if errX != nil || errY != nil {
			continue
		}
		id := f[0]
		if ids == "CC.RR" {
			if h, err := board.ParseID(id, board.FourDigit); err == nil {
				id = h.Format(board.Dotted)
			}
		}
		res.SVGPlaces[id] = [2]float64{x, y}
	}
	return nil
}
