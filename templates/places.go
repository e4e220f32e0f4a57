package templates

import (
	"bytes"
	"fmt"
	"math"
	"strings"
)

// places writes the SVG's layer for a page's script (docs/web.md): an
// invisible group after the picture with every place drawn, a hex or a
// space, as "ID X Y" entries separated by ";" in data-places (its centre
// in the picture's pixels; data-r is how far a place reaches from it),
// and over each stack one invisible box per unit, data-hex (or
// data-space) naming its place and data-unit, data-side, data-type,
// data-strength and data-markers its values. Nothing in it is painted (no
// fill, no stroke): the picture looks as the PNG does.
func (r *renderer) places(b *bytes.Buffer) {
	var list []string
	attr := "data-hex"
	reach := hexRadius
	type placed struct {
		st    stack
		place string
		b     box
	}
	var stacks []placed
	if r.net != nil {
		attr, reach = "data-space", keyR
		for _, s := range r.net.Spaces {
			c := r.at(s.ID)
			list = append(list, fmt.Sprintf("%s %d %d", s.ID, int(math.Round(c.x)), int(math.Round(c.y))))
		}
		for _, hs := range r.hexStacks {
			stacks = append(stacks, placed{hs.st, hs.st[0].Space, r.hexStackBox(hs)})
		}
	} else {
		for _, id := range r.g.All() {
			if r.on(id) {
				c := r.centre(id)
				list = append(list, fmt.Sprintf("%s %d %d", id, int(math.Round(c.x)), int(math.Round(c.y))))
			}
		}
		for _, hs := range r.hexStacks {
			stacks = append(stacks, placed{hs.st, hs.st[0].Hex.String(), r.hexStackBox(hs)})
		}
	}
	fmt.Fprintf(b, "<g class=\"places\" fill=\"none\" pointer-events=\"all\" data-r=\"%s\" data-places=\"%s\">\n", num(reach), appendEscaped(nil, strings.Join(list, ";")))
	for _, s := range stacks {
		x0, y0, x1, y1 := s.b.x0, s.b.y0, s.b.x1, s.b.y1
		for _, cn := range s.st {
			b.WriteString("<rect")
			for _, a := range [][2]string{{attr, s.place}, {"data-unit", cn.ID}, {"data-side", cn.Side}, {"data-type", cn.Type},
				{"data-strength", cn.Strength}, {"data-markers", strings.Join(cn.Markers, " ")}} {
				fmt.Fprintf(b, " %s=\"%s\"", a[0], appendEscaped(nil, a[1]))
			}
			fmt.Fprintf(b, " x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\"/>\n", num(x0), num(y0), num(x1-x0), num(y1-y0))
		}
	}
	b.WriteString("</g>\n")
}
