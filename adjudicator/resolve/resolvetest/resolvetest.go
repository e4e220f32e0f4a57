// Package resolvetest runs rules cases (the resolve case format) as Go
// tests: one runner for every game.
package resolvetest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/resolve"
)

// Run runs every *.cases file under dir against g, one subtest per case
// named after its file and line.
func Run(t *testing.T, g *resolve.Game, dir string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.cases"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no *.cases files in %s", dir)
	}
	total := 0
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		cases, err := resolve.ParseCases(filepath.Base(file), f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			total++
			name := strings.TrimSuffix(c.File, ".cases") + ":" + strconv.Itoa(c.Line)
			t.Run(name, func(t *testing.T) {
				if diffs := c.Check(g); len(diffs) > 0 {
					t.Errorf("%s:%d %s\n  %s", c.File, c.Line, c.Comment, strings.Join(diffs, "\n  "))
				}
			})
		}
	}
	t.Logf("%d cases from %d files", total, len(files))
}
