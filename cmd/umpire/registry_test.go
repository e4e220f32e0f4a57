package main

import (
	"bytes"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// repoRoot is the repository's root, seen from this package's tests.
const repoRoot = "../.."

// modulePath is the module's path, from go.mod.
func modulePath(tb testing.TB) string {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, "go.mod"))
	if err != nil {
		tb.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^module\s+(\S+)`).FindSubmatch(b)
	if m == nil {
		tb.Fatal("go.mod names no module")
	}
	return string(m[1])
}

// gameDir is the folder of the package that defines rules, from the
// repository's root ("adjudicator/games/wbt").
func gameDir(tb testing.TB, rules adjudicator.Rules) string {
	tb.Helper()
	t := reflect.TypeOf(rules)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return strings.TrimPrefix(strings.TrimPrefix(t.PkgPath(), modulePath(tb)), "/")
}

// fullGame is a game's testdata/fullgame.toml: the game the
// full-game-by-mail test plays to its end.
type fullGame struct {
	Scenario string            `toml:"scenario"`
	MinSteps int               `toml:"min_steps"`
	Options  map[string]string `toml:"options"`
	// MaxMails, when set, bounds the order mails a seat sends in one game
	// turn (a game whose design aims at few exchanges a turn).
	MaxMails int `toml:"max_order_mails_per_turn"`
}

func readFullGame(root, dir string) (fullGame, error) {
	var fg fullGame
	path := filepath.Join(root, dir, "testdata", "fullgame.toml")
	md, err := toml.DecodeFile(path, &fg)
	if err != nil {
		return fg, err
	}
	if un := md.Undecoded(); len(un) > 0 {
		return fg, fmt.Errorf("%s: unknown key %s (scenario, min_steps, max_order_mails_per_turn, [options])", path, un[0])
	}
	if fg.Scenario == "" || fg.MinSteps < 1 {
		return fg, fmt.Errorf("%s: want scenario = \"NAME\" and min_steps = N (at least 1)", path)
	}
	return fg, nil
}

// gameCheck is one item of docs/adding-a-game.md's checklist: check says
// what is missing for the game in folder dir (from the repository's root
// root), in words that name the file to write; "" when nothing is.
type gameCheck struct {
	name  string
	check func(root, dir string, rules adjudicator.Rules) string
}

// testSources is the text of the game's _test.go files.
func testSources(root, dir string) string {
	files, _ := filepath.Glob(filepath.Join(root, dir, "*_test.go"))
	var b bytes.Buffer
	for _, f := range files {
		src, _ := os.ReadFile(f)
		b.Write(src)
	}
	return b.String()
}

var gameChecks = []gameCheck{
	{"folder", func(root, dir string, rules adjudicator.Rules) string {
		if want := "adjudicator/games/" + rules.ID(); dir != want {
			return fmt.Sprintf("the game's id is %q but its package is %s: the package is the folder %s, named after the id",
				rules.ID(), dir, want)
		}
		return ""
	}},
	{"cases", func(root, dir string, rules adjudicator.Rules) string {
		files, _ := filepath.Glob(filepath.Join(root, dir, "testdata", "game", "*.case"))
		n := 0
		for _, f := range files {
			src, _ := os.ReadFile(f)
			n += len(regexp.MustCompile(`(?m)^case `).FindAll(src, -1))
		}
		switch {
		case n == 0:
			return fmt.Sprintf("no adjudication cases: write them in %s/testdata/game/*.case (docs/rules-cases.md), "+
				"the rulebook's examples first, each citing its rule", dir)
		case !strings.Contains(testSources(root, dir), "rulestest.Run("):
			return fmt.Sprintf("%d cases in %s/testdata/game, but no test runs them: add TestGameCases calling "+
				"rulestest.Run to %s/gamecases_test.go", n, dir, dir)
		}
		return ""
	}},
	{"bot", func(root, dir string, rules adjudicator.Rules) string {
		if _, ok := rules.(adjudicator.Bot); !ok {
			return fmt.Sprintf("no bot: the game's Rules value must implement adjudicator.Bot "+
				"(Bot(state, seat) returns legal order lines), in %s/bot.go", dir)
		}
		return ""
	}},
	{"report", func(root, dir string, rules adjudicator.Rules) string {
		if _, ok := rules.(adjudicator.Reporter); !ok {
			return fmt.Sprintf("no report: the game's Rules value must implement adjudicator.Reporter "+
				"(Situation(state, seat): tracks, units, hand and the map picture each seat may see), in %s/report.go", dir)
		}
		return ""
	}},
	{"grammar", func(root, dir string, rules adjudicator.Rules) string {
		if _, ok := rules.(adjudicator.Grammar); !ok {
			return fmt.Sprintf("no order table: the game's Rules value must implement adjudicator.Grammar "+
				"(Verbs(): every order's form, phases, rules and example, which its parser looks verbs up in and "+
				"help GAME mails), in %s/orders.go", dir)
		}
		if src := testSources(root, dir); !strings.Contains(src, "rulestest.Examples(") || !strings.Contains(src, "rulestest.OrdersDocumented(") {
			return fmt.Sprintf("the order table is not tested: call rulestest.Examples (every example parses in a step "+
				"of its phase) and rulestest.OrdersDocumented (docs/orders-%s.md against the table) in %s/gamecases_test.go", rules.ID(), dir)
		}
		return ""
	}},
	{"full game", func(root, dir string, rules adjudicator.Rules) string {
		if _, err := readFullGame(root, dir); err != nil {
			return fmt.Sprintf("no full game by mail: write %s/testdata/fullgame.toml (scenario, min_steps, [options]): %v", dir, err)
		}
		return ""
	}},
	{"scenario", func(root, dir string, rules adjudicator.Rules) string {
		fg, err := readFullGame(root, dir)
		if err != nil {
			return fmt.Sprintf("no scenario to check: %s/testdata/fullgame.toml names it", dir)
		}
		seats, err := rules.Seats(fg.Scenario)
		if err != nil || len(seats) < 2 {
			return fmt.Sprintf("scenario %q (named in %s/testdata/fullgame.toml) must have two seats or more: Seats gives %v, %v",
				fg.Scenario, dir, seats, err)
		}
		if _, err := rules.New(fg.Scenario, fg.Options); err != nil {
			return fmt.Sprintf("scenario %q with options %v (named in %s/testdata/fullgame.toml) does not start: %v",
				fg.Scenario, fg.Options, dir, err)
		}
		return ""
	}},
	{"benchmark", func(root, dir string, rules adjudicator.Rules) string {
		if !strings.Contains(testSources(root, dir), "func Benchmark") {
			return fmt.Sprintf("no benchmark: add a Benchmark of a busy step's Adjudicate to %s/bench_test.go", dir)
		}
		return ""
	}},
	{"docs", func(root, dir string, rules adjudicator.Rules) string {
		var missing []string
		for _, doc := range []string{"docs/orders-" + rules.ID() + ".md", "docs/scenario-" + rules.ID() + ".md"} {
			if _, err := os.Stat(filepath.Join(root, doc)); err != nil {
				missing = append(missing, doc)
			}
		}
		if len(missing) > 0 {
			return fmt.Sprintf("no players' docs: write %s (orders: every order with an example; "+
				"scenario: scenarios, options, data files and their stand-ins)", strings.Join(missing, " and "))
		}
		return ""
	}},
	{"registry", func(root, dir string, rules adjudicator.Rules) string {
		importers, err := importersOf(root, dir)
		if err != nil {
			return err.Error()
		}
		if len(importers) > 0 {
			return fmt.Sprintf("%s import the game's package: only cmd/umpire/registry.go may; what they need belongs "+
				"in %s behind adjudicator.Rules or one of its optional interfaces", strings.Join(importers, ", "), dir)
		}
		return ""
	}},
}

// importersOf lists the Go files outside dir, other than tests and the
// registry, that import the package in dir.
func importersOf(root, dir string) ([]string, error) {
	var out []string
	pkg := "/" + dir + `"`
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if name := d.Name(); rel != "." && (strings.HasPrefix(name, ".") || name == "testdata" || rel == dir) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") || rel == "cmd/umpire/registry.go" {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
		for _, im := range f.Imports {
			if strings.HasSuffix(im.Path.Value, pkg) {
				out = append(out, rel)
			}
		}
		return nil
	})
	return out, err
}

