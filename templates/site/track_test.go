package site

import (
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// TestReading: tracks read as a player says them: a turn track "6 of 6",
// a signed track with its signs, a word as the word.
func TestReading(t *testing.T) {
	for _, c := range []struct {
		track board.Track
		want  string
	}{
		{board.Track{Name: "Turn", Value: 6, Max: 6}, "6 of 6"},
		{board.Track{Name: "Turn", Value: 3, Min: 1, Max: 8}, "3 of 8"},
		{board.Track{Name: "FA Serb", Value: -1, Min: -7, Max: 7}, "−1 on −7…+7"},
		{board.Track{Name: "FA Serb", Value: 2, Min: -7, Max: 7}, "+2 on −7…+7"},
		{board.Track{Name: "FA Serb", Value: 0, Min: -7, Max: 7}, "0 on −7…+7"},
		{board.Track{Name: "Game turn", Value: 7, Min: 5, Max: 7}, "7 of 7 (from 5)"},
		{board.Track{Name: "VP", Value: 12}, "12"},
		{board.Track{Name: "Weather", Text: "good", Max: 3}, "good"},
	} {
		if got := reading(c.track); got != c.want {
			t.Errorf("%+v reads %q, want %q", c.track, got, c.want)
		}
	}
}
