package adjudicator

import (
	"fmt"
	"strings"
)

// gameNamed is the id of the game that id names, in any case ("Club-BU-1"
// names club-bu-1), or id itself when it names none: answers then say the
// game's id as it is spelt.
func gameNamed(tx Tx, id string) string {
	if _, err := tx.Game(id); err == nil || id == "" {
		return id
	}
	games, err := tx.Games()
	if err != nil {
		return id
	}
	for _, g := range games {
		if strings.EqualFold(g.ID, id) {
			return g.ID
		}
	}
	return id
}

// seatName is the seat of game that name names, in any case ("croat"
// names Croat), or name itself when it names none.
func seatName(tx Tx, game, name string) string {
	if _, err := tx.Seat(game, name); err == nil || name == "" {
		return name
	}
	seats, err := tx.Seats(game)
	if err != nil {
		return name
	}
	for _, s := range seats {
		if strings.EqualFold(s.Name, name) {
			return s.Name
		}
	}
	return name
}

// noSeat says that game has no seat name, with the seats nearest to it
// (DidYouMean), else all of them: a game has a few.
func noSeat(tx Tx, game, name string) (text, hint string) {
	seats, _ := tx.Seats(game)
	names := make([]string, len(seats))
	for i, s := range seats {
		names[i] = s.Name
	}
	all := "its seats are " + strings.Join(names, ", ")
	hint = all
	if near := nearNames(name, names); len(near) > 0 {
		hint = "did you mean " + OrList(near) + "? " + all
	}
	return fmt.Sprintf("game %s has no seat %q", game, name), hint
}

// nearGames is the did-you-mean of an unknown game id: the nearest ids of
// the games listed, as "did you mean club-1? " or "".
func nearGames(tx Tx, id string) string {
	games, err := listed(tx)
	if err != nil {
		return ""
	}
	ids := make([]string, len(games))
	for i, g := range games {
		ids[i] = g.ID
	}
	if near := nearNames(id, ids); len(near) > 0 {
		return "did you mean " + OrList(near) + "? "
	}
	return ""
}

// nearNames is Nearest without the names that share nothing with word (a
// distance of the longer length: "Z" is as far from "A" as can be).
func nearNames(word string, names []string) []string {
	var out []string
	for _, n := range Nearest(word, names) {
		if editDistance(strings.ToLower(word), strings.ToLower(n)) < max(len(word), len(n)) {
			out = append(out, n)
		}
	}
	return out
}
