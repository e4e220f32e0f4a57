package wbt

// This file reads a hosted game's data: the map file (board.ParseMap with
// War by Television's areas and sets), the counter list and the CRT table
// (crt.go). The formats are documented in docs/scenario-wbt.md.

import (
	_ "embed"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/adjudicator/datafile"
	"github.com/umpire-pbem/umpire/adjudicator/kit"
)

//go:embed scenarios/demo-map.toml
var demoMap []byte

//go:embed scenarios/demo-counters.toml
var demoCounters []byte

// The areas of the map (1.2, 3.2): the rump-Yugoslav provinces, the
// countries always in the alliance, and the neutrals NATO may bring in.
var (
	yugoslavia  = []string{"Vojvodina", "Serbia", "Kosovo", "Montenegro"}
	alwaysIn    = []string{"Albania", "Bosnia", "Hungary", "Macedonia"}
	neutralsAll = []string{"Croatia", "Romania", "Bulgaria"}
)

// mobility is a unit's mobility class (2.5).
type mobility int

// The mobility classes.
const (
	Mech mobility = iota
	nonMech
	airmobile
)

var mobilityNames = []string{"mech", "nonmech", "airmobile"}

func (m mobility) String() string { return mobilityNames[m] }

// counter is one unit of the counter list: its printed values.
type counter struct {
	ID, Name    string
	Side        side
	Nationality string
	Type        string
	Mobility    mobility
	// Attack and Defense give the factors of each step, full strength
	// first: Attack[0] at MaxSteps steps, Attack[MaxSteps-1] at 1 step.
	Attack, Defense []int
	Move            int
	Setup           []string // areas it may set up in; empty for its side's areas
	Hex             board.ID // its demo set-up hex
	Needs           string   // "croatia" or "uk3": in play only then (3.2, 4.8)
	VariantSteps    int      // steps at start under the 1.4 variant; 0 none
	MEF, AAA, KLA   bool
	TaskForce       bool
	Artillery       bool
	AntiTank        bool
	MountainInf     bool
}

// MaxSteps is the unit's full step strength (2.9).
func (c *counter) MaxSteps() int { return len(c.Attack) }

// AttackAt is the printed attack factor with steps left.
func (c *counter) AttackAt(steps int) int { return c.Attack[clampStep(c, steps)] }

// DefenseAt is the printed defense factor with steps left.
func (c *counter) DefenseAt(steps int) int { return c.Defense[clampStep(c, steps)] }

func clampStep(c *counter, steps int) int {
	return min(max(c.MaxSteps()-steps, 0), c.MaxSteps()-1)
}

// Factors prints the factors with steps left: "8" or "2-3".
func (c *counter) Factors(steps int) string {
	a, d := c.AttackAt(steps), c.DefenseAt(steps)
	if c.Artillery {
		return fmt.Sprintf("?-%d", d)
	}
	if c.AntiTank {
		return "0-?"
	}
	if a == d {
		return strconv.Itoa(a)
	}
	return fmt.Sprintf("%d-%d", a, d)
}

// GreatPower reports whether the unit is US, UK, French or German (10.18,
// 11.24).
func (c *counter) GreatPower() bool { return c.Side == nato && greatPower(c.Nationality) }

// scenario is a game's data: map, counters and CRT, checked together.
type scenario struct {
	Map      *board.Map
	Counters []*counter
	byID     map[string]*counter
	CRT      *crt
	Notices  []string
	// Sources are the supply source hexes (8.7) and Milosevic the line's
	// hexes (11.19).
	Sources   []board.ID
	Milosevic map[board.ID]bool
	// Bridges are the hexsides where a road or highway crosses a river
	// (10.18); Intact those intact at the start.
	Bridges map[board.Pair]bool
	Intact  []board.Pair
	// Cities are the rump-Yugoslav city hexes (3.4, 4.9).
	Cities []board.ID

	standInCounters bool
	countersNotice  string
	// roadNbrs lists each road hex's neighbours along a road or highway.
	roadNbrs map[board.ID][]board.ID
}

// Counter returns the counter with the id, nil if none.
func (sc *scenario) Counter(id string) *counter { return sc.byID[id] }

// Data are the texts of a game's data files, kept in the state so that a
// game never depends on files that may change after it started.
type Data struct {
	MapName      string `json:"map_name"`
	Map          string `json:"map,omitempty"`
	CountersName string `json:"counters_name"`
	Counters     string `json:"counters,omitempty"`
	CRTName      string `json:"crt_name"`
	CRT          string `json:"crt,omitempty"`
}

