package adjudicator

import (
	"strings"
	"testing"
)

// TestParseOrderFileReplies: what mail programs put around an order file
// (a greeting, a quoted report above or below with its attribution line,
// a signature block and a disclaimer) gives no order line and no problem.
func TestParseOrderFileReplies(t *testing.T) {
	orders := "game: g\nstep: 7\nseat: NATO\nmove A 1 2\nattack 3\n"
	want := []string{"move A 1 2", "attack 3"}
	quote := "> Report: g step 6\n> game: g\n> move X 1 2\n> -- \n> umpire\n"
	for name, text := range map[string]string{
		"top-posted":               orders + "\nOn Mon, 3 Mar 2025 at 19:00, Umpire <judge@umpire.test> wrote:\n" + quote,
		"bottom-posted":            "Hi,\n\nOn Mon, 3 Mar 2025, Umpire <judge@umpire.test> wrote:\n" + quote + "\n" + orders + "end\n",
		"attribution cut in two":   orders + "On Mon, 3 Mar 2025 at 19:00, Umpire <\njudge@umpire.test> wrote:\n\n" + quote,
		"german attribution":       orders + "Am Mo., 3. März 2025 um 19:00 schrieb Umpire <judge@umpire.test>:\n" + quote,
		"signature and disclaimer": orders + "-- \nAlice Example\nACME Corp.\nThis e-mail is confidential. If you are not the intended recipient, delete it.\n",
		"signature without blank":  orders + "--\nAlice\n",
		"dash-escaped separator":   orders + "- -- \nAlice\n",
		"outlook original":         orders + "\n-----Original Message-----\nFrom: Umpire <judge@umpire.test>\nSent: Monday\nmove Y 1 2\n",
		"outlook rule":             orders + "\n________________________________\nFrom: Umpire\nmove Y 1 2\n",
		"quoted lines in between":  "game: g\nstep: 7\nseat: NATO\n> you wrote\nmove A 1 2\n>> old\nattack 3\n",
	} {
		t.Run(name, func(t *testing.T) {
			p, problems := ParseOrderFile(text)
			if len(problems) != 0 {
				t.Errorf("problems %v", problems)
			}
			var got []string
			for _, o := range p.Orders {
				got = append(got, o.Text)
			}
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("orders %q, want %q", got, want)
			}
			if p.Game != "g" || p.Step != 7 || p.Seat != "NATO" {
				t.Errorf("header %q %d %q", p.Game, p.Step, p.Seat)
			}
		})
	}
}

func TestCutLine(t *testing.T) {
	long := "queue 3: move 1/2-PARA 1708 1709 1710 1711 1712 then attack 1713 with all" // 74
	for _, c := range []struct {
		name string
		text string
		n    int
		want bool
	}{
		{"cut at 78", "game: g\n" + long + "\nsupported\n", 3, true},
		{"next word fits", "game: g\nmove A 1 2\nsupported\n", 3, false},
		{"a longer line elsewhere: not wrapped at 78", "game: g\n" + long + "\nsupported\n# " + strings.Repeat("x", 80) + "\n", 3, false},
		{"after a comment", "# " + long[2:] + "\nsupported\n", 2, false},
		{"first line", "supported\n", 1, false},
	} {
		got := false
		for _, n := range CutLines(c.text, 1) {
			got = got || n == c.n
		}
		if got != c.want {
			t.Errorf("%s: line %d cut = %v, want %v", c.name, c.n, got, c.want)
		}
	}
}
