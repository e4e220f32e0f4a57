//go:build integration

package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	editor "github.com/umpire-pbem/umpire/cmd/umpire/edit"
	"github.com/umpire-pbem/umpire/store"
)

// editorOn serves umpire edit for game on a copy of its demo map (and
// counters for hex games), each of mapNotes replaced once in the map as a
// game master annotates it, and returns the page's address and the files.
func editorOn(t *testing.T, game string, counters bool, mapNotes ...[2]string) (root, mapPath, countersPath string) {
	t.Helper()
	dir := t.TempDir()
	cp := func(name string) string {
		data, err := os.ReadFile(filepath.Join("../../adjudicator/games", game, "scenarios", name))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	mapPath = cp("demo-map.toml")
	if len(mapNotes) > 0 { // a game master's notes in the map copy: each text replaced once
		data, err := os.ReadFile(mapPath)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range mapNotes {
			if !strings.Contains(string(data), n[0]) {
				t.Fatalf("the demo map has no %q", n[0])
			}
			data = []byte(strings.Replace(string(data), n[0], n[1], 1))
		}
		if err := os.WriteFile(mapPath, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if counters {
		countersPath = cp("demo-counters.toml")
	}
	rules, err := games().Get(game)
	if err != nil {
		t.Fatal(err)
	}
	return serveEditor(t, editor.Config{Game: rules, MapPath: mapPath, CountersPath: countersPath}), mapPath, countersPath
}

// serveEditor serves umpire edit with cfg, as the command does, and
// returns the page's address.
func serveEditor(t *testing.T, cfg editor.Config) string {
	t.Helper()
	s, err := editor.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, l) }()
	t.Cleanup(func() { cancel(); <-done })
	return "http://" + l.Addr().String() + "/"
}

// clickOn clicks the painted layer where the page draws a hex, a hexside
// ("1510/1511") or a space, as a person's mouse would.
func clickOn(t *testing.T, ctx context.Context, place string) {
	t.Helper()
	fn := "centre"
	if strings.Contains(place, "/") {
		fn = "edge"
	}
	xy := get(t, ctx, chromedp.Evaluate[[]float64](fmt.Sprintf(`(() => { const c = umpireEdit.%s(%q); if (!c) return [];
		const vp = document.getElementById("viewport"); vp.scrollLeft = c.x - 150; vp.scrollTop = c.y - 150;
		const r = document.getElementById("paint").getBoundingClientRect(); return [r.left + c.x, r.top + c.y]; })()`, fn, place)))
	if len(xy) != 2 {
		t.Fatalf("the page draws no %s", place)
	}
	runIn(t, ctx, time.Minute, chromedp.MouseClickXY(xy[0], xy[1]))
}

// checked waits for the judge's check of the latest change and returns
// whether it accepts the files, and its messages.
func checked(t *testing.T, ctx context.Context) (bool, string) {
	t.Helper()
	runIn(t, ctx, time.Minute, chromedp.Sleep(100*time.Millisecond))
	get(t, ctx, chromedp.Poll[bool](`document.getElementById("status").textContent !== "checking…"`))
	ok := get(t, ctx, chromedp.Evaluate[string](`document.getElementById("status").dataset.ok`)) == "yes"
	return ok, get(t, ctx, chromedp.Evaluate[string](`document.getElementById("problems").innerText`))
}

func tool(ctx context.Context, name, kind, label string) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(chromedp.Click(css("#tool-"+name)),
		chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := chromedp.Evaluate[bool](fmt.Sprintf(`(document.getElementById("kind").value = %q, document.getElementById("name").value = %q, true)`, kind, label))(ctx, t)
			return err
		}))
}

