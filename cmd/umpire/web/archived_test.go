package web

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/store"
)

// TestArchivedGamePages: every page of a game the operator archived
// answers 410 Gone saying when it was archived and who holds its record,
// not 404 or 500; a game never hosted is still 404.
func TestArchivedGamePages(t *testing.T) {
	w := newWorld(t)
	w.create(fakeGame)
	w.orders("fk-1", "A", "roll 1")
	w.orders("fk-1", "B", "roll 2")
	if err := w.db.Update(context.Background(), func(tx *store.Tx) error {
		return tx.ArchiveGame(store.Archived{ID: "fk-1", Kind: "fake", Title: "Fake", Archived: time.Date(2027, 3, 4, 5, 6, 0, 0, time.UTC), Steps: 2, DiceHead: "abc123", SHA256: "def", File: "fk-1.json"})
	}); err != nil {
		t.Fatal(err)
	}
	s := w.server(nil)
	for _, path := range []string{"/games/fk-1/", "/games/fk-1/steps/1", "/games/fk-1/map.svg", "/games/fk-1/steps/1/map.svg", "/games/fk-1/log.json",
		"/games/fk-1/verify", "/api/games/fk-1", "/api/games/fk-1/steps/1", "/api/games/fk-1/log"} {
		rec := get(t, s, "GET", path)
		body := rec.Body.String()
		if rec.Code != http.StatusGone || !strings.Contains(body, "ended and was archived on 4 Mar 2027 05:06 UTC after 2 steps") || !strings.Contains(body, "operator holds its record") {
			t.Errorf("GET %s: %d\n%s", path, rec.Code, body)
		}
	}
	if rec := get(t, s, "GET", "/games/never/"); rec.Code != http.StatusNotFound {
		t.Errorf("GET a game never hosted: %d", rec.Code)
	}
}
