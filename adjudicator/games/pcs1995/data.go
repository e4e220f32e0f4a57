package pcs1995

// This file reads a hosted game's data: the map file (board.ParseMap with
// 1995's countries, sets and terrain), the counter list (ground and air
// units) and the combat chit manifest. The formats are documented in
// docs/scenario-pcs1995.md. The rule text prints none of them: the embedded
// demo files are stand-ins, built on every fact the text gives.

import (
	_ "embed"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/adjudicator/datafile"
	"github.com/umpire-pbem/umpire/adjudicator/kit"
)

//go:embed scenarios/demo-map.toml
var demoMap []byte

//go:embed scenarios/demo-counters.toml
var demoCounters []byte

//go:embed scenarios/demo-chits.toml
var demoChits []byte

// The countries of the map (5.0, 12.0): the areas a map file may name.
// Hexes without an area (neutral countries) are off the theatre.
const (
	Italy      = "Italy"
	slovenia   = "Slovenia"
	croatia    = "Croatia"
	bosnia     = "Bosnia"
	serbia     = "Serbia"
	montenegro = "Montenegro"
)

var countries = []string{Italy, slovenia, croatia, bosnia, serbia, montenegro}

// The terrains (9.1, 9.2); sea hexes are the Adriatic (3.7, 8.1).
const (
	clearTerrain    = "clear"
	mountainTerrain = "mountain"
	seaTerrain      = "sea"
)

// The named places the rules give (5.0, 3.7, 12.0): entry hexes by
// nationality group, the Russian set-up towns.
const (
	trieste = "1206"
	beograd = "3507"
)

// entryHexes are the eligible entry hexes the rules name (5.0), by group;
// Serbian units also enter at any city in Serbia.
var entryHexes = map[string][]string{
	"NATO":      {"1206", "1407", "1812", "2817"}, // non-Balkan NATO units
	"Croatian":  {"1407", "1812", "1904", "2805"},
	"Slovenian": {"1404", "1802"},
	"Russian":   {"3507"},
	"Serbian":   {"2509"},
}

// entryNames are the names the rules give the entry hexes (5.0).
var entryNames = map[string]string{
	"1206": "Trieste", "1407": "Rijeka", "1812": "Zadar", "2817": "Dubrovnik", "1904": "Zagreb",
	"2805": "Osijec", "1404": "Ljubljana", "1802": "Maribor", "3507": "Beograd", "2509": "Banja Luka",
}

// Nationalities of the counters, by side.
var (
	natoNationalities = []string{"American", "British", "Croatian", "Slovenian", "Bosnian", "German", "Canadian", "Italian", "French"}
	rsNationalities   = []string{"Serbian", "Russian"}
)

// Movement types (7.1): the colour of the printed MA.
const (
	foot      = "foot"
	mech      = "mech"
	motor     = "motor"
	airmobile = "airmobile" // MA printed "A": airmobile, or Foot with 6 MP (3.3.1)
)

// counter is one ground unit of the counter list: its printed values.
type counter struct {
	ID, Name    string
	Side        faction
	Nationality string
	Type        string // armor, mech, motorized, infantry, airmobile...
	Armor       bool   // the armor symbol (8.1.1)
	UQR         uqr
	MA          int    // printed MA; 6 for an airmobile unit moving on the ground (3.3.1)
	Movement    string // Foot, Mech, Motor or Airmobile
	Formation   string // such as 3VO
	Hex         board.ID
	// Reinforcement names the contingent the unit arrives with (5.1,
	// 5.2): German, Canadian, Italian, French or 3VO; "" starts on the map.
	Reinforcement string
}

// Airmobile reports whether the unit may use airmobile movement (3.3.1).
func (c *counter) Airmobile() bool { return c.Movement == airmobile }

// GroundType is the movement type the unit pays ground movement with.
func (c *counter) GroundType() string {
	if c.Movement == airmobile {
		return foot
	}
	return c.Movement
}

// Balkan reports whether a NATO unit is of a Balkan ally (5.0, 12.0).
func (c *counter) Balkan() bool {
	return c.Nationality == "Croatian" || c.Nationality == "Slovenian" || c.Nationality == "Bosnian"
}

// EntryGroup is the 5.0 list a unit enters by.
func (c *counter) EntryGroup() string {
	switch c.Nationality {
	case "Croatian", "Bosnian":
		return "Croatian"
	case "Slovenian", "Russian", "Serbian":
		return c.Nationality
	}
	return "NATO"
}

// airCounter is one air unit: F or G and its ER, front and back (3.3).
type airCounter struct {
	ID, Name      string
	Side          faction
	Nationality   string
	Type          string // "F" or "G"
	ER, Reduced   int
	Reinforcement string
}

