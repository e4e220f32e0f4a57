package main

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// TestGameFileDocWorkedExample: the worked example of docs/game-file.md is
// what the judge takes: its game file is the one at the top of the page and
// is accepted as it stands, Alice's orders for step 1 are clean orders of
// the scenario's first turn, and every command the judge reads by mail is
// documented on the page.
func TestGameFileDocWorkedExample(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "game-file.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	block := func(after string) string {
		t.Helper()
		i := strings.Index(doc, after)
		if i < 0 {
			t.Fatalf("docs/game-file.md has no %q", after)
		}
		m := regexp.MustCompile("(?s)```[a-z]*\n(.*?)```").FindStringSubmatch(doc[i:])
		if m == nil {
			t.Fatalf("no code block after %q", after)
		}
		return m[1]
	}
	file := block("**2. She writes the game file**")
	if top := block("# Game files"); top != "create\n"+file {
		t.Errorf("the example at the top of the page is not the worked example's game file:\n%s", top)
	}
	f, err := adjudicator.ParseGameFile([]byte(file), games())
	if err != nil {
		t.Fatalf("the worked example's game file is refused: %v", err)
	}
	if f.Game != "perrote" || f.Press.Grey != adjudicator.GreyYes || strings.Join(f.Seats, ",") != "Russia,USA" {
		t.Errorf("the game file reads as %+v", f)
	}
	rules, _ := games().Get(f.Game)
	state, err := rules.New(f.Scenario, f.Options)
	if err != nil {
		t.Fatal(err)
	}
	orders, problems := adjudicator.ParseOrderFile(block("Alice's, clear-signed:"))
	if len(problems) > 0 || orders.Game != f.ID || orders.Step != 1 || orders.Seat != "Russia" {
		t.Fatalf("Alice's order file: %+v %v", orders, problems)
	}
	if canon, problems := rules.ParseOrders(state, orders.Seat, orders.Orders); len(problems) > 0 || len(canon) != 2 {
		t.Errorf("Alice's orders are refused: %v", problems)
	}
	for _, c := range []string{"join", "approve", "refuse", "ready", "notready", "absence", "resign", "create", "start", "pause",
		"resume", "extend", "process", "replace", "eject", "rollback", "roll", "press", "observe", "unobserve", "observers",
		"help", "games", "list", "status", "units", "map", "history", "report", "log", "key"} {
		if !strings.Contains(doc, "`"+c) {
			t.Errorf("docs/game-file.md does not document %s", c)
		}
	}
}

// TestGameFileDocListsEverySetting: every top-level setting of a game file
// (adjudicator.GameFile's keys) is in docs/game-file.md's table.
func TestGameFileDocListsEverySetting(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "game-file.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	typ := reflect.TypeFor[adjudicator.GameFile]()
	for i := range typ.NumField() {
		key, _, _ := strings.Cut(typ.Field(i).Tag.Get("toml"), ",")
		if key == "" || key == "-" {
			continue
		}
		if !strings.Contains(doc, "| `"+key+"`") && !strings.Contains(doc, "| `["+key+"]`") && !strings.Contains(doc, "| `"+key+".") {
			t.Errorf("docs/game-file.md's table has no row for the setting %s", key)
		}
	}
}
