package web

import (
	"slices"
	"strings"
	"unicode"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// StackView is the units on one place of a map, as the list under the map
// shows them (the page's stacks without script).
type StackView struct {
	Place string
	Units []board.Counter
}

// stacksOf lists the stacks of a picture, in the order its counters come.
func stacksOf(p *board.Picture) []StackView {
	if p == nil {
		return nil
	}
	var out []StackView
	at := map[string]int{}
	for _, c := range p.Counters {
		place := c.Space
		if p.Network == nil {
			place = c.Hex.String()
		}
		i, ok := at[place]
		if !ok {
			i = len(out)
			at[place] = i
			out = append(out, StackView{Place: place})
		}
		out[i].Units = append(out[i].Units, c)
	}
	return out
}

// mentions are the places and units of picture p that text names, each
// as a whole word: a hex's id, a space's id or name, a unit's id; places
// as the picture's layer of places names them (data-hex, data-space).
func mentions(p *board.Picture, text string) (places, units []string) {
	if p == nil {
		return nil, nil
	}
	if p.Network != nil {
		for _, s := range p.Network.Spaces {
			if named(text, s.ID) || s.Name != "" && named(text, s.Name) {
				places = append(places, s.ID)
			}
		}
	} else if p.Grid != nil {
		for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsDigit(r) }) {
			if id, err := p.Grid.Parse(w); err == nil && p.Grid.Contains(id) && !slices.Contains(places, id.String()) {
				places = append(places, id.String())
			}
		}
	}
	for _, c := range p.Counters {
		if c.ID != "" && named(text, c.ID) && !slices.Contains(units, c.ID) {
			units = append(units, c.ID)
		}
	}
	return places, units
}

// named reports whether word is in text with no letter or digit either
// side.
func named(text, word string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], word)
		if j < 0 {
			return false
		}
		j += i
		before, after := ' ', ' '
		if j > 0 {
			before = []rune(text[:j])[len([]rune(text[:j]))-1]
		}
		if k := j + len(word); k < len(text) {
			after = []rune(text[k:])[0]
		}
		if !isWord(before) && !isWord(after) {
			return true
		}
		i = j + 1
	}
}

func isWord(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