// chit is one combat chit: the CS for each UQR letter on both sides (3.5).
type chit struct {
	ID          string
	Front, Back [4]int // A, B, C, D
}

// CS is the number a unit of the letter reads on a side (3.5).
func (c *chit) CS(back bool, letter string) int {
	i := strings.Index("ABCD", letter)
	if back {
		return c.Back[i]
	}
	return c.Front[i]
}

// scenario is a game's data: map, counters and chits, checked together.
type scenario struct {
	Map      *board.Map
	Counters []*counter
	Air      []*airCounter
	Chits    []*chit
	Notices  []string

	byID    map[string]*counter
	airByID map[string]*airCounter
	chitBy  map[string]*chit
	// derived map facts
	coast     map[board.ID]bool // land hexes next to the sea
	naval     map[board.ID]bool // land hexes within 2 of the coast (8.1)
	westEdge  map[board.ID]bool // NATO supply via Italy (3.7)
	ports     map[board.ID]bool // port cities on the Adriatic (3.7)
	rsSources []board.ID        // Beograd, Novi Sad, Nis (3.7)
	srpska    map[board.ID]int  // 1 or 2: the two territories (12.0)
	cities    []board.ID        // city and capital hexes, sorted
	named     map[string]board.ID
	initial   map[board.ID]faction // the side controlling each city at the start
	roadNbrs  map[board.ID][]board.ID
}

// Counter returns the ground unit with the id, nil if none.
func (sc *scenario) Counter(id string) *counter { return sc.byID[id] }

// AirCounter returns the air unit with the id, nil if none.
func (sc *scenario) AirCounter(id string) *airCounter { return sc.airByID[id] }

// Chit returns the chit with the id, nil if none.
func (sc *scenario) Chit(id string) *chit { return sc.chitBy[id] }

// data are the texts of a game's data files, kept in the state so that a
// game never depends on files that may change after it started; an empty
// text is the embedded demo file.
type data struct {
	MapName      string `json:"map_name"`
	Map          string `json:"map,omitempty"`
	CountersName string `json:"counters_name"`
	Counters     string `json:"counters,omitempty"`
	ChitsName    string `json:"chits_name"`
	Chits        string `json:"chits,omitempty"`
}

func (d data) texts() (m, c, t []byte) {
	m, c, t = []byte(d.Map), []byte(d.Counters), []byte(d.Chits)
	if d.Map == "" {
		m = demoMap
	}
	if d.Counters == "" {
		c = demoCounters
	}
	if d.Chits == "" {
		t = demoChits
	}
	return m, c, t
}

// scenarios caches parsed data by digest.
var scenarios datafile.Cache[*scenario]

// Load parses and checks a game's data (cached by content).
func (d data) Load() (*scenario, error) {
	m, c, t := d.texts()
	return scenarios.Load(datafile.Key(m, c, t), func() (*scenario, error) { return parseScenario(d, m, c, t) })
}

// readData reads the data files a game master gives in options map,
// counters and chits: a path on the judge's machine, or the file's text
// itself (anything with a line break: what a game created by mail must
// give); an empty value is the demo file. The files are checked at once: a
// wrong file is refused with its line and field.
func readData(mapOpt, countersOpt, chitsOpt string) (data, error) {
	d := data{MapName: "demo-map.toml", CountersName: "demo-counters.toml", ChitsName: "demo-chits.toml"}
	read := func(option, v string, name, text *string) error {
		if v == "" {
			return nil
		}
		if strings.Contains(v, "\n") {
			*name, *text = "option "+option, v
			return nil
		}
		b, err := os.ReadFile(v)
		if err != nil {
			return fmt.Errorf("pcs1995: option %s: cannot read %s: %w", option, v, err)
		}
		*name, *text = v, string(b)
		return nil
	}
	if err := read("map", mapOpt, &d.MapName, &d.Map); err != nil {
		return d, err
	}
	if err := read("counters", countersOpt, &d.CountersName, &d.Counters); err != nil {
		return d, err
	}
	if err := read("chits", chitsOpt, &d.ChitsName, &d.Chits); err != nil {
		return d, err
	}
	_, err := d.Load()
	return d, err
}

// fileErr wraps a *datafile.FileError with the file kind.
func fileErr(kind string, fe *datafile.FileError) error {
	return fmt.Errorf("pcs1995: %s: %w", kind, fe)
}

