package bu

// This file holds a game's data files (map, counters, cards, tracks): their
// texts are kept in the state, so a game never changes because a file did;
// an empty text is the embedded stand-in demo file. Parsed data is cached by
// content.

import (
	_ "embed"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/datafile"
	"github.com/umpire-pbem/umpire/adjudicator/kit"
)

//go:embed scenarios/demo-map.toml
var demoMap []byte

//go:embed scenarios/demo-counters.toml
var demoCounters []byte

//go:embed scenarios/demo-cards.toml
var demoCards []byte

//go:embed scenarios/demo-tracks.toml
var demoTracks []byte

// setupBrigades are the brigades each side sets up (4.1.1).
var setupBrigades = map[Side]int{serb: 25, croat: 7, bosniak: 20}

// data are the texts of a game's data files.
type data struct {
	MapName      string `json:"map_name"`
	Map          string `json:"map,omitempty"`
	CountersName string `json:"counters_name"`
	Counters     string `json:"counters,omitempty"`
	CardsName    string `json:"cards_name"`
	Cards        string `json:"cards,omitempty"`
	TracksName   string `json:"tracks_name"`
	Tracks       string `json:"tracks,omitempty"`
}

// scenario is a game's data, parsed and checked.
type scenario struct {
	Map      *Map
	Counters *counters
	Deck     *deck
	Tracks   *tracks
	// Setup lists, for each space, the units set up there (4.1.1).
	Setup map[string][]string
	// Notices say which files are stand-ins, for every report.
	Notices []string
}

var scenarioCache datafile.Cache[*scenario]

func (d data) texts() (m, c, k, t []byte) {
	pick := func(text string, demo []byte) []byte {
		if text == "" {
			return demo
		}
		return []byte(text)
	}
	return pick(d.Map, demoMap), pick(d.Counters, demoCounters), pick(d.Cards, demoCards), pick(d.Tracks, demoTracks)
}

// Load parses and checks the data (cached by content).
func (d data) Load() (*scenario, error) {
	m, c, k, t := d.texts()
	return scenarioCache.Load(datafile.Key(m, c, k, t), func() (*scenario, error) { return parseScenario(d, m, c, k, t) })
}

func parseScenario(d data, mText, cText, kText, tText []byte) (*scenario, error) {
	m, err := parseMap(d.MapName, mText)
	if err != nil {
		return nil, fmt.Errorf("bu: map: %w", err)
	}
	c, err := parseCounters(d.CountersName, cText, m)
	if err != nil {
		return nil, fmt.Errorf("bu: counters: %w", d.blame("counters", err))
	}
	k, err := parseCards(d.CardsName, kText, m, c)
	if err != nil {
		return nil, fmt.Errorf("bu: cards: %w", d.blame("cards", err))
	}
	t, err := parseTracks(d.TracksName, tText)
	if err != nil {
		return nil, fmt.Errorf("bu: tracks: %w", err)
	}
	sc := &scenario{Map: m, Counters: c, Deck: k, Tracks: t, Setup: map[string][]string{}}
	if err := sc.setup(d, mText, cText); err != nil {
		return nil, fmt.Errorf("bu: map: %w", err)
	}
	for _, n := range []struct {
		standIn bool
		notice  string
	}{{m.StandIn, m.Notice}, {c.StandIn, c.Notice}, {k.StandIn, k.Notice}, {t.StandIn, t.Notice}} {
		if n.standIn {
			sc.Notices = append(sc.Notices, n.notice)
		}
	}
	return sc, nil
}

// againstError is a value of a data file that the file it is checked
// against does not hold: a region or space of the map, a unit type or unit
// of the counter list.
type againstError struct {
	file string // map or counters
	msg  string
}

func (e *againstError) Error() string { return e.msg }

// dependError is the refusal of a data file for a value the file it is
// checked against (the map, the counter list) does not hold.
type dependError struct {
	*datafile.FileError
	against string
}

func (e *dependError) Unwrap() error { return e.FileError }

// checked makes fe a dependError when cause is an againstError.
func checked(fe error, cause error) error {
	ae, ok := cause.(*againstError)
	f, isFE := fe.(*datafile.FileError)
	if !ok || !isFE {
		return fe
	}
	return &dependError{FileError: f, against: ae.file}
}

// demo reports whether file (map, counters, cards, tracks) is the embedded
// stand-in, not one the game master sent.
func (d data) demo(file string) bool {
	return map[string]string{"map": d.Map, "counters": d.Counters, "cards": d.Cards, "tracks": d.Tracks}[file] == ""
}

func (d data) name(file string) string {
	return map[string]string{"map": d.MapName, "counters": d.CountersName, "cards": d.CardsName, "tracks": d.TracksName}[file]
}