// createAndPlay creates a game from the saved files through the judge,
// as 'umpire game new' does with a game file naming them, starts it and
// adjudicates its first step at its deadline.
func createAndPlay(t *testing.T, game string, options map[string]string) {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "umpire.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	j := &adjudicator.Judge{Games: games()}
	var b strings.Builder
	fmt.Fprintf(&b, "id = \"edited-1\"\ngame = %q\ngm = \"GMKEY\"\n[options]\n", game)
	for k, v := range options {
		fmt.Fprintf(&b, "%s = %q\n", k, v)
	}
	b.WriteString("[schedule]\nevery = \"72h\"\n")
	file := b.String()
	now := time.Now()
	err = db.Update(t.Context(), func(tx *store.Tx) error {
		f, err := adjudicator.ParseGameFile([]byte(file), j.Games)
		if err != nil {
			return err
		}
		jt := tx.Judge(daemontest.JudgeAddress, now)
		if err := j.Create(jt, f, []byte(file), now); err != nil {
			return fmt.Errorf("create: %w", err)
		}
		for i, seat := range f.Seats {
			if err := j.Join(jt, "edited-1", seat, fmt.Sprintf("KEY%d", i)); err != nil {
				return err
			}
		}
		if err := j.Start(jt, "edited-1", now); err != nil {
			return err
		}
		if _, err := j.Tick(t.Context(), jt, "edited-1", now.Add(73*time.Hour)); err != nil {
			return fmt.Errorf("the first step: %w", err)
		}
		g, err := jt.Game("edited-1")
		if err != nil {
			return err
		}
		if g.Step < 2 {
			return fmt.Errorf("the first step was not adjudicated: the game is at step %d", g.Step)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestBrowserEditHexMap: a game master paints 1995's map in the editor in
// real Chromium: a terrain the game has not is refused live, at the hex,
// in create's words, and undone; mountains, a river, a road and a city
// are painted, a counter's field changed in the table; saved, the files
// make a game whose first step the judge adjudicates.
func TestBrowserEditHexMap(t *testing.T) {
	ctx, con := browser(t)
	root, mapPath, countersPath := editorOn(t, "pcs1995", true,
		[2]string{"[grid]\norientation = \"flat-top\"\n", "# grid: as printed on the map's edge\n[grid]\norientation = \"flat-top\" # checked against the scan\n"})
	runIn(t, ctx, time.Minute, chromedp.EmulateViewport(1400, 1000), chromedp.Navigate(root), chromedp.WaitVisible(css(`body[data-ready="yes"]`)))
	if ok, msg := checked(t, ctx); !ok {
		t.Fatalf("the demo files are refused: %s", msg)
	}
	runIn(t, ctx, time.Minute, tool(ctx, "terrain", "swamp", ""))
	clickOn(t, ctx, "1510")
	ok, msg := checked(t, ctx)
	if ok || !strings.Contains(msg, `pcs1995: map: option map:`) || !strings.Contains(msg, `"swamp": want clear, mountain or sea`) {
		t.Fatalf("a swamp: accepted %v, %q", ok, msg)
	}
	runIn(t, ctx, time.Minute, chromedp.Click(css("#undo")))
	if ok, msg := checked(t, ctx); !ok {
		t.Fatalf("after undo: %s", msg)
	}
	runIn(t, ctx, time.Minute, tool(ctx, "terrain", "mountain", ""))
	clickOn(t, ctx, "1510")
	clickOn(t, ctx, "1511")
	runIn(t, ctx, time.Minute, tool(ctx, "side", "river", ""))
	clickOn(t, ctx, "1610/1611")
	runIn(t, ctx, time.Minute, tool(ctx, "road", "road", ""))
	for _, h := range []string{"1313", "1413", "1513"} {
		clickOn(t, ctx, h)
	}
	runIn(t, ctx, time.Minute, chromedp.Click(css("#endroad")))
	runIn(t, ctx, time.Minute, tool(ctx, "place", "city", "Editville"))
	clickOn(t, ctx, "1513")
	if ok, msg := checked(t, ctx); !ok {
		t.Fatalf("the painted map is refused: %s", msg)
	}
	// the counter table: the first unit's name
	runIn(t, ctx, time.Minute, chromedp.SetValue(css(`input[aria-label="unit 1 name"]`), "Painted Brigade"))
	get(t, ctx, chromedp.Evaluate[bool](`document.querySelector('input[aria-label="unit 1 name"]').dispatchEvent(new Event("change"))`))
	if ok, msg := checked(t, ctx); !ok {
		t.Fatalf("the counters are refused: %s", msg)
	}
	if *screenshots {
		runIn(t, ctx, time.Minute, chromedp.SetValue(css("#judgeop"), "40"))
		get(t, ctx, chromedp.Evaluate[bool](`document.getElementById("judgeop").dispatchEvent(new Event("input"))`))
		buf := get(t, ctx, chromedp.FullScreenshot(100))
		if err := os.WriteFile("../../docs/editor-hex.png", buf, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	runIn(t, ctx, time.Minute, chromedp.Click(css("#save")), chromedp.WaitVisible(css(`#status[data-saved]`)))
	saved, _ := os.ReadFile(mapPath)
	for _, want := range []string{`"1510"`, `"1610/1611"`, `path = ["1313", "1413", "1513"]`, `name = "Editville"`,
		"# grid: as printed on the map's edge\n[grid]\norientation = \"flat-top\" # checked against the scan\n"} {
		if !strings.Contains(string(saved), want) {
			t.Errorf("the saved map lacks %s", want)
		}
	}
	if c, _ := os.ReadFile(countersPath); !strings.Contains(string(c), `"Painted Brigade"`) {
		t.Error("the saved counters lack the name typed")
	}
	if errs := con.take(); len(errs) > 0 {
		t.Errorf("console: %v", errs)
	}
	createAndPlay(t, "pcs1995", map[string]string{"map": mapPath, "counters": countersPath})
}

// TestBrowserEditNetwork: B&U's network: a space placed with a click is
// refused until its control is given, then joined to Tuzla by a road;
// saved, the map makes a game whose first step the judge adjudicates.
func TestBrowserEditNetwork(t *testing.T) {
	ctx, con := browser(t)
	root, mapPath, _ := editorOn(t, "bu", false)
	runIn(t, ctx, time.Minute, chromedp.EmulateViewport(1400, 1000), chromedp.Navigate(root), chromedp.WaitVisible(css(`body[data-ready="yes"]`)))
	if ok, msg := checked(t, ctx); !ok {
		t.Fatalf("the demo map is refused: %s", msg)
	}
	runIn(t, ctx, time.Minute, tool(ctx, "space", "mountain", "Editgrad"))
	// an empty spot: 60 pixels right of Tuzla
	xy := get(t, ctx, chromedp.Evaluate[[]float64](`(() => { const c = umpireEdit.centre("Tuzla"); const vp = document.getElementById("viewport");
		vp.scrollLeft = c.x - 150; vp.scrollTop = c.y - 150; const r = document.getElementById("paint").getBoundingClientRect();
		return [r.left + c.x + 45, r.top + c.y - 45]; })()`))
	runIn(t, ctx, time.Minute, chromedp.MouseClickXY(xy[0], xy[1]))
	ok, msg := checked(t, ctx)
	if ok || !strings.Contains(msg, "bu: map: option map:") || !strings.Contains(msg, "control") {
		t.Fatalf("a space without control: accepted %v, %q", ok, msg)
	}
	runIn(t, ctx, time.Minute, chromedp.SetValue(css(`#spaceform label:nth-of-type(8) input`), "Bosniak"))
	get(t, ctx, chromedp.Evaluate[bool](`document.querySelector("#spaceform label:nth-of-type(8) input").dispatchEvent(new Event("change"))`))
	if ok, msg := checked(t, ctx); !ok {
		t.Fatalf("the space with its control: %s", msg)
	}
	runIn(t, ctx, time.Minute, tool(ctx, "link", "", ""))
	clickOn(t, ctx, "Tuzla")
	clickOn(t, ctx, "Editgrad")
	if ok, msg := checked(t, ctx); !ok {
		t.Fatalf("the road: %s", msg)
	}
	if *screenshots {
		buf := get(t, ctx, chromedp.FullScreenshot(100))
		if err := os.WriteFile("../../docs/editor-network.png", buf, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	runIn(t, ctx, time.Minute, chromedp.Click(css("#save")), chromedp.WaitVisible(css(`#status[data-saved]`)))
	saved, _ := os.ReadFile(mapPath)
	for _, want := range []string{`name = "Editgrad"`, `terrain = "mountain"`, `control = "Bosniak"`, `b = "Editgrad"`} {
		if !strings.Contains(string(saved), want) {
			t.Errorf("the saved map lacks %s", want)
		}
	}
	if errs := con.take(); len(errs) > 0 {
		t.Errorf("console: %v", errs)
	}
	createAndPlay(t, "bu", map[string]string{"map": mapPath})
}

// TestBrowserEditNewMap: a game master starts War by Television's map
// from nothing ('umpire edit wbt map.toml --size 1000..4039', the
// published map's hexes, FILE not there yet). The judge's live check says
// what its reader still needs, and the game master paints exactly that,
// read from the messages shown: each set the reader says is missing gets
// the hex the rules name for it. Saved, the map alone (the demo counters
// and CRT with it, as create takes a map given alone) makes a game whose
// first step the judge adjudicates.
func TestBrowserEditNewMap(t *testing.T) {
	ctx, con := browser(t)
	mapPath := filepath.Join(t.TempDir(), "wbt-map.toml")
	grid, err := editor.ParseSize("1000..4039")
	if err != nil {
		t.Fatal(err)
	}
	rules, err := games().Get("wbt")
	if err != nil {
		t.Fatal(err)
	}
	root := serveEditor(t, editor.Config{Game: rules, MapPath: mapPath, NewGrid: grid})
	runIn(t, ctx, time.Minute, chromedp.EmulateViewport(1400, 1000), chromedp.Navigate(root), chromedp.WaitVisible(css(`body[data-ready="yes"]`)))
	// the hexes the rules name for each set (8.7: the supply sources;
	// 11.19: the Milosevic Line from 2034)
	ruled := map[string]string{"supply_source": "3239", "milosevic_line": "2034"}
	missing := regexp.MustCompile(`field sets\.([a-z_0-9]+): missing`)
	var painted []string
	for {
		ok, msg := checked(t, ctx)
		if ok {
			break
		}
		m := missing.FindStringSubmatch(msg)
		if m == nil || ruled[m[1]] == "" || slices.Contains(painted, m[1]) {
			t.Fatalf("after painting the sets %v, the judge says what the test cannot paint: %q", painted, msg)
		}
		if !strings.HasPrefix(msg, "wbt: map: option map:") {
			t.Errorf("the message is not create's: %q", msg)
		}
		runIn(t, ctx, time.Minute, tool(ctx, "set", "", m[1]))
		clickOn(t, ctx, ruled[m[1]])
		painted = append(painted, m[1])
	}
	if len(painted) != 2 {
		t.Errorf("the new map was accepted after painting %v: want the two sets WbT's reader requires", painted)
	}
	if _, err := os.Stat(mapPath); err == nil {
		t.Error("the map file exists before Save")
	}
	runIn(t, ctx, time.Minute, chromedp.Click(css("#save")), chromedp.WaitVisible(css(`#status[data-saved]`)))
	saved, _ := os.ReadFile(mapPath)
	for _, want := range []string{`first = "1000"`, `last = "4039"`, `supply_source = ["3239"]`, `milosevic_line = ["2034"]`} {
		if !strings.Contains(string(saved), want) {
			t.Errorf("the saved map lacks %s:\n%s", want, saved)
		}
	}
	if errs := con.take(); len(errs) > 0 {
		t.Errorf("console: %v", errs)
	}
	createAndPlay(t, "wbt", map[string]string{"map": mapPath})
}