func parseScenario(d data, mapText, countersText, chitsText []byte) (*scenario, error) {
	sc := &scenario{byID: map[string]*counter{}, airByID: map[string]*airCounter{}, chitBy: map[string]*chit{}}
	if err := sc.readMap(d.MapName, mapText); err != nil {
		return nil, err
	}
	// the demo counters checked against a game master's map: a set-up hex
	// they need that the map makes sea or leaves off is the map's mistake,
	// named in the map file
	var demoFor *mapFileText
	if d.Counters == "" && d.Map != "" {
		demoFor = &mapFileText{name: d.MapName, text: mapText}
	}
	standIn, err := sc.readCounters(d.CountersName, countersText, demoFor)
	if err != nil {
		return nil, err
	}
	chitsStandIn, err := sc.readChits(d.ChitsName, chitsText)
	if err != nil {
		return nil, err
	}
	for _, n := range []struct {
		on   bool
		text string
	}{{sc.Map.StandIn, sc.Map.Notice}, {standIn != "", standIn}, {chitsStandIn != "", chitsStandIn}} {
		if n.on {
			sc.Notices = append(sc.Notices, n.text)
		}
	}
	return sc, nil
}

func (sc *scenario) readMap(name string, text []byte) error {
	m, err := board.ParseMap(name, text)
	if err != nil {
		if fe, ok := err.(*datafile.FileError); ok {
			return fileErr("map", fe)
		}
		return fmt.Errorf("pcs1995: map: %w", err)
	}
	sc.Map = m
	wrong := func(table string, index int, key, field, format string, args ...any) error {
		return fileErr("map", &datafile.FileError{File: name, Line: datafile.FieldLine(text, table, index, key), Field: field, Err: fmt.Sprintf(format, args...)})
	}
	if m.Grid.IDStyle != board.FourDigit {
		return wrong("grid", -1, "ids", "grid.ids", "1995 hexes have four-digit ids, such as 3507 (5.0)")
	}
	for i, id := range m.Grid.All() {
		_ = i
		if t := m.Terrain[id]; t != clearTerrain && t != mountainTerrain && t != seaTerrain {
			return wrong("terrain", terrainIndex(text, t), "kind", "terrain.kind", "%q: want clear, mountain or sea (9.1, 9.2; the TEC has no other terrain)", t)
		}
		if a := m.Area[id]; a != "" && !slices.Contains(countries, a) {
			return wrong("area", areaIndex(text, a), "name", "area.name", "unknown country %q: the countries are %s", a, strings.Join(countries, ", "))
		}
	}
	for _, p := range slices.SortedFunc(maps.Keys(m.Rivers), comparePairs) {
		if m.Ridges[p] {
			i := sideEntry(text, m.Grid, p)
			return wrong("hexsides", i, "sides", fmt.Sprintf("hexsides[%d].sides", i), "%s is both a river and a ridge hexside: give one (9.5, 9.6)", p)
		}
	}
	places := slices.Collect(maps.Keys(m.Places))
	board.SortIDs(places)
	for _, id := range places {
		if pl := m.Places[id]; pl.Kind != "city" && pl.Kind != "capital" {
			return wrong("place", placeIndex(text, m.Grid.Format(id)), "kind", "place.kind", "%q at %s: want city or capital (9.3, 9.4)", pl.Kind, m.Grid.Format(id))
		}
	}
	sc.named = map[string]board.ID{}
	for _, id := range places {
		if _, dup := sc.named[m.Places[id].Name]; !dup {
			sc.named[m.Places[id].Name] = id
		}
		sc.cities = append(sc.cities, id)
	}
	// the hexes the rules name must be cities of the map
	for _, hex := range slices.Sorted(maps.Keys(entryNames)) {
		pname := entryNames[hex]
		id, err := m.Grid.Parse(hex)
		if err != nil {
			return wrong("grid", -1, "last", "grid.last", "hex %s (%s), an entry hex of 5.0, is off the map", hex, pname)
		}
		if _, ok := m.Places[id]; !ok {
			return wrong("place", -1, "", "place", "no city at %s: 5.0 names %s %s an entry hex; give it a [[place]]", hex, pname, hex)
		}
		if m.Terrain[id] == seaTerrain {
			i := hexEntry(text, m.Grid, "terrain", id, func(e map[string]any) bool { return e["kind"] == seaTerrain })
			return wrong("terrain", i, "hexes", fmt.Sprintf("terrain[%d].hexes", i), "%s (%s) is sea: 5.0 makes it an entry hex, a land hex in a country", hex, pname)
		}
		if m.Area[id] == "" {
			line, field := areaLine(text, m, id)
			return fileErr("map", &datafile.FileError{File: name, Line: line, Field: field, Err: fmt.Sprintf("%s (%s) is in no country's [[area]]: 5.0 makes it an entry hex, a land hex in a country", hex, pname)})
		}
	}
	for _, pname := range []string{"Pristina", "Vranje", "Novi Sad", "Nis"} {
		id, ok := sc.named[pname]
		if !ok {
			return wrong("place", -1, "", "place", "no place named %q: the rules name it (3.7, 12.0)", pname)
		}
		if m.Area[id] != serbia {
			return wrong("place", placeIndex(text, m.Grid.Format(id)), "hex", "place.hex", "%s must be inside Serbia (3.7, 12.0)", pname)
		}
	}
	if t := mustID(m, trieste); m.Area[t] != Italy {
		line, field := areaLine(text, m, t)
		in := "no country"
		if m.Area[t] != "" {
			in = m.Area[t]
		}
		return fileErr("map", &datafile.FileError{File: name, Line: line, Field: field, Err: fmt.Sprintf("Trieste (1206) must be in Italy (5.1.2), not in %s", in)})
	}
	for _, req := range []string{"west_edge", "port", "rs_supply", "srpska_1", "srpska_2"} {
		if _, ok := m.HexSets[req]; !ok {
			return wrong("sets", -1, "", "sets."+req, "missing: %s", setHelp[req])
		}
	}
	sc.westEdge, sc.ports = map[board.ID]bool{}, map[board.ID]bool{}
	for _, id := range m.HexSets["west_edge"] {
		if m.Area[id] != Italy {
			return wrong("sets", -1, "west_edge", "sets.west_edge", "%s is not in Italy (3.7: the west edge of the map via Italy)", m.Grid.Format(id))
		}
		sc.westEdge[id] = true
	}
	for _, id := range m.HexSets["port"] {
		if _, ok := m.Places[id]; !ok {
			return wrong("sets", -1, "port", "sets.port", "%s is not a city (3.7: port city hexes)", m.Grid.Format(id))
		}
		sc.ports[id] = true
	}
	sc.rsSources = m.HexSets["rs_supply"]
	for _, want := range []string{"Beograd", "Novi Sad", "Nis"} {
		id := sc.named[want]
		if want == "Beograd" {
			id = mustID(m, beograd)
		}
		if !slices.Contains(sc.rsSources, id) {
			return wrong("sets", -1, "rs_supply", "sets.rs_supply", "must list %s (%s): 3.7 names Belgrade, Novi Sad and Nis", want, m.Grid.Format(id))
		}
	}
	sc.srpska = map[board.ID]int{}
	for i, k := range []string{"srpska_1", "srpska_2"} {
		for _, id := range m.HexSets[k] {
			if m.Area[id] != bosnia {
				return wrong("sets", -1, k, "sets."+k, "%s is not in Bosnia: the Republic of Srpska's territories are (12.0)", m.Grid.Format(id))
			}
			sc.srpska[id] = i + 1
		}
	}
	sc.initial = map[board.ID]faction{}
	for _, id := range sc.cities {
		sc.initial[id] = sc.homeSide(id)
	}
	for _, k := range []string{"control_nato", "control_rs"} {
		for _, id := range m.HexSets[k] {
			if _, ok := m.Places[id]; !ok {
				return wrong("sets", -1, k, "sets."+k, "%s is not a city: initial control is kept for cities", m.Grid.Format(id))
			}
			sc.initial[id] = map[string]faction{"control_nato": NATO, "control_rs": RS}[k]
		}
	}
	sc.coast, sc.naval, sc.roadNbrs = map[board.ID]bool{}, map[board.ID]bool{}, map[board.ID][]board.ID{}
	for _, id := range m.Grid.All() {
		if !sc.Land(id) {
			continue
		}
		for _, nb := range m.Grid.Neighbours(id) {
			if m.Terrain[nb] == seaTerrain {
				sc.coast[id] = true
			}
			if m.Link(id, nb) != "" {
				sc.roadNbrs[id] = append(sc.roadNbrs[id], nb)
			}
		}
	}
	for _, id := range m.Grid.All() {
		if !sc.Land(id) {
			continue
		}
		for c := range sc.coast {
			if m.Grid.Distance(id, c) <= 2 {
				sc.naval[id] = true
				break
			}
		}
	}
	return nil
}