// text returns the bytes of a data file: the embedded demo when the
// state names it without text.
func (d Data) texts() (m, c, t []byte) {
	m, c, t = []byte(d.Map), []byte(d.Counters), []byte(d.CRT)
	if d.Map == "" {
		m = demoMap
	}
	if d.Counters == "" {
		c = demoCounters
	}
	if d.CRT == "" {
		t = demoCRT
	}
	return m, c, t
}

// scenarios caches parsed data by digest: states carry the texts, and
// parsing a map on every call would be slow.
var scenarios datafile.Cache[*scenario]

// Load parses and checks a game's data (cached by content).
func (d Data) Load() (*scenario, error) {
	m, c, t := d.texts()
	return scenarios.Load(datafile.Key(m, c, t), func() (*scenario, error) {
		return parseScenario(dataFile{d.MapName, m, d.Map == ""}, dataFile{d.CountersName, c, d.Counters == ""}, dataFile{d.CRTName, t, d.CRT == ""})
	})
}

// readData reads the data files a game master gives in options map,
// counters and crt: a path on the judge's machine, or the file's text itself
// (anything with a line break: what a game created by mail must give); an
// empty value is the demo file. The files are
// checked at once: a wrong file is refused with its line and field.
func readData(mapPath, countersPath, crtPath string) (Data, error) {
	d := Data{MapName: "demo-map.toml", CountersName: "demo-counters.toml", CRTName: "demo-crt.toml"}
	read := func(option, path string, name, text *string) error {
		if path == "" {
			return nil
		}
		if strings.Contains(path, "\n") {
			// the file's text itself, as a game created by mail gives it
			*name, *text = "option "+option, path
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("wbt: cannot read %s: %w", path, err)
		}
		*name, *text = path, string(b)
		return nil
	}
	if err := read("map", mapPath, &d.MapName, &d.Map); err != nil {
		return d, err
	}
	if err := read("counters", countersPath, &d.CountersName, &d.Counters); err != nil {
		return d, err
	}
	if err := read("crt", crtPath, &d.CRTName, &d.CRT); err != nil {
		return d, err
	}
	_, err := d.Load()
	return d, err
}

// dataFile is one data file a scenario is read from: the name its
// refusals give (the game master's path or option, or the demo file's
// name), its text, and whether it is the embedded demo file.
type dataFile struct {
	name string
	text []byte
	demo bool
}

