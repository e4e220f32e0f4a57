package templates

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// benchReport is a report of a big step: the 60x40 test map, 40 events,
// 30 dice, 60 units.
func benchReport() *adjudicator.Report {
	m := testMap()
	r := &adjudicator.Report{Game: "club-kosovo-3", Kind: "wbt", Title: "War by Television: Kosovo 1999", Seat: "NATO",
		Step: 12, Phase: "NATO combat", Closed: time.Date(2026, 11, 20, 20, 0, 0, 0, time.UTC),
		Notices:  []string{"Stand-in map and CRT: not the published ones."},
		OpenLink: strings.Repeat("ab", 32), Head: strings.Repeat("cd", 32), CommitOpen: strings.Repeat("ef", 32), CommitSealed: strings.Repeat("01", 32),
		Next: &adjudicator.NextStep{Step: 13, Phase: "Serb movement", Owing: []string{"Serb"}, Deadline: time.Date(2026, 11, 23, 20, 0, 0, 0, time.UTC)}}
	for i := range 40 {
		r.Events = append(r.Events, adjudicator.ReportEvent{Rule: "11.8", Text: fmt.Sprintf("NATO attacks %04d at 3:1 and rolls %d: result 1/2, the defender loses two steps and retreats.", 1700+i, i%6+1)})
	}
	for i := range 30 {
		r.Dice = append(r.Dice, adjudicator.ReportDie{Seq: uint64(100 + i), Spec: "1d6", Purpose: fmt.Sprintf("WbT 11.8 CRT roll, NATO attack on %04d", 1700+i), Values: []int{i%6 + 1}})
	}
	for _, c := range m.Counters {
		r.Units = append(r.Units, adjudicator.Unit{Side: c.Side, ID: c.ID, Type: c.Type, Where: c.Hex.String(), Strength: c.Strength, Status: strings.Join(c.Markers, " ")})
	}
	r.Tracks = []board.Track{{Name: "Turn", Value: 3, Min: 1, Max: 14}, {Name: "MePPs", Value: 12}}
	r.Picture = &m
	return r
}

// BenchmarkReport renders what one seat's report mail holds: the 60x40 map
// as a PNG and both report parts (issue 5: under 150 ms, PNG under 400 KB).
func BenchmarkReport(b *testing.B) {
	rs, err := NewReports("")
	if err != nil {
		b.Fatal(err)
	}
	r := benchReport()
	var out *Rendered
	for b.Loop() {
		if out, err = rs.Render(r); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(out.Map)), "png-bytes")
	b.ReportMetric(float64(len(out.Text)+len(out.HTML)), "text-bytes")
}

// TestTemplatesOverride: a folder's report.txt replaces the built-in one and
// the HTML stays built in; a template that does not parse is refused with
// its file named.
func TestTemplatesOverride(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := writeFile(dir+"/"+name, text); err != nil {
			t.Fatal(err)
		}
	}
	write(TextTemplate, "Custom report of {{.Game}} step {{.Step}} for {{.Reader}}.\n")
	rs, err := NewReports(dir)
	if err != nil {
		t.Fatal(err)
	}
	r := benchReport()
	r.Picture = nil
	out, err := rs.Render(r)
	if err != nil {
		t.Fatal(err)
	}
	if out.Text != "Custom report of club-kosovo-3 step 12 for seat NATO.\n" || !strings.Contains(out.HTML, "<h2>WHAT HAPPENED</h2>") {
		t.Errorf("override: text %q", out.Text)
	}
	if out.Map != nil || strings.Contains(out.HTML, "cid:") {
		t.Error("a report without a picture references one")
	}
	write(HTMLTemplate, "<p>{{.Game</p>")
	if _, err := NewReports(dir); err == nil || !strings.Contains(err.Error(), HTMLTemplate) {
		t.Errorf("bad template: %v", err)
	}
	write(HTMLTemplate, "<p>{{.NoSuchField}}</p>")
	rs, err = NewReports(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rs.Render(r); err == nil || !strings.Contains(err.Error(), "NoSuchField") {
		t.Errorf("a template naming a missing field: %v", err)
	}
}