var setHelp = map[string]string{
	"west_edge": "the Italian west map edge hexes, a NATO supply source (3.7)",
	"port":      "the port city hexes on the Adriatic, NATO supply sources (3.7)",
	"rs_supply": "the Russian/Serbian supply sources Beograd, Novi Sad and Nis (3.7)",
	"srpska_1":  "the hexes of the Republic of Srpska's first territory (12.0)",
	"srpska_2":  "the hexes of the Republic of Srpska's second territory (12.0)",
}

func mustID(m *board.Map, s string) board.ID {
	id, _ := m.Grid.Parse(s)
	return id
}

func comparePairs(a, b board.Pair) int {
	if a.A != b.A {
		return cmpID(a.A, b.A)
	}
	return cmpID(a.B, b.B)
}

// Land reports whether units may stand in the hex: a land hex in one of
// the countries.
func (sc *scenario) Land(id board.ID) bool {
	return sc.Map.Grid.Contains(id) && sc.Map.Terrain[id] != seaTerrain && sc.Map.Area[id] != ""
}

// homeSide is whose home territory a hex is (12.0, 7.2): Serbia,
// Montenegro and the Srpska territories are Russia/Serbia's; the rest is
// NATO's and its allies'.
func (sc *scenario) homeSide(id board.ID) faction {
	switch a := sc.Map.Area[id]; {
	case a == serbia || a == montenegro || sc.srpska[id] > 0:
		return RS
	case a == "":
		return ""
	}
	return NATO
}