// parseScenario reads and checks the three files together. A refusal is a
// *datafile.FileError (wrapped) naming the file at fault: when a demo file
// does not fit a game master's file (the demo counters' set-up hexes off
// the master's map), the game master's file.
func parseScenario(mapFile, countersFile, crtFile dataFile) (*scenario, error) {
	mapName, mapText := mapFile.name, mapFile.text
	m, err := board.ParseMap(mapName, mapText)
	if err != nil {
		return nil, fmt.Errorf("wbt: map: %w", err)
	}
	if m.Grid.IDStyle != board.FourDigit {
		return nil, fmt.Errorf("wbt: map: %w", &datafile.FileError{File: mapName, Line: datafile.FieldLine(mapText, "grid", -1, "ids"), Field: "grid.ids", Err: "War by Television hexes have four-digit ids (2.1)"})
	}
	sc := &scenario{Map: m, byID: map[string]*counter{}, Milosevic: map[board.ID]bool{}, Bridges: map[board.Pair]bool{}}
	known := slices.Concat(yugoslavia, alwaysIn, neutralsAll)
	for _, id := range m.Grid.All() {
		if a := m.Area[id]; a != "" && !slices.Contains(known, a) {
			return nil, fmt.Errorf("wbt: map: %w", &datafile.FileError{File: mapName, Line: datafile.FieldLine(mapText, "area", areaIndex(mapText, a), "name"),
				Field: "area.name", Err: fmt.Sprintf("unknown area %q: the areas are %s", a, strings.Join(known, ", "))})
		}
	}
	for _, req := range []string{"supply_source", "milosevic_line"} {
		if _, ok := m.HexSets[req]; !ok {
			return nil, fmt.Errorf("wbt: map: %w", &datafile.FileError{File: mapName, Line: datafile.FieldLine(mapText, "sets", -1, ""), Field: "sets." + req, Err: "missing (8.7, 11.19)"})
		}
	}
	sc.Sources = m.HexSets["supply_source"]
	for _, id := range m.HexSets["milosevic_line"] {
		sc.Milosevic[id] = true
	}
	for p := range m.Rivers {
		if m.Link(p.A, p.B) != "" {
			sc.Bridges[p] = true
		}
	}
	sc.roadNbrs = map[board.ID][]board.ID{}
	for _, id := range m.Grid.All() {
		for _, nb := range m.Grid.Neighbours(id) {
			if m.Link(id, nb) != "" {
				sc.roadNbrs[id] = append(sc.roadNbrs[id], nb)
			}
		}
	}
	for _, p := range m.SideSets["intact_bridge"] {
		if !sc.Bridges[p] {
			return nil, fmt.Errorf("wbt: map: %w", &datafile.FileError{File: mapName, Line: datafile.FieldLine(mapText, "side_sets", -1, "intact_bridge"),
				Field: "side_sets.intact_bridge", Err: fmt.Sprintf("%s is not a bridge: no road crosses a river there (10.18)", p)})
		}
		sc.Intact = append(sc.Intact, p)
	}
	for _, id := range m.Grid.All() {
		if p, ok := m.Places[id]; ok && p.Kind == "city" && slices.Contains(yugoslavia, m.Area[id]) {
			sc.Cities = append(sc.Cities, id)
		}
	}
	if err := sc.readCounters(countersFile, mapFile); err != nil {
		return nil, err
	}
	if sc.CRT, err = parseCRT(crtFile.name, crtFile.text); err != nil {
		return nil, fmt.Errorf("wbt: %w", err)
	}
	for _, n := range []struct {
		standIn bool
		text    string
	}{{m.StandIn, m.Notice}, {sc.standInCounters, sc.countersNotice}, {sc.CRT.StandIn, "stand-in CRT: invented cells except the 11.8 one, not the published table"}} {
		if n.standIn {
			sc.Notices = append(sc.Notices, n.text)
		}
	}
	return sc, nil
}

func areaIndex(text []byte, name string) int {
	var f struct {
		Area []struct {
			Name string `toml:"name"`
		} `toml:"area"`
	}
	_, _ = datafile.DecodeLoose("", text, &f)
	for i, a := range f.Area {
		if a.Name == name {
			return i
		}
	}
	return -1
}

type countersFile struct {
	StandIn bool          `toml:"stand_in"`
	Notice  string        `toml:"notice"`
	Unit    []counterFile `toml:"unit"`
}

type counterFile struct {
	ID           string   `toml:"id"`
	Name         string   `toml:"name"`
	Side         string   `toml:"side"`
	Nationality  string   `toml:"nationality"`
	Type         string   `toml:"type"`
	Mobility     string   `toml:"mobility"`
	Factors      []string `toml:"factors"`
	Move         int      `toml:"move"`
	Setup        []string `toml:"setup"`
	Hex          string   `toml:"hex"`
	Needs        string   `toml:"needs"`
	VariantSteps int      `toml:"variant_steps"`
	Special      []string `toml:"special"`
}

// specials are the counter flags a rule keys on.
var specials = []string{"mef", "aaa", "kla", "task-force", "artillery", "antitank", "mountain"}

