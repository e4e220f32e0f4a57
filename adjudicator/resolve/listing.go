package resolve

import (
	"fmt"
	"io"
	"strings"
)

// List writes what `umpire resolve GAME` shows: every procedure with its
// inputs (kind, default or required) and outputs, so a player can find them
// without the docs.
func List(w io.Writer, g *Game) {
	fmt.Fprintf(w, "%s: %s\n", g.ID, g.Title)
	fmt.Fprintf(w, "usage: umpire resolve %s PROCEDURE name=value ... [dice=a,b,...] [--distribution]\n", g.ID)
	for _, p := range g.Procedures {
		fmt.Fprintf(w, "\n%s  %s\n", p.Name, p.Summary)
		if p.Dice != "" {
			fmt.Fprintf(w, "  dice: %s\n", p.Dice)
		} else {
			fmt.Fprintf(w, "  dice: none\n")
		}
		if len(p.Inputs) == 0 {
			fmt.Fprintf(w, "  inputs: none\n")
		} else {
			fmt.Fprintf(w, "  inputs:\n")
		}
		for _, in := range p.Inputs {
			status := "required"
			switch {
			case in.Unset != "":
				status = "default " + in.Unset
			case !in.Required:
				status = "default " + defaultText(in)
			}
			line := fmt.Sprintf("    %s=  %s (%s)", in.Name, in.usage(), status)
			if in.Help != "" {
				line += ": " + in.Help
			}
			fmt.Fprintln(w, line)
		}
		if len(p.Outputs) > 0 {
			fmt.Fprintf(w, "  outputs:\n")
		}
		for _, o := range p.Outputs {
			main := ""
			if o.Name == p.Main {
				main = " [--distribution]"
			}
			if o.Help != "" {
				fmt.Fprintf(w, "    %s%s: %s\n", o.Name, main, o.Help)
			} else {
				fmt.Fprintf(w, "    %s%s\n", o.Name, main)
			}
		}
	}
}

func defaultText(in Input) string {
	if in.Default != "" {
		return in.Default
	}
	switch in.Kind {
	case Int, Decimal:
		return "0"
	case Bool:
		return "no"
	case Ints, Words:
		return "empty"
	}
	return "empty"
}

// ListGames writes what `umpire resolve` shows: the games.
func ListGames(w io.Writer, r *Registry) {
	fmt.Fprintln(w, "usage: umpire resolve GAME [PROCEDURE name=value ... [dice=a,b,...] [--distribution]]")
	fmt.Fprintln(w, "games:")
	for _, g := range r.Games() {
		fmt.Fprintf(w, "  %-8s %s (%s)\n", g.ID, g.Title, strings.Join(g.Names(), ", "))
	}
}