// demoHexErr is the refusal of a game master's map on which a demo
// counter's set-up hex is off the map, sea or in no country (12.0): it
// names the map file and the line that makes the hex so.
func (sc *scenario) demoHexErr(mf *mapFileText, unit, hex string, id board.ID) error {
	m := sc.Map
	what := fmt.Sprintf("hex %s, where the demo counters set up %s (12.0)", hex, unit)
	fix := "give the map the demo's countries and coast, or give the counters option with set-up hexes of this map"
	fe := &datafile.FileError{File: mf.name}
	switch {
	case !m.Grid.Contains(id):
		fe.Line, fe.Field = datafile.FieldLine(mf.text, "grid", -1, "last"), "grid.last"
		fe.Err = fmt.Sprintf("%s, is off the map: %s", what, fix)
	case m.Terrain[id] == seaTerrain:
		i := hexEntry(mf.text, m.Grid, "terrain", id, func(e map[string]any) bool { return e["kind"] == seaTerrain })
		fe.Line, fe.Field = datafile.FieldLine(mf.text, "terrain", i, "hexes"), fmt.Sprintf("terrain[%d].hexes", i)
		fe.Err = fmt.Sprintf("%s, is sea: %s", what, fix)
	default:
		fe.Line, fe.Field = areaLine(mf.text, m, id)
		fe.Err = fmt.Sprintf("%s, is in no country's [[area]]: %s", what, fix)
	}
	return fileErr("map", fe)
}

// areaLine names where a map file should put a hex that is in no area or
// in the wrong one: the [[area]] entry that holds it, else the [[place]]
// at the hex, else the [[area]] table.
func areaLine(text []byte, m *board.Map, id board.ID) (int, string) {
	if i := hexEntry(text, m.Grid, "area", id, nil); i >= 0 {
		return datafile.FieldLine(text, "area", i, "hexes"), fmt.Sprintf("area[%d].hexes", i)
	}
	if i := placeIndex(text, m.Grid.Format(id)); i >= 0 {
		return datafile.FieldLine(text, "place", i, "hex"), fmt.Sprintf("place[%d].hex", i)
	}
	return datafile.FieldLine(text, "area", 0, "name"), "area"
}

// hexEntry is the index of the last [[table]] entry (that keep accepts)
// whose hexes hold id: the entry that decides the hex, since later entries
// override earlier ones; -1 if none.
func hexEntry(text []byte, grid board.Grid, table string, id board.ID, keep func(map[string]any) bool) int {
	var f map[string]any
	if _, err := datafile.DecodeLoose("", text, &f); err != nil {
		return -1
	}
	list, _ := f[table].([]map[string]any)
	found := -1
	for i, e := range list {
		if keep != nil && !keep(e) {
			continue
		}
		hexes, _ := e["hexes"].([]any)
		for _, h := range hexes {
			if s, ok := h.(string); ok && inRange(grid, s, id) {
				found = i
			}
		}
	}
	return found
}

// inRange reports whether a map file's hex or range ("1001..1219", the
// rectangle between them) holds id.
func inRange(grid board.Grid, s string, id board.ID) bool {
	lo, hi, isRange := strings.Cut(s, "..")
	a, err := grid.Parse(lo)
	if err != nil {
		return false
	}
	if !isRange {
		return a == id
	}
	b, err := grid.Parse(hi)
	return err == nil && a.Col <= id.Col && id.Col <= b.Col && a.Row <= id.Row && id.Row <= b.Row
}