// blame names the game master's file for a refusal of the demo file that
// was checked against it: the demo is not the game master's to fix, the
// file sent lacks what the demo needs. The demo's own line says what.
func (d data) blame(file string, err error) error {
	var de *dependError
	if !errors.As(err, &de) || !d.demo(file) || d.demo(de.against) {
		return err
	}
	needs := map[string]string{"counters": "the demo counter list needs", "cards": "the demo cards need"}[file]
	return &datafile.FileError{File: d.name(de.against), Err: fmt.Sprintf("%s what this file lacks: %v", needs, de.FileError)}
}

// setup assigns the units of each setup symbol (1.2.6): units of the type,
// in list order, not scheduled as reinforcements; and checks the totals of
// 4.1.1. A refusal names the map, or the game master's counter list when
// the map is the demo's.
func (sc *scenario) setup(d data, text, cText []byte) error {
	name := d.MapName
	// blame names the game master's counter list, at the type's entry
	// (table type or units, and its key), for a demo map's symbol
	blame := func(err error, t, table, key string) error {
		if !d.demo("map") || d.demo("counters") {
			return err
		}
		fe := &datafile.FileError{File: d.CountersName, Field: table, Err: fmt.Sprintf("the demo map's setup symbols need %s: %v", map[string]string{
			"type": "a type this file lacks", "side": "another side for " + t, "foreign": "domestic units of " + t, "ids": "more " + t + " units than this file holds"}[key], err)}
		if e, ok := sc.Counters.entries[t]; ok {
			i := e[0]
			if table == "units" {
				i = e[1]
			}
			if i >= 0 {
				fe.Field = fmt.Sprintf("%s[%d].%s", table, i, key)
				fe.Line = datafile.FieldLine(cText, table, i, key)
				if fe.Line == 0 {
					fe.Line = datafile.FieldLine(cText, table, i, "")
				}
			}
		}
		return fe
	}
	scheduled := map[string]bool{}
	for _, r := range sc.Counters.Reinforcements {
		for _, u := range r.Units {
			scheduled[u] = true
		}
	}
	next := map[string]int{}
	count := map[Side]int{}
	for i, sp := range sc.Map.Spaces {
		for _, t := range sp.Setup {
			ut := sc.Counters.Type(t)
			bad := func(format string, args ...any) error {
				return kit.File{Name: name, Data: text}.Errorf("space", i, "setup", format, args...)
			}
			switch {
			case ut == nil:
				return blame(bad("%q is not a unit type of the counter list", t), t, "type", "type")
			case ut.Foreign:
				return blame(bad("%s is a Foreign Unit type: Foreign Units come with cards, not at setup (1.3.3, 1.5.8)", t), t, "type", "foreign")
			case ut.Side != sp.Control:
				return blame(bad("a %s unit (%s) set up in a %s space", ut.Side, t, sp.Control), t, "type", "side")
			}
			found := ""
			for j := next[t]; j < len(sc.Counters.Units); j++ {
				u := sc.Counters.Units[j]
				if u.Type == ut && !scheduled[u.ID] {
					found, next[t] = u.ID, j+1
					break
				}
			}
			if found == "" {
				return blame(bad("no more units of type %s in the counter list for this symbol", t), t, "units", "ids")
			}
			sc.Setup[sp.ID] = append(sc.Setup[sp.ID], found)
			count[ut.Side]++
			if len(sc.Setup[sp.ID]) > stackLimit {
				return bad("%d units set up in one space: the stacking limit is %d (2.3.1)", len(sc.Setup[sp.ID]), stackLimit)
			}
		}
	}
	for _, side := range sides {
		if count[side] != setupBrigades[side] {
			return &datafile.FileError{File: name, Field: "space.setup", Err: fmt.Sprintf("the setup symbols place %d %s brigades; 4.1.1 sets up %d", count[side], side, setupBrigades[side])}
		}
	}
	return nil
}

// stackLimit is the most units in a space at the end of an action (2.3.1).
const stackLimit = 3

// readData reads the data files a game master gives in the options map,
// counters, cards and tracks: a path on the judge's machine, or the file's
// text itself (anything with a line break, as a game created by mail must
// give it); an empty value is the stand-in demo file. The files are checked
// together at once.
func readData(options map[string]string) (data, error) {
	d := data{MapName: "demo-map.toml", CountersName: "demo-counters.toml", CardsName: "demo-cards.toml", TracksName: "demo-tracks.toml"}
	read := func(option string, name, text *string) error {
		path := options[option]
		if path == "" {
			return nil
		}
		if strings.Contains(path, "\n") {
			*name, *text = "option "+option, path
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("bu: cannot read the %s file %s: %w", option, path, err)
		}
		*name, *text = path, string(b)
		return nil
	}
	for _, f := range []struct {
		option     string
		name, text *string
	}{{"map", &d.MapName, &d.Map}, {"counters", &d.CountersName, &d.Counters}, {"cards", &d.CardsName, &d.Cards}, {"tracks", &d.TracksName, &d.Tracks}} {
		if err := read(f.option, f.name, f.text); err != nil {
			return d, err
		}
	}
	_, err := d.Load()
	return d, err
}