// readCounters reads the counter list; a set-up hex off the map is the
// map's fault when the counters are the demo's and the map is not.
func (sc *scenario) readCounters(file, mapFile dataFile) error {
	name, data := file.name, file.text
	var f countersFile
	if err := (kit.File{Name: name, Data: data}).Decode(&f); err != nil {
		return fmt.Errorf("wbt: counters: %w", err)
	}
	sc.standInCounters, sc.countersNotice = f.StandIn, f.Notice
	if len(f.Unit) == 0 {
		return fmt.Errorf("wbt: counters: %w", &datafile.FileError{File: name, Field: "unit", Err: "no [[unit]] entries"})
	}
	for i, u := range f.Unit {
		badField := func(key, format string, args ...any) error {
			return fmt.Errorf("wbt: counters: %w", &datafile.FileError{File: name, Line: datafile.FieldLine(data, "unit", i, key),
				Field: fmt.Sprintf("unit[%d].%s", i, key), Err: fmt.Sprintf(format, args...)})
		}
		c := &counter{ID: u.ID, Name: u.Name, Nationality: u.Nationality, Type: u.Type, Move: u.Move, Setup: u.Setup,
			Needs: u.Needs, VariantSteps: u.VariantSteps}
		if c.ID == "" || strings.ContainsAny(c.ID, " \t+/#,") || strings.ToUpper(c.ID) != c.ID {
			return badField("id", "%q: want an upper-case id without spaces, + / # or commas, such as US-1AD", u.ID)
		}
		if sc.byID[c.ID] != nil {
			return badField("id", "%s is listed twice", c.ID)
		}
		switch strings.ToLower(u.Side) {
		case "nato":
			c.Side = nato
		case "serb", "serbs":
			c.Side = serb
		default:
			return badField("side", "%q: want NATO or Serb", u.Side)
		}
		if c.Nationality == "" {
			return badField("nationality", "missing (2.4)")
		}
		mi := slices.Index(mobilityNames, u.Mobility)
		if mi < 0 {
			return badField("mobility", "%q: want mech, nonmech or airmobile (2.5)", u.Mobility)
		}
		c.Mobility = mobility(mi)
		if len(u.Factors) == 0 || len(u.Factors) > 8 {
			return badField("factors", "want one to eight steps' factors, full strength first (2.7, 2.9)")
		}
		for _, fs := range u.Factors {
			a, d, two := strings.Cut(fs, "-")
			if !two {
				d = a
			}
			av, err1 := strconv.Atoi(a)
			dv, err2 := strconv.Atoi(d)
			if err1 != nil || err2 != nil || av < 0 || dv < 0 || av > 99 || dv > 99 {
				return badField("factors", "%q: want a combat factor (\"8\") or attack-defense (\"2-3\")", fs)
			}
			c.Attack, c.Defense = append(c.Attack, av), append(c.Defense, dv)
		}
		if c.Move < 1 || c.Move > 40 {
			return badField("move", "%d: want a movement factor from 1 to 40 (2.8)", u.Move)
		}
		if u.Hex != "" {
			id, err := sc.Map.Grid.Parse(u.Hex)
			if err != nil && file.demo && !mapFile.demo {
				return fmt.Errorf("wbt: map: %w", &datafile.FileError{File: mapFile.name, Line: datafile.FieldLine(mapFile.text, "grid", -1, "last"), Field: "grid",
					Err: fmt.Sprintf("the demo counters set %s up at %s, which is not on this map (%v): give the counters for this map too (option counters)", c.ID, u.Hex, err)})
			}
			if err != nil {
				return badField("hex", "%v", err)
			}
			c.Hex = id
		}
		for _, a := range c.Setup {
			if !slices.Contains(slices.Concat(yugoslavia, alwaysIn, neutralsAll), a) {
				return badField("setup", "unknown area %q", a)
			}
		}
		if c.Needs != "" && c.Needs != "croatia" && c.Needs != "uk3" {
			return badField("needs", "%q: want croatia (3.2) or uk3 (4.8)", c.Needs)
		}
		if c.VariantSteps < 0 || c.VariantSteps > c.MaxSteps() {
			return badField("variant_steps", "%d: want 1 to the unit's %d steps", c.VariantSteps, c.MaxSteps())
		}
		for _, s := range u.Special {
			switch s {
			case "mef":
				c.MEF = true
			case "aaa":
				c.AAA = true
			case "kla":
				c.KLA = true
			case "task-force":
				c.TaskForce = true
			case "artillery":
				c.Artillery = true
			case "antitank":
				c.AntiTank = true
			case "mountain":
				c.MountainInf = true
			default:
				return badField("special", "%q: want %s", s, strings.Join(specials, ", "))
			}
		}
		if (c.Artillery || c.AntiTank || c.TaskForce) && c.Side != serb {
			return badField("special", "artillery, anti-tank and task forces are Serbian (6.3, 11.20, 11.21)")
		}
		if (c.MEF || c.AAA || c.KLA) && c.Side != nato {
			return badField("special", "the MEF, the 1st AAA and the KLA are NATO units")
		}
		if c.AAA && c.Mobility != airmobile {
			return badField("mobility", "the 1st AAA is airmobile (2.5, 12.3)")
		}
		sc.byID[c.ID] = c
		sc.Counters = append(sc.Counters, c)
	}
	slices.SortFunc(sc.Counters, func(a, b *counter) int { return strings.Compare(a.ID, b.ID) })
	return nil
}