// sideEntry is the index of the last [[hexsides]] entry that lists the
// hexside p, -1 if none.
func sideEntry(text []byte, grid board.Grid, p board.Pair) int {
	var f map[string]any
	if _, err := datafile.DecodeLoose("", text, &f); err != nil {
		return -1
	}
	list, _ := f["hexsides"].([]map[string]any)
	found := -1
	for i, e := range list {
		sides, _ := e["sides"].([]any)
		for _, x := range sides {
			if s, ok := x.(string); ok {
				if q, err := grid.ParsePair(s); err == nil && q == p {
					found = i
				}
			}
		}
	}
	return found
}

func terrainIndex(text []byte, kind string) int { return tableIndex(text, "terrain", "kind", kind) }
func areaIndex(text []byte, name string) int    { return tableIndex(text, "area", "name", name) }
func placeIndex(text []byte, hex string) int    { return tableIndex(text, "place", "hex", hex) }

// tableIndex is the index of the [[table]] entry whose key is value, -1 if
// none: it names the line of a wrong value.
func tableIndex(text []byte, table, key, value string) int {
	var f map[string]any
	if _, err := datafile.DecodeLoose("", text, &f); err != nil {
		return -1
	}
	list, _ := f[table].([]map[string]any)
	for i, e := range list {
		if fmt.Sprint(e[key]) == value {
			return i
		}
	}
	return -1
}

type countersFile struct {
	StandIn bool          `toml:"stand_in"`
	Notice  string        `toml:"notice"`
	Unit    []counterFile `toml:"unit"`
	Air     []airFile     `toml:"air"`
}

type counterFile struct {
	ID            string `toml:"id"`
	Name          string `toml:"name"`
	Side          string `toml:"side"`
	Nationality   string `toml:"nationality"`
	Type          string `toml:"type"`
	UQR           string `toml:"uqr"`
	MA            any    `toml:"ma"`
	Movement      string `toml:"movement"`
	Formation     string `toml:"formation"`
	Hex           string `toml:"hex"`
	Reinforcement string `toml:"reinforcement"`
}

type airFile struct {
	ID            string `toml:"id"`
	Name          string `toml:"name"`
	Side          string `toml:"side"`
	Nationality   string `toml:"nationality"`
	Type          string `toml:"type"`
	ER            int    `toml:"er"`
	Reduced       int    `toml:"reduced"`
	Reinforcement string `toml:"reinforcement"`
}

var unitTypes = []string{"armor", "mech", "motorized", "infantry", "airmobile", "partisan"}

func parseSide(s string) (faction, bool) {
	switch strings.ToUpper(s) {
	case "NATO":
		return NATO, true
	case "RS":
		return RS, true
	}
	return "", false
}

func validID(id string) bool {
	return id != "" && !strings.ContainsAny(id, " \t+/#,:") && strings.ToUpper(id) == id && len(id) <= 24
}

// mapFileText is a game master's map file, named as it was given.
type mapFileText struct {
	name string
	text []byte
}

