package sms1914

// This file reads a hosted game's data files: the map (board.ParseMap with
// 1914's terrain, hexside and set names), the counters (units, armies,
// corps), the scenario (set-up, schedule, Strategic Plans, victory) and the
// tables (tables.go). The formats are documented in
// docs/scenario-sms1914.md and docs/tables-sms1914.md. A wrong file is
// refused with its line and field.

import (
	_ "embed"
	"errors"
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

//go:embed scenarios/demo-scenario.toml
var demoScenario []byte

// side is a player's side: Austria-Hungary, or Serbia with Montenegro.
type side int

// The sides.
const (
	ah side = iota
	sb
)

// The seats.
const (
	seatAH   = "AH"
	seatSerb = "Serb"
)

func (s side) String() string {
	if s == sb {
		return "Serbia"
	}
	return "Austria-Hungary"
}

// Seat is the seat that plays the side.
func (s side) Seat() string {
	if s == sb {
		return seatSerb
	}
	return seatAH
}

// SeatSides implements adjudicator.SeatSides: the units table names the
// sides Serbia and Austria-Hungary, the seats Serb and AH.
func (rules) SeatSides(seat string) []string {
	for _, s := range []side{sb, ah} {
		if s.Seat() == seat {
			return []string{s.String()}
		}
	}
	return nil
}

// Enemy is the other side.
func (s side) Enemy() side { return 1 - s }

func seatSide(seat string) side {
	if seat == seatSerb {
		return sb
	}
	return ah
}

// Unit kinds (2.1).
const (
	kInfantry  = "infantry"
	kMarsch    = "marsch"
	kGarrison  = "garrison"
	kRiver     = "river" // River Protection
	kCavalry   = "cavalry"
	kFort      = "fort"
	kArtillery = "artillery"
	kDepot     = "depot"
	kTrain     = "train" // Corps Train
	kSquadron  = "squadron"
)

var kinds = []string{kInfantry, kMarsch, kGarrison, kRiver, kCavalry, kFort, kArtillery, kDepot, kTrain, kSquadron}

// values are a counter side's printed values (2.3): Attack Strength,
// Defense Strength, Proficiency Rating, Artillery Value.
type values struct{ AS, DS, PR, AV int }

// counter is one unit of the counter file: what the counter and its
// Attachment marker print.
type counter struct {
	ID, Name string
	Side     side
	Nation   string // "AH", "Serbia", "Montenegro"
	Kind     string
	Size     string // "XX", "X", "III" or "" (artillery, forts, supply, squadrons)
	Corps    string // printed (boxed) corps id (2.2.1)
	Army     string // army id of an army unit (2.2.1 Ex. 3, 5.4, 25.2)
	// Formation: the unit has an Attachment marker (2.8); else it is an
	// Asset Unit (5.5). Forts and artillery are always assets.
	Formation bool
	BaseCE    int // the marker's Base CE (2.8.2) or the asset's printed Base CE (2.3.6)
	// Sides are the full side, then the reduced side and any band counters
	// (2.3); a division-size infantry unit adds the -2 and -4 markers
	// (9.10.3).
	Sides         []values
	Garrison      int      // garrison range (2.3.5, 8.6)
	Home          board.ID // garrison location
	Abandon       int      // fort Abandonment Number (8.5.3); -1 is "*" (never)
	Range, ExtRng int      // supply range, front and Extended (2.6.1, 15.6.1)
	AmmoLimit     int      // Extended-side provision limit (2.6.2)
	RROnly        bool     // "R" (2.6.3)
	Bases         []string // squadron naval bases: hexes, or an off-map name (25.1.2)
	Marsch        bool     // the small M (7.7)
}

// Asset reports an Asset Unit (1.1, 5.5).
func (c *counter) Asset() bool { return !c.Formation }

// Combat reports a Combat unit: infantry types and cavalry (2.1).
func (c *counter) Combat() bool {
	switch c.Kind {
	case kInfantry, kMarsch, kGarrison, kRiver, kCavalry:
		return true
	}
	return false
}

// InfantryType reports an infantry-type unit (1.2).
func (c *counter) InfantryType() bool {
	switch c.Kind {
	case kInfantry, kMarsch, kGarrison, kRiver:
		return true
	}
	return false
}

// Supply reports a supply unit (2.6).
func (c *counter) Supply() bool { return c.Kind == kDepot || c.Kind == kTrain }

// Division reports a division-size unit.
func (c *counter) Division() bool { return c.Size == "XX" }

// DEQuarters is the unit's size in quarter division-equivalents (1.1): a
// division or corps train 4, a brigade or cavalry division 2, a regiment 1
// (a cavalry brigade 1, a cavalry regiment 1: 1.1 does not list them, see
// docs/rulings.md), artillery, forts, depots and squadrons 0.
func (c *counter) DEQuarters() int {
	switch c.Kind {
	case kArtillery, kFort, kDepot, kSquadron:
		return 0
	case kTrain:
		return 4
	case kCavalry:
		if c.Size == "XX" {
			return 2
		}
		return 1
	}
	switch c.Size {
	case "XX", "XXX":
		return 4
	case "X":
		return 2
	}
	return 1
}

// MaxSR is the most SRs the unit can carry on the map: its backs and band
// counters, and for division-size infantry the -2 and -4 markers (9.10.3).
func (c *counter) MaxSR() int {
	n := len(c.Sides) - 1
	if c.InfantryType() && c.Division() && len(c.Sides) > 1 {
		n += 2
	}
	return n
}

// At is the printed values with sr SRs: the side reached, then the -2/-4
// markers lowering AS and DS (docs/rulings.md).
func (c *counter) At(sr int) values {
	i := min(sr, len(c.Sides)-1)
	v := c.Sides[i]
	if extra := sr - (len(c.Sides) - 1); extra > 0 {
		v.AS = max(v.AS-2*extra, 1)
		v.DS = max(v.DS-2*extra, 1)
	}
	return v
}

// army is an army's display (5.2): its corps boxes (A-H).
type army struct {
	ID         string
	Side       side
	CorpsBoxes int
}

// corps is a corps' Attachment marker or a Serbian "corps" display (2.8.4,
// 5.2): its Attachment Limit in division-equivalents and its Corps Train.
type corps struct {
	ID       string
	Side     side
	Limit    int    // quarter division-equivalents
	Train    string // the Corps Train's unit id
	Unlisted bool   // Montenegro: the Montenegrin units' own group
}

// scenario is a game's data: map, counters, scenario and tables, checked
// together.
type scenario struct {
	Map      *board.Map
	Counters []*counter
	byID     map[string]*counter
	Armies   []*army
	Corps    []*corps
	Setup    *ScenarioFile
	Tables   *tables
	TEC      *tec
	CRT      *crt
	Art      *artilleryTable
	FMRT     *forcedMarchTable
	Notices  []string

	// hexside features, by canonical pair
	side map[board.Pair]string
	// contours on a hexside (3.6.1)
	contours map[board.Pair]int
	bridge   map[board.Pair]bool
	ferry    map[board.Pair]bool
	// road links and railroad hexes
	narrow map[board.ID]bool
	rail   map[board.ID]bool
	rails  map[board.Pair]bool
	// riverbend hexes, whose arrow points across their riverbend hexsides
	bend map[board.ID]bool
	// partial Serbia hexes (7.5.1)
	partial map[board.ID]bool
	// Montenegrin map-edge supply symbols (15.1.5)
	mntSupply []board.ID
	// off-map railroad (15.6.3a)
	offmap []offMapLink
	// the hexes on the map
	hexes []board.ID

	standInCounters bool
	countersNotice  string
	// nbr lists each playable hex's playable neighbours, by index; terr
	// is each hex's terrain
	nbr     [][]board.ID
	nbrSide [][]string // the hexside feature toward each neighbour
	terr    []string
	fc, fr  int // the grid's first column and row
	rows    int
	n       int
}

// index is a hex's place in per-hex arrays.
func (sc *scenario) index(id board.ID) int { return (id.Col-sc.fc)*sc.rows + id.Row - sc.fr }

// size is the length of per-hex arrays.
func (sc *scenario) size() int { return sc.n }

// Counter returns the counter with the id, nil if none.
func (sc *scenario) Counter(id string) *counter { return sc.byID[id] }

// CorpsOf returns a corps, nil if none.
func (sc *scenario) CorpsOf(id string) *corps {
	for _, c := range sc.Corps {
		if c.ID == id {
			return c
		}
	}
	return nil
}

// ArmyOf returns an army, nil if none.
func (sc *scenario) ArmyOf(id string) *army {
	for _, a := range sc.Armies {
		if a.ID == id {
			return a
		}
	}
	return nil
}

// data are the texts of a game's data files, kept in the state so that a
// game never depends on files that may change after it started. An empty
// text is the embedded demo file.
type data struct {
	MapName      string `json:"map_name"`
	Map          string `json:"map,omitempty"`
	CountersName string `json:"counters_name"`
	Counters     string `json:"counters,omitempty"`
	ScenarioName string `json:"scenario_name"`
	ScenarioText string `json:"scenario,omitempty"`
	TablesName   string `json:"tables_name"`
	TablesText   string `json:"tables,omitempty"`
}

func (d data) texts() (m, c, s, t []byte) {
	m, c, s, t = []byte(d.Map), []byte(d.Counters), []byte(d.ScenarioText), []byte(d.TablesText)
	if d.Map == "" {
		m = demoMap
	}
	if d.Counters == "" {
		c = demoCounters
	}
	if d.ScenarioText == "" {
		s = demoScenario
	}
	if d.TablesText == "" {
		t = []byte(demoTables)
	}
	return m, c, s, t
}

var scenarios datafile.Cache[*scenario]

// Load parses and checks a game's data, cached by content.
func (d data) Load() (*scenario, error) {
	m, c, s, t := d.texts()
	return scenarios.Load(datafile.Key(m, c, s, t), func() (*scenario, error) { return parseScenario(d, m, c, s, t) })
}

// blame names the game master's files in a refusal found in a demo file he
// did not send while checking it against files he did (the embedded demo
// scenario against his counters, say): it is his file that does not fit
// the demo's, and the demo file's line is given in the text. Other
// refusals are returned as they are.
func (d data) blame(fe *datafile.FileError) *datafile.FileError {
	type file struct {
		name, option string
		sent         bool
	}
	files := []file{{d.MapName, "map", d.Map != ""}, {d.CountersName, "counters", d.Counters != ""}, {d.ScenarioName, "scenario", d.ScenarioText != ""}}
	// each file is checked against those before it
	for i, f := range files {
		if f.sent || fe.File != f.name {
			continue
		}
		var sent []string
		for _, o := range files[:i] {
			if o.sent {
				sent = append(sent, o.name)
			}
		}
		if len(sent) == 0 {
			return fe
		}
		where := f.name
		if fe.Line > 0 {
			where = fmt.Sprintf("%s:%d", f.name, fe.Line)
		}
		if fe.Field != "" {
			where += ", field " + fe.Field
		}
		return &datafile.FileError{File: strings.Join(sent, " and "),
			Err: fmt.Sprintf("the demo %s, checked against it, does not fit it (%s: %s): send a %s file that fits (option %s)", f.option, where, fe.Err, f.option, f.option)}
	}
	return fe
}

// blameErr is blame for an error of the kind's reader ("sms1914: KIND:
// ...").
func (d data) blameErr(kind string, err error) error {
	var fe *datafile.FileError
	if !errors.As(err, &fe) {
		return err
	}
	if b := d.blame(fe); b != fe {
		return fmt.Errorf("sms1914: %s: %w", kind, b)
	}
	return err
}

// readData reads the data files a game master gives in the options map,
// counters, scenario and tables: a path on the judge's machine, or the
// file's text itself (anything with a line break: what a game created by
// mail must give); an empty value is the demo file. The files are checked
// at once.
func readData(mapPath, countersPath, scenarioPath, tablesPath string) (data, error) {
	d := data{MapName: "demo-map.toml", CountersName: "demo-counters.toml", ScenarioName: "demo-scenario.toml", TablesName: "demo-tables.toml"}
	read := func(option, path string, name, text *string) error {
		if path == "" {
			return nil
		}
		if strings.Contains(path, "\n") {
			*name, *text = "option "+option, path
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("sms1914: cannot read %s: %w", path, err)
		}
		*name, *text = path, string(b)
		return nil
	}
	for _, f := range []struct {
		option, path string
		name, text   *string
	}{
		{"map", mapPath, &d.MapName, &d.Map},
		{"counters", countersPath, &d.CountersName, &d.Counters},
		{"scenario", scenarioPath, &d.ScenarioName, &d.ScenarioText},
		{"tables", tablesPath, &d.TablesName, &d.TablesText},
	} {
		if err := read(f.option, f.path, f.name, f.text); err != nil {
			return d, err
		}
	}
	_, err := d.Load()
	return d, err
}

// terrains are the terrain types (3.5, 3.6).
var terrains = []string{"lowland", "bottomland", "bottomland_river", "upland", "rough", "drina_canyon", "foothills",
	"low_mountain", "high_mountain", "plateau", "impassable"}

// elevations of 3.6 / 9.6.1: Lowland/Bottomland 0, Upland 1, Rough/Drina
// River Canyon 2, Foothills 3, Low Mountain 4, High Mountain 5.
var elevations = map[string]int{"lowland": 0, "bottomland": 0, "bottomland_river": 0, "upland": 1, "rough": 2,
	"drina_canyon": 2, "foothills": 3, "low_mountain": 4, "high_mountain": 5, "impassable": 5}

// Hexside features (3.5.2, 7.1.4, 7.1.5, 15.3).
const (
	sideSava      = "sava"
	sideSavaIsle  = "sava_island"
	sideSavaBend  = "sava_riverbend"
	sideDonau     = "donau"
	sideDonauIsle = "donau_island"
	sideMajor     = "major_river"
	sideMinor     = "minor_river"
	sideImpass    = "impassable"
)

var sideKinds = []string{sideSava, sideSavaIsle, sideSavaBend, sideDonau, sideDonauIsle, sideMajor, sideMinor, sideImpass}

// areas of the map: the A-H lands, Serbia and Montenegro (1.1, 3.5.5, 25.2).
var (
	ahAreas   = []string{"Bosnia", "Slavonia", "Syrmien", "Banat", "Backa", "Hungary", "Croatia"}
	serbAreas = []string{"Serbia", "Montenegro"}
)

func parseScenario(d data, mapText, countersText, scenarioText, tablesText []byte) (*scenario, error) {
	mapFile := kit.File{Name: d.MapName, Data: mapText}
	// the grid first: 1914's map has dotted ids and its odd columns up
	var pre struct {
		Grid struct {
			Orientation string `toml:"orientation"`
			Up          string `toml:"up"`
			IDs         string `toml:"ids"`
		} `toml:"grid"`
	}
	if _, err := datafile.DecodeLoose(d.MapName, mapText, &pre); err == nil {
		switch {
		case pre.Grid.IDs != "CC.RR":
			return nil, fmt.Errorf("sms1914: map: %w", mapFile.Errorf("grid", -1, "ids", "1914 hexes have dotted ids such as 30.09 (Beograd): write ids = \"CC.RR\""))
		case pre.Grid.Orientation != "" && pre.Grid.Orientation != "flat-top" || pre.Grid.Up != board.OddUp:
			return nil, fmt.Errorf("sms1914: map: %w", mapFile.Errorf("grid", -1, "up", "1914's map has flat-top hexes with the odd columns half a hex higher (29.10 touches 30.09): write orientation = \"flat-top\" and up = \"odd\""))
		}
	}
	m, err := board.ParseMap(d.MapName, mapText)
	if err != nil {
		return nil, fmt.Errorf("sms1914: map: %w", err)
	}
	mapBad := func(table, key, format string, args ...any) error {
		return fmt.Errorf("sms1914: map: %w", mapFile.Errorf(table, -1, key, format, args...))
	}
	if m.Grid.IDStyle != board.Dotted {
		return nil, mapBad("grid", "ids", "1914 hexes have dotted ids such as 30.09 (Beograd): write ids = \"CC.RR\"")
	}
	if m.Grid.Orientation != board.FlatTop || m.Grid.Up != board.OddUp {
		return nil, mapBad("grid", "up", "1914's map has flat-top hexes with the odd columns half a hex higher (29.10 touches 30.09): write orientation = \"flat-top\" and up = \"odd\"")
	}
	sc := &scenario{Map: m, byID: map[string]*counter{}, side: map[board.Pair]string{}, contours: map[board.Pair]int{},
		bridge: map[board.Pair]bool{}, ferry: map[board.Pair]bool{}, narrow: map[board.ID]bool{}, rail: map[board.ID]bool{},
		rails: map[board.Pair]bool{}, bend: map[board.ID]bool{}, partial: map[board.ID]bool{}}
	for _, id := range m.Grid.All() {
		t := m.Terrain[id]
		if m.Area[id] == "" {
			continue
		}
		if !slices.Contains(terrains, t) {
			table, key := "terrain", "kind"
			if !mapListsTerrain(mapText, t) {
				table, key = "", "default_terrain" // the hex has the default terrain
			}
			fe := mapFile.Errorf(table, -1, key,
				"hex %s: unknown terrain %q: the terrains are %s (3.5, 3.6)", m.Grid.Format(id), t, strings.Join(terrains, ", "))
			if n := lineWith(mapText, fmt.Sprintf("%q", t)); n > 0 {
				fe.Line = n // the entry that names it
			}
			return nil, fmt.Errorf("sms1914: map: %w", fe)
		}
		a := m.Area[id]
		if !slices.Contains(ahAreas, a) && !slices.Contains(serbAreas, a) {
			fe := mapFile.Errorf("area", -1, "name", "unknown area %q: A-H areas are %s; Serbian %s (1.1, 25.2)", a, strings.Join(ahAreas, ", "), strings.Join(serbAreas, ", "))
			if n := lineWith(mapText, fmt.Sprintf("%q", a)); n > 0 {
				fe.Line = n // the entry that names it
			}
			return nil, fmt.Errorf("sms1914: map: %w", fe)
		}
		sc.hexes = append(sc.hexes, id)
	}
	for name := range m.SideSets {
		switch {
		case slices.Contains(sideKinds, name), name == "contour1", name == "contour2", name == "bridge", name == "ferry":
		default:
			return nil, mapBad("side_sets", name, "unknown hexside set: want %s, contour1, contour2, bridge or ferry", strings.Join(sideKinds, ", "))
		}
	}
	for name := range m.HexSets {
		if !slices.Contains([]string{"narrow_track", "partial_serbia", "montenegrin_supply", "riverbend"}, name) {
			return nil, mapBad("sets", name, "unknown hex set: want narrow_track, partial_serbia, montenegrin_supply or riverbend")
		}
	}
	for _, k := range sideKinds {
		for _, p := range m.SideSets[k] {
			if old, dup := sc.side[p]; dup {
				return nil, mapBad("side_sets", k, "hexside %s is both %s and %s", p.Format(board.Dotted), old, k)
			}
			sc.side[p] = k
		}
	}
	for _, p := range m.SideSets["contour1"] {
		sc.contours[p] = 1
	}
	for _, p := range m.SideSets["contour2"] {
		sc.contours[p] = 2
	}
	for _, p := range m.SideSets["bridge"] {
		if k := sc.side[p]; k != sideSava && k != sideSavaIsle && k != sideSavaBend && k != sideDonau && k != sideDonauIsle {
			return nil, mapBad("side_sets", "bridge", "bridge %s is not on a Sava or Donau hexside (7.1.5)", p.Format(board.Dotted))
		}
		sc.bridge[p] = true
	}
	for _, p := range m.SideSets["ferry"] {
		if k := sc.side[p]; k != sideDonau && k != sideDonauIsle {
			return nil, mapBad("side_sets", "ferry", "ferry %s is not on a Donau hexside (7.1.5a)", p.Format(board.Dotted))
		}
		sc.ferry[p] = true
	}
	for _, id := range m.HexSets["riverbend"] {
		sc.bend[id] = true
	}
	for _, p := range m.SideSets[sideSavaBend] {
		if !sc.bend[p.A] && !sc.bend[p.B] {
			return nil, mapBad("side_sets", sideSavaBend, "riverbend hexside %s: neither hex is in sets.riverbend (the hex whose arrow points across it, 3.5.4)", p.Format(board.Dotted))
		}
	}
	for _, id := range m.HexSets["narrow_track"] {
		sc.narrow[id] = true
	}
	for _, id := range m.HexSets["partial_serbia"] {
		sc.partial[id] = true
	}
	sc.mntSupply = m.HexSets["montenegrin_supply"]
	for _, r := range m.Roads {
		if r.Kind != board.Railroad {
			continue
		}
		for i, id := range r.Path {
			sc.rail[id] = true
			if i > 0 {
				sc.rails[board.MakePair(r.Path[i-1], id)] = true
			}
		}
	}
	sc.fc, sc.fr, sc.rows, sc.n = m.Grid.FirstCol, m.Grid.FirstRow, m.Grid.Rows, m.Grid.Cols*m.Grid.Rows
	sc.nbr = make([][]board.ID, sc.size())
	sc.nbrSide = make([][]string, sc.size())
	sc.terr = make([]string, sc.size())
	for _, id := range m.Grid.All() {
		sc.terr[sc.index(id)] = m.Terrain[id]
	}
	for _, id := range sc.hexes {
		for _, n := range m.Grid.Neighbours(id) {
			if m.Area[n] != "" {
				sc.nbr[sc.index(id)] = append(sc.nbr[sc.index(id)], n)
			}
		}
	}
	for _, id := range sc.hexes {
		for _, n := range sc.nbr[sc.index(id)] {
			sc.nbrSide[sc.index(id)] = append(sc.nbrSide[sc.index(id)], sc.side[board.MakePair(id, n)])
		}
	}
	if err := sc.readCounters(d.CountersName, countersText); err != nil {
		return nil, d.blameErr("counters", err)
	}
	if sc.Tables, err = parseTables(d.TablesName, tablesText); err != nil {
		return nil, fmt.Errorf("sms1914: %w", err)
	}
	if sc.CRT, err = sc.Tables.CRT(); err != nil {
		return nil, fmt.Errorf("sms1914: %w", err)
	}
	if sc.Art, err = sc.Tables.ArtilleryTable(); err != nil {
		return nil, fmt.Errorf("sms1914: %w", err)
	}
	if sc.FMRT, err = sc.Tables.ForcedMarchTable(); err != nil {
		return nil, fmt.Errorf("sms1914: %w", err)
	}
	for _, u := range []string{"infantry", "cavalry"} {
		if _, ok := sc.FMRT.Lookup(1, u); !ok {
			return nil, fmt.Errorf("sms1914: %w", sc.Tables.bad("forced_march.units", "no %s column (7.2.3a)", u))
		}
	}
	if sc.TEC, err = sc.Tables.TEC(); err != nil {
		return nil, fmt.Errorf("sms1914: %w", err)
	}
	if err := sc.readScenario(d.ScenarioName, scenarioText); err != nil {
		return nil, d.blameErr("scenario", err)
	}
	for _, n := range []struct {
		standIn bool
		text    string
	}{{m.StandIn, m.Notice}, {sc.standInCounters, sc.countersNotice}, {sc.Setup.StandIn, sc.Setup.Notice},
		{sc.Tables.StandIn, "stand-in tables: invented CRT, Artillery Table, TEC and Forced March cells except those the rulebook's examples reveal"}} {
		if n.standIn {
			if n.text == "" {
				n.text = "stand-in data"
			}
			sc.Notices = append(sc.Notices, n.text)
		}
	}
	return sc, nil
}

// lineWith is the first line of text holding s, 0 if none.
func lineWith(text []byte, s string) int {
	for i, l := range strings.Split(string(text), "\n") {
		if strings.Contains(l, s) {
			return i + 1
		}
	}
	return 0
}

// mapListsTerrain reports whether a [[terrain]] entry names the kind.
func mapListsTerrain(text []byte, kind string) bool {
	var f struct {
		Terrain []struct {
			Kind string `toml:"kind"`
		} `toml:"terrain"`
	}
	_, _ = datafile.DecodeLoose("", text, &f)
	for _, t := range f.Terrain {
		if t.Kind == kind {
			return true
		}
	}
	return false
}

type countersFile struct {
	StandIn bool          `toml:"stand_in"`
	Notice  string        `toml:"notice"`
	Army    []armyFile    `toml:"army"`
	Corps   []corpsFile   `toml:"corps"`
	Unit    []counterFile `toml:"unit"`
}

type armyFile struct {
	ID         string `toml:"id"`
	Side       string `toml:"side"`
	CorpsBoxes int    `toml:"corps_boxes"`
}

type corpsFile struct {
	ID    string  `toml:"id"`
	Side  string  `toml:"side"`
	Limit float64 `toml:"limit"`
	Train string  `toml:"train"`
}

type counterFile struct {
	ID        string   `toml:"id"`
	Name      string   `toml:"name"`
	Side      string   `toml:"side"`
	Kind      string   `toml:"kind"`
	Size      string   `toml:"size"`
	Corps     string   `toml:"corps"`
	Army      string   `toml:"army"`
	Formation bool     `toml:"formation"`
	BaseCE    int      `toml:"base_ce"`
	Full      []int    `toml:"full"`
	Reduced   []int    `toml:"reduced"`
	Bands     [][]int  `toml:"bands"`
	Garrison  int      `toml:"garrison"`
	Home      string   `toml:"home"`
	Abandon   string   `toml:"abandon"`
	Range     int      `toml:"range"`
	ExtRange  int      `toml:"extended_range"`
	AmmoLimit int      `toml:"ammo_limit"`
	RROnly    bool     `toml:"rr_only"`
	Bases     []string `toml:"bases"`
	Marsch    bool     `toml:"marsch"`
}

// Bounds of the counter file (docs/scenario-sms1914.md): what a counter can
// print, with room to spare; a value beyond them is a mistake.
const (
	maxName        = 120
	maxGarrison    = 10 // the white hexagon's number (8.6.2)
	maxSupplyRange = 30 // supply ranges (2.6.1): the map is 30 hexes wide
	maxAmmoLimit   = 99 // Ammo increments a GT (2.6.2)
	maxBands       = 4  // band counters after the reduced side (2.3)
	maxBases       = 4  // a squadron's naval bases (25.1.2: two)
)

func sideOf(s string) (side, string, bool) {
	switch strings.ToLower(s) {
	case "ah", "a-h", "austria-hungary":
		return ah, "AH", true
	case "serb", "serbia", "serbian":
		return sb, "Serbia", true
	case "montenegro", "montenegrin":
		return sb, "Montenegro", true
	}
	return 0, "", false
}

func (sc *scenario) readCounters(name string, data []byte) error {
	file := kit.File{Name: name, Data: data}
	var f countersFile
	if err := file.Decode(&f); err != nil {
		return fmt.Errorf("sms1914: counters: %w", err)
	}
	sc.standInCounters, sc.countersNotice = f.StandIn, f.Notice
	wrap := func(err error) error { return fmt.Errorf("sms1914: counters: %w", err) }
	for i, a := range f.Army {
		side, _, ok := sideOf(a.Side)
		if a.ID == "" || strings.ContainsAny(a.ID, " +/,") {
			return wrap(file.Errorf("army", i, "id", "%q: want an army id without spaces, such as FIFTH", a.ID))
		}
		if !ok {
			return wrap(file.Errorf("army", i, "side", "%q: want AH or Serb", a.Side))
		}
		if side == ah && (a.CorpsBoxes < 0 || a.CorpsBoxes > 9) {
			return wrap(file.Errorf("army", i, "corps_boxes", "%d: want 0 to 9 corps boxes (5.1.3, 5.2.1)", a.CorpsBoxes))
		}
		if sc.ArmyOf(a.ID) != nil {
			return wrap(file.Errorf("army", i, "id", "army %s is listed twice", a.ID))
		}
		sc.Armies = append(sc.Armies, &army{ID: a.ID, Side: side, CorpsBoxes: a.CorpsBoxes})
	}
	for i, c := range f.Corps {
		side, nation, ok := sideOf(c.Side)
		if c.ID == "" || strings.ContainsAny(c.ID, " +/,") {
			return wrap(file.Errorf("corps", i, "id", "%q: want a corps id without spaces, such as VIII", c.ID))
		}
		if !ok {
			return wrap(file.Errorf("corps", i, "side", "%q: want AH, Serb or Montenegro", c.Side))
		}
		q := c.Limit * 4
		if c.Limit <= 0 || q != float64(int(q)) || c.Limit > 20 {
			return wrap(file.Errorf("corps", i, "limit", "%v: the Corps Attachment Limit is a number of division-equivalents such as 2.5 (2.8.4)", c.Limit))
		}
		if sc.CorpsOf(c.ID) != nil {
			return wrap(file.Errorf("corps", i, "id", "corps %s is listed twice", c.ID))
		}
		sc.Corps = append(sc.Corps, &corps{ID: c.ID, Side: side, Limit: int(q), Train: c.Train, Unlisted: nation == "Montenegro"})
	}
	if len(f.Unit) == 0 {
		return wrap(&datafile.FileError{File: name, Field: "unit", Err: "no [[unit]] entries"})
	}
	for i, u := range f.Unit {
		fieldErr := func(key, format string, args ...any) error {
			return wrap(file.Errorf("unit", i, key, format, args...))
		}
		c := &counter{ID: u.ID, Name: u.Name, Kind: u.Kind, Size: u.Size, Corps: u.Corps, Army: u.Army, Formation: u.Formation,
			BaseCE: u.BaseCE, Garrison: u.Garrison, Range: u.Range, ExtRng: u.ExtRange, AmmoLimit: u.AmmoLimit, RROnly: u.RROnly,
			Bases: u.Bases, Marsch: u.Marsch, Abandon: 0}
		if c.ID == "" || strings.ContainsAny(c.ID, " \t+,#") || len(c.ID) > 24 {
			return fieldErr("id", "%q: want an id without spaces, + , or #, at most 24 characters, such as 9/VIII", u.ID)
		}
		if len(c.Name) > maxName {
			return fieldErr("name", "%d characters: a name has at most %d", len(c.Name), maxName)
		}
		for _, r := range []struct {
			key      string
			v, limit int
			why      string
		}{
			{"base_ce", u.BaseCE, 19, "a Base CE (2.3.6, 2.8.2)"},
			{"garrison", u.Garrison, maxGarrison, "a garrison range in hexes (2.3.5, 8.6.2)"},
			{"range", u.Range, maxSupplyRange, "a supply range in hexes (2.6.1)"},
			{"extended_range", u.ExtRange, maxSupplyRange, "an Extended supply range in hexes (15.6.1)"},
			{"ammo_limit", u.AmmoLimit, maxAmmoLimit, "an Ammo Provision Limit (2.6.2, 9.4.2)"},
		} {
			if r.v < 0 || r.v > r.limit {
				return fieldErr(r.key, "%d: %s is 0 to %d", r.v, r.why, r.limit)
			}
		}
		if len(u.Bands) > maxBands {
			return fieldErr("bands", "%d band counters: a unit has at most %d (2.3)", len(u.Bands), maxBands)
		}
		if len(u.Bases) > maxBases {
			return fieldErr("bases", "%d naval bases: a squadron has at most %d (25.1.2)", len(u.Bases), maxBases)
		}
		if sc.byID[c.ID] != nil || sc.byID[strings.ToUpper(c.ID)] != nil {
			return fieldErr("id", "%s is listed twice", c.ID)
		}
		for _, o := range sc.Counters {
			if strings.EqualFold(o.ID, c.ID) {
				return fieldErr("id", "%s and %s differ only in case: orders read ids in any case", o.ID, c.ID)
			}
		}
		var ok bool
		if c.Side, c.Nation, ok = sideOf(u.Side); !ok {
			return fieldErr("side", "%q: want AH, Serb or Montenegro", u.Side)
		}
		if !slices.Contains(kinds, c.Kind) {
			return fieldErr("kind", "%q: want one of %s (2.1)", u.Kind, strings.Join(kinds, ", "))
		}
		if c.Size != "" && !slices.Contains([]string{"XXX", "XX", "X", "III"}, c.Size) {
			return fieldErr("size", "%q: want XX, X or III (2.2.2)", u.Size)
		}
		if c.Combat() && c.Size == "" {
			return fieldErr("size", "a combat unit has a size: XX, X or III (2.2.2)")
		}
		if c.Kind == kFort || c.Kind == kArtillery || c.Kind == kDepot || c.Kind == kTrain || c.Kind == kSquadron {
			if c.Formation {
				return fieldErr("formation", "a %s is never a Formation (1.1)", c.Kind)
			}
		}
		if c.Corps != "" {
			if co := sc.CorpsOf(c.Corps); co == nil || co.Side != c.Side {
				return fieldErr("corps", "%q is not a corps of the unit's side in the [[corps]] list", c.Corps)
			}
		}
		if c.Army != "" {
			if a := sc.ArmyOf(c.Army); (a == nil || a.Side != c.Side) && c.Army != "SYRMIEN" && c.Army != "BANAT" {
				return fieldErr("army", "%q is not an army of the unit's side in the [[army]] list, SYRMIEN or BANAT (2.2.1, 25.2)", c.Army)
			}
		}
		if (c.Combat() || c.Kind == kFort) && (c.BaseCE < 1 || c.BaseCE > 19) {
			return fieldErr("base_ce", "%d: a Formation's Attachment marker or an Asset's counter prints a Base CE from 1 to 19 (2.3.6, 2.8.2)", u.BaseCE)
		}
		vals := func(key string, v []int) (values, error) {
			if len(v) != 4 {
				return values{}, fieldErr(key, "want [AS, DS, PR, AV], four numbers (2.3)")
			}
			for _, x := range v {
				if x < 0 || x > 99 {
					return values{}, fieldErr(key, "%d: values are 0 to 99", x)
				}
			}
			return values{AS: v[0], DS: v[1], PR: v[2], AV: v[3]}, nil
		}
		switch c.Kind {
		case kDepot, kTrain:
			if c.Range < 1 || c.ExtRng < c.Range || c.AmmoLimit < 1 {
				return fieldErr("range", "a supply unit prints its range (front), extended_range (back, at least the range) and ammo_limit (back, 1 or more) (2.6)")
			}
			c.Sides = []values{{}}
		default:
			full, err := vals("full", u.Full)
			if err != nil {
				return err
			}
			c.Sides = []values{full}
			if u.Reduced != nil {
				r, err := vals("reduced", u.Reduced)
				if err != nil {
					return err
				}
				c.Sides = append(c.Sides, r)
			}
			for j, b := range u.Bands {
				if u.Reduced == nil {
					return fieldErr("bands", "band counters follow a reduced side (2.3)")
				}
				v, err := vals(fmt.Sprintf("bands[%d]", j), b)
				if err != nil {
					return err
				}
				c.Sides = append(c.Sides, v)
			}
		}
		if c.Kind == kSquadron && len(c.Bases) == 0 {
			return fieldErr("bases", "a naval squadron lists its naval bases (25.1.2)")
		}
		for _, b := range c.Bases {
			if strings.Contains(b, ".") {
				if _, err := sc.Map.Grid.Parse(b); err != nil {
					return fieldErr("bases", "%v", err)
				}
			}
		}
		if c.Kind == kGarrison {
			if c.Garrison < 1 {
				return fieldErr("garrison", "a Garrison unit prints its range, 1 or more (2.3.5, 8.6.2)")
			}
			h, err := sc.Map.Grid.Parse(u.Home)
			if err != nil {
				return fieldErr("home", "a Garrison unit's location: %v", err)
			}
			c.Home = h
		}
		if c.Kind == kFort {
			switch {
			case u.Abandon == "*" && c.Side == ah:
				c.Abandon = -1
			case u.Abandon == "*":
				return fieldErr("abandon", "only A-H forts have a * Abandonment Number (8.5.3)")
			default:
				n, err := strconv.Atoi(u.Abandon)
				if err != nil || n < 0 || n > 6 {
					return fieldErr("abandon", "%q: a fort prints its Abandonment Number 0 to 6, or * (A-H, never abandons) (2.4.5, 8.5.3)", u.Abandon)
				}
				c.Abandon = n
			}
		}
		if c.Marsch && (c.Side != ah || c.Kind != kMarsch) {
			return fieldErr("marsch", "only A-H marsch units carry the M (7.7)")
		}
		if c.Kind == kMarsch {
			c.Marsch = true
		}
		if c.Kind == kCavalry && c.Side == ah && c.Corps != "" {
			return fieldErr("corps", "A-H cavalry Formations can only be Independent (5.2.4)")
		}
		sc.byID[c.ID] = c
		sc.Counters = append(sc.Counters, c)
	}
	for i, co := range f.Corps {
		if co.Train == "" {
			continue
		}
		t := sc.byID[co.Train]
		if t == nil || t.Kind != kTrain {
			return wrap(file.Errorf("corps", i, "train", "%q is not a corps train in the unit list", co.Train))
		}
	}
	slices.SortFunc(sc.Counters, func(a, b *counter) int { return strings.Compare(a.ID, b.ID) })
	return nil
}

// parseTables reads a table file's text (tables.go checks each section).
func parseTables(name string, text []byte) (*tables, error) {
	t := &tables{Name: name}
	md, err := datafile.DecodeLoose(name, text, &t.file)
	if err != nil {
		return nil, err
	}
	t.md, t.text = md, text
	t.StandIn = t.file.StandIn
	return t, nil
}
