package daemon

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	"github.com/umpire-pbem/umpire/store"
)

// TestPagesLinkPublicStep: with a public address, a seat's step report
// links its step's page under it, told whether the page shows another map
// than the seat's; without one, or for a briefing, no link.
func TestPagesLinkPublicStep(t *testing.T) {
	now := time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC)
	dbPath := filepath.Join(t.TempDir(), "umpire.db")
	daemontest.HostGames(t, games(), dbPath, now, 3, 1, "club-1")
	db, err := store.Open(dbPath, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	j := &adjudicator.Judge{Games: games()}
	clock := func() time.Time { return now }
	var rep *adjudicator.Report
	if err := db.View(context.Background(), func(tx *store.Tx) (err error) {
		rep, err = j.BuildReport(tx.Judge(daemontest.JudgeAddress, now), "club-1", 1, "A")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if Pages(db, j, daemontest.JudgeAddress, "", clock) != nil {
		t.Error("a judge without a public address links pages")
	}
	pages := Pages(db, j, daemontest.JudgeAddress, "https://judge.example.org/umpire", clock)
	url, differs := pages(rep)
	if want := "https://judge.example.org/umpire/games/club-1/steps/1"; url != want {
		t.Errorf("the page is %q, want %q", url, want)
	}
	if rep.Picture == nil {
		t.Fatal("the fake game's report has no map")
	}
	// The fake game shows every seat the same map: the page is the seat's.
	if differs {
		t.Error("the public page is said to differ from a map every seat sees alike")
	}
	own := *rep
	pic := *rep.Picture
	pic.Subtitle += " (A's own view)"
	own.Picture = &pic
	if _, differs := pages(&own); !differs {
		t.Error("a seat's own map is not said to differ from the public page")
	}
	brief := *rep
	brief.Lead = "Welcome."
	if url, _ := pages(&brief); url != "" {
		t.Errorf("a briefing links %q", url)
	}
}