func (sc *scenario) readCounters(name string, data []byte, demoFor *mapFileText) (string, error) {
	var f countersFile
	if err := (kit.File{Name: name, Data: data}).Decode(&f); err != nil {
		return "", fmt.Errorf("pcs1995: counters: %w", err)
	}
	if len(f.Unit) == 0 {
		return "", fileErr("counters", &datafile.FileError{File: name, Field: "unit", Err: "no [[unit]] entries"})
	}
	seen := map[string]bool{}
	for i, u := range f.Unit {
		wrong := func(key, format string, args ...any) error {
			return fileErr("counters", &datafile.FileError{File: name, Line: datafile.FieldLine(data, "unit", i, key),
				Field: fmt.Sprintf("unit[%d].%s", i, key), Err: fmt.Sprintf(format, args...)})
		}
		c := &counter{ID: u.ID, Name: u.Name, Nationality: u.Nationality, Type: u.Type, Formation: u.Formation, Reinforcement: u.Reinforcement}
		if !validID(c.ID) {
			return "", wrong("id", "%q: want an upper-case id of up to 24 characters without spaces, + / # : or commas, such as US-1AD", u.ID)
		}
		if seen[c.ID] {
			return "", wrong("id", "%s is listed twice", c.ID)
		}
		seen[c.ID] = true
		var ok bool
		if c.Side, ok = parseSide(u.Side); !ok {
			return "", wrong("side", "%q: want NATO or RS", u.Side)
		}
		nats := natoNationalities
		if c.Side == RS {
			nats = rsNationalities
		}
		if !slices.Contains(nats, c.Nationality) {
			return "", wrong("nationality", "%q: want one of %s for %s (5.0, 5.3.1)", u.Nationality, strings.Join(nats, ", "), c.Side)
		}
		if !slices.Contains(unitTypes, c.Type) {
			return "", wrong("type", "%q: want %s (3.1; armor matters for bracketed UQR, 8.1.1)", u.Type, strings.Join(unitTypes, ", "))
		}
		c.Armor = c.Type == "armor"
		var err error
		if c.UQR, err = parseUQR(u.UQR); err != nil || u.UQR == "" {
			return "", wrong("uqr", "%q: want A, B, C or D, or bracketed like [B] (3.1, 8.1.1)", u.UQR)
		}
		switch v := u.MA.(type) {
		case string:
			if v != "A" {
				return "", wrong("ma", "%q: want a number of MP, or \"A\" for an airmobile unit (3.3.1)", v)
			}
			c.Movement, c.MA = airmobile, 6
			if u.Movement != "" && u.Movement != airmobile {
				return "", wrong("movement", "%q: an MA of \"A\" is airmobile (3.3.1): leave movement out", u.Movement)
			}
		case int64:
			if v < 1 || v > 30 {
				return "", wrong("ma", "%d: want 1 to 30 MP", v)
			}
			c.MA = int(v)
			if !slices.Contains([]string{foot, mech, motor}, u.Movement) {
				return "", wrong("movement", "%q: want foot, mech or motor, the colour of the MA (7.1)", u.Movement)
			}
			c.Movement = u.Movement
		default:
			return "", wrong("ma", "missing: the MA in MP, or \"A\" for an airmobile unit (3.1, 3.3.1)")
		}
		if c.Type == "airmobile" && c.Movement != airmobile {
			return "", wrong("ma", "an airmobile unit has the MA \"A\" (3.3.1)")
		}
		switch r := c.Reinforcement; {
		case r == "":
		case slices.Contains(natoContingents, r):
			if c.Side != NATO || c.Nationality != r {
				return "", wrong("reinforcement", "%q: a NATO contingent's units are of its nationality (5.1)", r)
			}
		case r == "3VO":
			if c.Nationality != "Serbian" {
				return "", wrong("reinforcement", "the 3 VO reinforcements are Serbian (5.2)")
			}
		default:
			return "", wrong("reinforcement", "%q: want German, Canadian, Italian or French (5.1.1) or 3VO (5.2)", r)
		}
		if c.Reinforcement == "" && slices.Contains(natoContingents, c.Nationality) {
			return "", wrong("reinforcement", "%s units arrive as reinforcements (5.1: only American, British, Croatian and Slovenian units start on the map): give reinforcement = %q", c.Nationality, c.Nationality)
		}
		if c.Formation == "3VO" && c.Reinforcement != "3VO" {
			return "", wrong("reinforcement", "3 VO units are the Russian/Serbian reinforcements (5.2, 12.0): give reinforcement = \"3VO\"")
		}
		if u.Hex != "" {
			id, err := sc.Map.Grid.Parse(u.Hex)
			if err == nil && !sc.Land(id) {
				err = fmt.Errorf("%s is not a land hex of a country", u.Hex)
			}
			if err != nil && demoFor != nil {
				return "", sc.demoHexErr(demoFor, c.ID, u.Hex, id)
			}
			if err != nil {
				return "", wrong("hex", "%v", err)
			}
			c.Hex = id
		} else if c.Reinforcement == "" {
			return "", wrong("hex", "missing: a unit that starts on the map needs its set-up hex (12.0)")
		}
		sc.byID[c.ID] = c
		sc.Counters = append(sc.Counters, c)
	}
	for i, a := range f.Air {
		wrong := func(key, format string, args ...any) error {
			return fileErr("counters", &datafile.FileError{File: name, Line: datafile.FieldLine(data, "air", i, key),
				Field: fmt.Sprintf("air[%d].%s", i, key), Err: fmt.Sprintf(format, args...)})
		}
		c := &airCounter{ID: a.ID, Name: a.Name, Nationality: a.Nationality, Type: a.Type, ER: a.ER, Reduced: a.Reduced, Reinforcement: a.Reinforcement}
		if !validID(c.ID) {
			return "", wrong("id", "%q: want an upper-case id without spaces, such as US-F15", a.ID)
		}
		if seen[c.ID] {
			return "", wrong("id", "%s is listed twice (ground and air ids share one list)", c.ID)
		}
		seen[c.ID] = true
		var ok bool
		if c.Side, ok = parseSide(a.Side); !ok {
			return "", wrong("side", "%q: want NATO or RS", a.Side)
		}
		nats := natoNationalities
		if c.Side == RS {
			nats = rsNationalities
		}
		if !slices.Contains(nats, c.Nationality) {
			return "", wrong("nationality", "%q: want one of %s", a.Nationality, strings.Join(nats, ", "))
		}
		if c.Type != "F" && c.Type != "G" {
			return "", wrong("type", "%q: want F (fighter) or G (ground support) (3.3)", a.Type)
		}
		if c.ER < 1 || c.ER > 8 {
			return "", wrong("er", "%d: want an ER of 1 to 8 (3.3: an EC is a d8 at or under the ER)", c.ER)
		}
		if c.Reduced < 0 || c.Reduced > c.ER {
			return "", wrong("reduced", "%d: want the damaged side's ER, 0 to the ER %d (6.4.1)", c.Reduced, c.ER)
		}
		if r := c.Reinforcement; r != "" && (c.Side != NATO || !slices.Contains(natoContingents, r)) {
			return "", wrong("reinforcement", "%q: only NATO air units are reinforcements, with a contingent: German, Canadian, Italian or French (12.0)", r)
		}
		sc.airByID[c.ID] = c
		sc.Air = append(sc.Air, c)
	}
	slices.SortFunc(sc.Counters, func(a, b *counter) int { return strings.Compare(a.ID, b.ID) })
	slices.SortFunc(sc.Air, func(a, b *airCounter) int { return strings.Compare(a.ID, b.ID) })
	if f.StandIn {
		if f.Notice == "" {
			f.Notice = "stand-in counters: invented values, not the published counter sheet"
		}
		return f.Notice, nil
	}
	return "", nil
}