// TestWrapAndTable: the text helpers keep to the width and align columns.
func TestWrapAndTable(t *testing.T) {
	got := wrap(20, "  1. ", "     ", "the quick brown fox jumps over the lazy dog")
	want := "  1. the quick brown\n     fox jumps over\n     the lazy dog"
	if got != want {
		t.Errorf("wrap:\n%s\nwant\n%s", got, want)
	}
	if got := wrap(10, "", "", strings.Repeat("x", 15)); got != strings.Repeat("x", 15) {
		t.Errorf("a long word is cut: %q", got)
	}
	wide := [][]string{{"Side", "Unit", "Type", "Where", "Strength", "Status"},
		{"Russia", "T1", "T80-UK", "0308", "1/1", "facing se, motive crippled, fire control damaged, stunned, rolled 11 (11)"},
		{"USA", "A1", "US fire team", "-", "0/4", "out of the game"}}
	got = units("  ", wide, 72)
	want = "  (Side Unit, Type, at Where, Strength: Status)\n  - Russia T1, T80-UK, at 0308, 1/1: facing se, motive crippled, fire\n    control damaged, stunned, rolled 11 (11)\n  - USA A1, US fire team, 0/4: out of the game"
	if got != want {
		t.Errorf("units too wide for a table:\n%s\nwant\n%s", got, want)
	}
	if got := units("  ", wide[:2][:1], 72); got != table("  ", wide[:1]) {
		t.Errorf("units without rows: %q", got)
	}
	got = die(72, 30, "8d6", []int{3, 6, 2, 2, 6, 3, 2, 4}, false, "Per Rote RPGs/Light Missiles: R2's RPG at A3, needing 3+")
	want = "  #30   8d6        3 6 2 2 6 3 2 4\n                                Per Rote RPGs/Light Missiles: R2's RPG\n                                at A3, needing 3+"
	if got != want {
		t.Errorf("die with long faces:\n%s\nwant\n%s", got, want)
	}
	tab := table("  ", [][]string{{"Side", "Unit"}, {"NATO", "US-1AD"}, {"Serb", "3A"}})
	want = "  Side  Unit\n  ----  ------\n  NATO  US-1AD\n  Serb  3A"
	if tab != want {
		t.Errorf("table:\n%s\nwant\n%s", tab, want)
	}
}

func writeFile(path, text string) error { return os.WriteFile(path, []byte(text), 0o644) }

