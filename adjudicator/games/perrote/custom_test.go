package perrote

import (
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// TestCustomScenarioInGameFile: a game master's own scenario travels in the
// game file (scenario "custom", its text in the option scenario): the game
// file's seats come from it, the game starts from it, and a mistake in it
// is refused with its line.
func TestCustomScenarioInGameFile(t *testing.T) {
	text, err := scenarioFS.ReadFile("scenarios/demo.toml")
	if err != nil {
		t.Fatal(err)
	}
	own := strings.Replace(string(text), `title = "Demo: the farm at the crossroads"`, `title = "Our own farm"`, 1)
	file := "id = \"own-1\"\ngame = \"perrote\"\nscenario = \"custom\"\n[options]\nturns = \"4\"\nscenario = '''\n" + own + "'''\n[schedule]\nevery = \"48h\"\n"
	reg := adjudicator.NewRegistry(Game)
	f, err := adjudicator.ParseGameFile([]byte(file), reg)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(f.Seats, ",") != "Russia,USA" {
		t.Errorf("seats %v", f.Seats)
	}
	state, err := Game.New(f.Scenario, f.Options)
	if err != nil {
		t.Fatal(err)
	}
	s, err := decode(state)
	if err != nil || s.Turns != 4 || !strings.Contains(s.Title, "Our own farm") {
		t.Errorf("state: turns %d title %q %v", s.Turns, s.Title, err)
	}
	bad := strings.Replace(file, `hex = "1505"`, `hex = "9999"`, 1)
	if _, err := adjudicator.ParseGameFile([]byte(bad), reg); err == nil || !strings.Contains(err.Error(), "option scenario:") {
		t.Errorf("a bad custom scenario: %v", err)
	}
	if _, err := adjudicator.ParseGameFile([]byte(strings.Replace(file, "scenario = '''", "other = '''", 1)), reg); err == nil || !strings.Contains(err.Error(), "option scenario") {
		t.Errorf("custom without its text: %v", err)
	}
	if _, err := Game.New("demo", map[string]string{"scenario": own}); err == nil {
		t.Error("a scenario text with a shipped scenario was accepted")
	}
}