// missingFor runs the checklist for the game in dir.
func missingFor(root, dir string, rules adjudicator.Rules) []string {
	var missing []string
	for _, c := range gameChecks {
		if m := c.check(root, dir, rules); m != "" {
			missing = append(missing, c.name+": "+m)
		}
	}
	return missing
}

// TestEveryGameIsComplete guards docs/adding-a-game.md: every game the
// judge hosts has its own folder, adjudication cases that a test runs, a
// bot, a report, an order table its tests check, a scenario played to its end by the
// full-game-by-mail test, a benchmark and its players' docs, and no code
// but the registry line reaches into its package.
func TestEveryGameIsComplete(t *testing.T) {
	reg := games()
	for _, id := range slices.Sorted(maps.Keys(reg)) {
		rules := reg[id]
		dir := gameDir(t, rules)
		if missing := missingFor(repoRoot, dir, rules); len(missing) > 0 {
			t.Errorf("game %q (%s) is registered in cmd/umpire/registry.go but is not complete; "+
				"docs/adding-a-game.md says how to do each:\n  - %s", id, dir, strings.Join(missing, "\n  - "))
		}
	}
}

// bare is a game with nothing but adjudicator.Rules.
type bare struct{}

func (bare) ID() string                     { return "bare" }
func (bare) Title() string                  { return "Bare" }
func (bare) Seats(string) ([]string, error) { return []string{"X", "Y"}, nil }
func (bare) New(string, map[string]string) ([]byte, error) {
	return []byte("{}"), nil
}
func (bare) Step([]byte) (adjudicator.StepSpec, error) { return adjudicator.StepSpec{Over: true}, nil }
func (bare) ParseOrders([]byte, string, []adjudicator.OrderLine) ([]string, []adjudicator.Problem) {
	return nil, nil
}
func (bare) Adjudicate(s []byte, _ map[string][]string, _ dice.Roller) ([]byte, []adjudicator.Event, error) {
	return s, nil, nil
}

