package daemon

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/templates"
)

// TestReloadTemplates: after Reload the reports render with the templates
// in templates.dir as they are now; a template that does not parse leaves
// the ones in use.
func TestReloadTemplates(t *testing.T) {
	dir := t.TempDir()
	write := func(text string) {
		if err := os.WriteFile(filepath.Join(dir, "report.txt"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("first {{.Game}}\n")
	rs, err := templates.NewReports(dir)
	if err != nil {
		t.Fatal(err)
	}
	q := &queue{reports: rs}
	d := &Daemon{cfg: &Config{}, queue: q, log: slog.New(slog.DiscardHandler)}
	d.cfg.Templates.Dir = dir
	report := &adjudicator.Report{Game: "club-1", Kind: "fake", Title: "A test", Seat: "A", Step: 1, Phase: "orders"}
	text := func() string {
		t.Helper()
		r, err := q.templates().Render(report)
		if err != nil {
			t.Fatal(err)
		}
		return r.Text
	}
	if got := text(); !strings.HasPrefix(got, "first club-1") {
		t.Fatalf("before: %q", got)
	}
	write("second {{.Game}}\n")
	if got := text(); !strings.HasPrefix(got, "first club-1") {
		t.Errorf("changed before Reload: %q", got)
	}
	if err := d.Reload(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := text(); !strings.HasPrefix(got, "second club-1") {
		t.Errorf("after Reload: %q", got)
	}
	write("third {{.Game")
	if err := d.Reload(context.Background()); err == nil || !strings.Contains(err.Error(), "report.txt") {
		t.Errorf("a template that does not parse: %v", err)
	}
	if got := text(); !strings.HasPrefix(got, "second club-1") {
		t.Errorf("after a failed Reload: %q", got)
	}
}