type chitsFile struct {
	StandIn bool       `toml:"stand_in"`
	Notice  string     `toml:"notice"`
	Chit    []chitFile `toml:"chit"`
}

type chitFile struct {
	ID    string         `toml:"id"`
	Front map[string]int `toml:"front"`
	Back  map[string]int `toml:"back"`
}

func (sc *scenario) readChits(name string, data []byte) (string, error) {
	var f chitsFile
	if err := (kit.File{Name: name, Data: data}).Decode(&f); err != nil {
		return "", fmt.Errorf("pcs1995: chits: %w", err)
	}
	if len(f.Chit) < 2 {
		return "", fileErr("chits", &datafile.FileError{File: name, Field: "chit", Err: "want at least two [[chit]] entries: each combat draws two (3.5)"})
	}
	for i, c := range f.Chit {
		wrong := func(key, format string, args ...any) error {
			return fileErr("chits", &datafile.FileError{File: name, Line: datafile.FieldLine(data, "chit", i, key),
				Field: fmt.Sprintf("chit[%d].%s", i, key), Err: fmt.Sprintf(format, args...)})
		}
		ch := &chit{ID: c.ID}
		if c.ID == "" || strings.ContainsAny(c.ID, " \t,#/") || len(c.ID) > 8 {
			return "", wrong("id", "%q: want a short id without spaces, such as 07", c.ID)
		}
		if sc.chitBy[c.ID] != nil {
			return "", wrong("id", "chit %s is listed twice", c.ID)
		}
		for _, side := range []struct {
			key  string
			vals map[string]int
			out  *[4]int
		}{{"front", c.Front, &ch.Front}, {"back", c.Back, &ch.Back}} {
			if len(side.vals) == 0 {
				return "", wrong(side.key, "missing: give the CS next to each letter, like { A = 7, B = 6, C = 5, D = 3 } (3.5)")
			}
			for k, v := range side.vals {
				i := strings.Index("ABCD", k)
				if i < 0 || len(k) != 1 {
					return "", wrong(side.key, "%q: the letters are A, B, C and D (3.5)", k)
				}
				if v < 0 || v > 20 {
					return "", wrong(side.key, "%s = %d: want a CS of 0 to 20", k, v)
				}
				side.out[i] = v
			}
			for _, l := range "ABCD" {
				if _, ok := side.vals[string(l)]; !ok {
					return "", wrong(side.key, "letter %c is missing: each side gives A, B, C and D (3.5)", l)
				}
			}
		}
		sc.chitBy[ch.ID] = ch
		sc.Chits = append(sc.Chits, ch)
	}
	slices.SortFunc(sc.Chits, func(a, b *chit) int { return strings.Compare(a.ID, b.ID) })
	if f.StandIn {
		if f.Notice == "" {
			f.Notice = "stand-in chit mix: invented values, not the published chits"
		}
		return f.Notice, nil
	}
	return "", nil
}
