package bu

// This file holds a game's data files (map, counters, cards, tracks): their
// texts are kept in the state, so a game never changes because a file did;
// an empty text is the embedded stand-in demo file. Parsed data is cached by
// content.

import (
	_ "embed"
	"fmt"
	"os"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/datafile"
)

//go:embed scenarios/demo-map.toml
var demoMap []byte

//go:embed scenarios/demo-counters.toml
var demoCounters []byte

//go:embed scenarios/demo-cards.toml
var demoCards []byte

//go:embed scenarios/demo-tracks.toml
var demoTracks []byte

// SetupBrigades are the brigades each side sets up (4.1.1).
var SetupBrigades = map[Side]int{Serb: 25, Croat: 7, Bosniak: 20}

// Data are the texts of a game's data files.
type Data struct {
	MapName      string `json:"map_name"`
	Map          string `json:"map,omitempty"`
	CountersName string `json:"counters_name"`
	Counters     string `json:"counters,omitempty"`
	CardsName    string `json:"cards_name"`
	Cards        string `json:"cards,omitempty"`
	TracksName   string `json:"tracks_name"`
	Tracks       string `json:"tracks,omitempty"`
}

// Scenario is a game's data, parsed and checked.
type Scenario struct {
	Map      *Map
	Counters *Counters
	Deck     *Deck
	Tracks   *Tracks
	// Setup lists, for each space, the units set up there (4.1.1).
	Setup map[string][]string
	// Notices say which files are stand-ins, for every report.
	Notices []string
}

var scenarioCache datafile.Cache[*Scenario]

func (d Data) texts() (m, c, k, t []byte) {
	pick := func(text string, demo []byte) []byte {
		if text == "" {
			return demo
		}
		return []byte(text)
	}
	return pick(d.Map, demoMap), pick(d.Counters, demoCounters), pick(d.Cards, demoCards), pick(d.Tracks, demoTracks)
}

// Load parses and checks the data (cached by content).
func (d Data) Load() (*Scenario, error) {
	m, c, k, t := d.texts()
	return scenarioCache.Load(datafile.Key(m, c, k, t), func() (*Scenario, error) { return parseScenario(d, m, c, k, t) })
}

func parseScenario(d Data, mText, cText, kText, tText []byte) (*Scenario, error) {
	m, err := ParseMap(d.MapName, mText)
	if err != nil {
		return nil, fmt.Errorf("bu: map: %w", err)
	}
	c, err := ParseCounters(d.CountersName, cText, m)
	if err != nil {
		return nil, fmt.Errorf("bu: counters: %w", err)
	}
	k, err := ParseCards(d.CardsName, kText, m, c)
	if err != nil {
		return nil, fmt.Errorf("bu: cards: %w", err)
	}
	t, err := ParseTracks(d.TracksName, tText)
	if err != nil {
		return nil, fmt.Errorf("bu: tracks: %w", err)
	}
	sc := &Scenario{Map: m, Counters: c, Deck: k, Tracks: t, Setup: map[string][]string{}}
	if err := sc.setup(d.MapName, mText); err != nil {
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

// setup assigns the units of each setup symbol (1.2.6): units of the type,
// in list order, not scheduled as reinforcements; and checks the totals of
// 4.1.1.
func (sc *Scenario) setup(name string, text []byte) error {
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
				return fileProblem(name, text, "space", i, "setup", format, args...)
			}
			switch {
			case ut == nil:
				return bad("%q is not a unit type of the counter list", t)
			case ut.Foreign:
				return bad("%s is a Foreign Unit type: Foreign Units come with cards, not at setup (1.3.3, 1.5.8)", t)
			case ut.Side != sp.Control:
				return bad("a %s unit (%s) set up in a %s space", ut.Side, t, sp.Control)
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
				return bad("no more units of type %s in the counter list for this symbol", t)
			}
			sc.Setup[sp.ID] = append(sc.Setup[sp.ID], found)
			count[ut.Side]++
			if len(sc.Setup[sp.ID]) > StackLimit {
				return bad("%d units set up in one space: the stacking limit is %d (2.3.1)", len(sc.Setup[sp.ID]), StackLimit)
			}
		}
	}
	for _, side := range Sides {
		if count[side] != SetupBrigades[side] {
			return &datafile.FileError{File: name, Field: "space.setup", Err: fmt.Sprintf("the setup symbols place %d %s brigades; 4.1.1 sets up %d", count[side], side, SetupBrigades[side])}
		}
	}
	return nil
}

// StackLimit is the most units in a space at the end of an action (2.3.1).
const StackLimit = 3

// ReadData reads the data files a game master gives in the options map,
// counters, cards and tracks: a path on the judge's machine, or the file's
// text itself (anything with a line break, as a game created by mail must
// give it); an empty value is the stand-in demo file. The files are checked
// together at once.
func ReadData(options map[string]string) (Data, error) {
	d := Data{MapName: "demo-map.toml", CountersName: "demo-counters.toml", CardsName: "demo-cards.toml", TracksName: "demo-tracks.toml"}
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
