package bu

// This file reads the track file (docs/scenario-bu.md): the Foreign
// Attitude at which each Intervention Level begins (2.2.3, printed on the
// FA track) and the cards each side draws per turn in the 3-player game
// (6.1.2, printed on the Turn Track). The 2-player counts are in the rule
// text (14.3.3) and are not read from the file.

import (
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator/kit"
)

// gameTurns is the number of turns (4.1.3, 8.2; Fight To The End replays
// the last, 15.2).
const gameTurns = 4

// tracks is a track file, read and checked.
type tracks struct {
	Title   string
	StandIn bool
	Notice  string
	// Levels[i] is the FA at or below which Intervention Level i+1
	// begins (2.2.3).
	Levels [3]int
	// Cards[side][turn-1] is the cards the side draws on turn (3 players).
	Cards map[Side][gameTurns]int
}

// cardsTwoPlayer are the cards drawn per turn in the 2-player game
// (14.3.3): Serbian 7/7/6/6, Bosniak-Croat 5/6/6/6.
var cardsTwoPlayer = map[string][gameTurns]int{seatSerb: {7, 7, 6, 6}, seatBC: {5, 6, 6, 6}}

// Level is the Intervention Level of a side with Foreign Attitude fa.
func (t *tracks) Level(fa int) int {
	level := 0
	for i, at := range t.Levels {
		if fa <= at {
			level = i + 1
		}
	}
	return level
}

type tracksFile struct {
	kit.Preamble
	Intervention map[string]int   `toml:"intervention"`
	Cards        map[string][]int `toml:"cards"`
}

// parseTracks reads and checks a track file.
func parseTracks(name string, data []byte) (*tracks, error) {
	file := kit.File{Name: name, Data: data}
	var f tracksFile
	if err := file.Decode(&f); err != nil {
		return nil, err
	}
	bad := func(table, key, format string, args ...any) error {
		return file.Errorf(table, -1, key, format, args...)
	}
	t := &tracks{Title: f.Title, StandIn: f.StandIn, Notice: f.Notice, Cards: map[Side][gameTurns]int{}}
	if err := f.Check(file, "stand-in tracks"); err != nil {
		return nil, err
	}
	for k := range f.Intervention {
		if k != "level1" && k != "level2" && k != "level3" {
			return nil, bad("intervention", k, "unknown field: want level1, level2 and level3")
		}
	}
	prev := 0
	for i := range t.Levels {
		key := fmt.Sprintf("level%d", i+1)
		v, ok := f.Intervention[key]
		if !ok {
			return nil, bad("intervention", key, "missing: the FA at or below which Intervention Level %d begins (2.2.3)", i+1)
		}
		if v >= prev {
			return nil, bad("intervention", key, "%d: each level begins at a lower FA than the one before (0 is neutral, 2.2.2)", v)
		}
		t.Levels[i], prev = v, v
	}
	for k := range f.Cards {
		if _, ok := parseSide(k); !ok {
			return nil, bad("cards", k, "unknown field: want Serb, Croat and Bosniak")
		}
	}
	for _, side := range sides {
		v, ok := f.Cards[string(side)]
		if !ok {
			return nil, bad("cards", string(side), "missing: the cards %s draws on turns 1 to 4 (6.1.2)", side)
		}
		if len(v) != gameTurns {
			return nil, bad("cards", string(side), "%v: want %d numbers, one a turn (6.1.2)", v, gameTurns)
		}
		var n [gameTurns]int
		for i, x := range v {
			if x < 1 || x > 15 {
				return nil, bad("cards", string(side), "%d on turn %d: want 1 to 15 cards", x, i+1)
			}
			n[i] = x
		}
		t.Cards[side] = n
	}
	return t, nil
}