// BenchmarkReportBurst renders the reports of a burst of steps: 12 steps of
// a War by Television game on the 60x40 test map, each mailed to its two
// seats and its game master, who all see the same map (as in every game
// umpire hosts today). "old" is how the outbox rendered before issue 19:
// every mail its own picture, drawn whole (renderPNGWhole), one after the
// other; "new" is RenderBatch: each distinct picture drawn once, over the
// map's static layer (drawn once per burst: the cache is emptied before
// each), the reports by a pool of every core. Each reports reports/s and
// reports per CPU-second of the process (user+system, from getrusage), the
// figure that says how much each core does; "new" also reports its gain
// per core over "old" measured in the same run (x-per-core). Run it with
//
//	go test -run '^$' -bench ReportBurst -benchtime 3x ./templates
func BenchmarkReportBurst(b *testing.B) {
	rs, err := NewReports("")
	if err != nil {
		b.Fatal(err)
	}
	var burst []*adjudicator.Report
	for step := range 12 {
		for _, seat := range []string{"NATO", "Serb", ""} {
			r := benchReport()
			r.Step, r.Seat = uint64(12+step), seat
			pic := *r.Picture
			pic.Subtitle = fmt.Sprintf("after step %d", 12+step)
			// a unit moves a hex each step.
			pic.Counters = slices.Clone(pic.Counters)
			pic.Counters[len(pic.Counters)-1].Hex.Row -= step
			r.Picture = &pic
			burst = append(burst, r)
		}
	}
	var oldPerCPU float64
	run := func(b *testing.B, render func() (pictures, layers int)) float64 {
		var cpu time.Duration
		var wall time.Duration
		drawn, laid := 0, 0
		for b.Loop() {
			c0, t0 := cpuTime(b), time.Now()
			drawn, laid = render()
			cpu += cpuTime(b) - c0
			wall += time.Since(t0)
		}
		n := float64(b.N * len(burst))
		b.ReportMetric(n/wall.Seconds(), "reports/s")
		b.ReportMetric(n/cpu.Seconds(), "reports/cpu-s")
		b.ReportMetric(float64(drawn), "pictures/burst")
		b.ReportMetric(float64(laid), "layers/burst")
		b.ReportMetric(0, "ns/op")
		return n / cpu.Seconds()
	}
	b.Run("old", func(b *testing.B) {
		oldPerCPU = run(b, func() (int, int) {
			for _, r := range burst {
				var buf bytes.Buffer
				err := renderPNGWhole(*r.Picture, &buf)
				if _, err := rs.RenderWith(r, Picture{PNG: buf.Bytes()}, err); err != nil {
					b.Fatal(err)
				}
			}
			return len(burst), 0
		})
	})
	b.Run("new", func(b *testing.B) {
		perCPU := run(b, func() (int, int) {
			layers.reset()
			d0, l0 := rs.Drawn(), layers.drawn.Load()
			batch, err := rs.RenderBatch(b.Context(), burst, nil, 0)
			if err != nil {
				b.Fatal(err)
			}
			for _, e := range batch.Errs {
				if e != nil {
					b.Fatal(e)
				}
			}
			return int(rs.Drawn() - d0), int(layers.drawn.Load() - l0)
		})
		if oldPerCPU > 0 {
			b.ReportMetric(perCPU/oldPerCPU, "x-per-core")
		}
	})
}

// renderPNGWhole is how a picture was drawn before the static layer (the
// baseline of BenchmarkReportBurst and the reference of the tests): the
// whole picture on one RGBA canvas, quantised to 256 colours by
// frequency, compressed in parallel bands.
func renderPNGWhole(m board.Picture, w io.Writer) error {
	r, err := render(m, pixels)
	if err != nil {
		return err
	}
	cv := r.cv.(*canvas)
	pal := paletted(cv.img, usedColours(cv), 256)
	putPix(cv.img.Pix)
	err = encodePNG(w, pal)
	putPix(pal.Pix)
	return err
}

// cpuTime is the process's user and system time so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestLongHandAndTracksWrap: a hand card with a long event text and a track
// with a long text (a discard pile) keep the text report within 72 columns,
// each wrapped under its own entry.
func TestLongHandAndTracksWrap(t *testing.T) {
	rs, err := NewReports("")
	if err != nil {
		t.Fatal(err)
	}
	r := benchReport()
	r.Picture = nil
	r.Hand = []string{"B9 Patriotic League Formed, CV 4, other, Early War: Place 2 reduced ARBIH brigades in Bosniak Key Spaces"}
	r.Tracks = append(r.Tracks, board.Track{Name: "Cards Serb", Text: "0 in hand, 7 in the draw deck, discard: S32 S27 S12 S15 S21 S11 S26 S2 S22 S28 S25 S20"})
	out, err := rs.Render(r)
	if err != nil {
		t.Fatal(err)
	}
	text := string(out.Text)
	for i, line := range strings.Split(text, "\n") {
		if n := len([]rune(line)); n > 72 {
			t.Errorf("line %d is %d columns: %q", i+1, n, line)
		}
	}
	for _, want := range []string{"  - B9 Patriotic League Formed", "    ARBIH brigades in Bosniak Key Spaces", "  Cards Serb: 0 in hand", "    S21 S11"} {
		if !strings.Contains(text, want) {
			t.Errorf("the report lacks %q:\n%s", want, text)
		}
	}
}