// TestChecklistSaysWhatIsMissing: a game registered with nothing but its
// Rules is refused, and the refusal names every file still to write, so a
// newcomer knows exactly where to go on.
func TestChecklistSaysWhatIsMissing(t *testing.T) {
	root := t.TempDir()
	dir := "adjudicator/games/bare"
	os.MkdirAll(filepath.Join(root, dir), 0o755)
	os.MkdirAll(filepath.Join(root, "cmd", "umpire"), 0o755)
	// some other file reaches into the package
	os.WriteFile(filepath.Join(root, "cmd", "umpire", "serve.go"),
		[]byte("package main\n\nimport _ \"example.org/x/adjudicator/games/bare\"\n"), 0o644)
	missing := strings.Join(missingFor(root, dir, bare{}), "\n")
	for _, want := range []string{
		"cases: no adjudication cases: write them in adjudicator/games/bare/testdata/game/*.case",
		"bot: no bot", "adjudicator/games/bare/bot.go",
		"report: no report", "adjudicator/games/bare/report.go",
		"grammar: no order table", "adjudicator/games/bare/orders.go",
		"full game: no full game by mail: write adjudicator/games/bare/testdata/fullgame.toml",
		"scenario: no scenario to check",
		"benchmark: no benchmark", "adjudicator/games/bare/bench_test.go",
		"docs: no players' docs: write docs/orders-bare.md and docs/scenario-bare.md",
		"registry: cmd/umpire/serve.go import the game's package",
	} {
		if !strings.Contains(missing, want) {
			t.Errorf("the checklist does not say %q:\n%s", want, missing)
		}
	}
	if strings.Contains(missing, "folder:") {
		t.Errorf("a game in adjudicator/games/ID was refused its folder:\n%s", missing)
	}

	// Following the guide's steps, one by one, clears each item.
	write := func(path, text string) {
		os.MkdirAll(filepath.Dir(filepath.Join(root, path)), 0o755)
		if err := os.WriteFile(filepath.Join(root, path), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Remove(filepath.Join(root, "cmd", "umpire", "serve.go"))
	write(dir+"/testdata/game/rules.case", "case one\nrule 1.1\nscenario demo\nwant over\n")
	write(dir+"/gamecases_test.go", "package bare_test\n\nfunc TestGameCases(t *testing.T) { rulestest.Run(t, cfg) }\n")
	write(dir+"/testdata/fullgame.toml", "scenario = \"demo\"\nmin_steps = 1\n")
	write(dir+"/bench_test.go", "package bare_test\n\nfunc BenchmarkAdjudicate(b *testing.B) {}\n")
	write("docs/orders-bare.md", "# Orders\n")
	write("docs/scenario-bare.md", "# Scenarios\n")
	left := missingFor(root, dir, bare{})
	for _, m := range left {
		if !strings.HasPrefix(m, "bot:") && !strings.HasPrefix(m, "report:") && !strings.HasPrefix(m, "grammar:") {
			t.Errorf("still missing after the guide's step was done: %s", m)
		}
	}
	if len(left) != 3 {
		t.Errorf("left: %q, want the bot, the report and the order table only (bare implements none)", left)
	}
}

// TestGuideListsTheChecklist: docs/adding-a-game.md's checklist names
// exactly the items TestEveryGameIsComplete checks, so the guide and its
// guard cannot drift apart.
func TestGuideListsTheChecklist(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot, "docs", "adding-a-game.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, list, ok := strings.Cut(string(b), "\n## Checklist\n")
	if !ok {
		t.Fatal("docs/adding-a-game.md has no ## Checklist section")
	}
	if end := strings.Index(list, "\n## "); end >= 0 {
		list = list[:end]
	}
	var listed []string
	for _, m := range regexp.MustCompile(`(?m)^- \*\*([a-z ]+)\*\*`).FindAllStringSubmatch(list, -1) {
		listed = append(listed, m[1])
	}
	var checked []string
	for _, c := range gameChecks {
		checked = append(checked, c.name)
	}
	if !slices.Equal(listed, checked) {
		t.Errorf("the guide's checklist lists %q; the guard checks %q, in this order", listed, checked)
	}
}
