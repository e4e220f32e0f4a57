package main

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// readDoc returns a file of the repository, by its path from the root.
func readDoc(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(path)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestDocsNameEveryGame: README's documentation list names the scenario
// and orders pages of every game the judge hosts (the registry's), which
// exist; docs/game-file.md names every game by its id; and docs/resolve.md
// lists every procedure of every game's calculator.
func TestDocsNameEveryGame(t *testing.T) {
	readme := readDoc(t, "README.md")
	_, list, ok := strings.Cut(readme, "\n## Documentation\n")
	if !ok {
		t.Fatal(`README.md has no "## Documentation" section`)
	}
	gameFile := readDoc(t, "docs/game-file.md")
	reg := games()
	for _, id := range slices.Sorted(maps.Keys(reg)) {
		for _, page := range []string{"docs/scenario-" + id + ".md", "docs/orders-" + id + ".md"} {
			if !strings.Contains(list, "`"+page+"`") {
				t.Errorf("game %q: README's documentation list does not name %s", id, page)
			}
			if _, err := os.Stat(filepath.Join("..", "..", page)); err != nil {
				t.Errorf("game %q: %v", id, err)
			}
		}
		if !strings.Contains(gameFile, "`"+id+"`") {
			t.Errorf("game %q: docs/game-file.md does not name it", id)
		}
	}

	resolveDoc := readDoc(t, "docs/resolve.md")
	for _, g := range calculators().Games() {
		var row string
		for line := range strings.Lines(resolveDoc) {
			if strings.HasPrefix(line, "| `"+g.ID+"` ") {
				row = line
			}
		}
		if row == "" {
			t.Errorf("docs/resolve.md has no row for game %q", g.ID)
			continue
		}
		for _, p := range g.Names() {
			if !strings.Contains(row, "`"+p+"`") {
				t.Errorf("docs/resolve.md does not list procedure %s of game %q", p, g.ID)
			}
		}
	}
}
