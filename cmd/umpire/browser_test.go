//go:build integration

package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"flag"
	"fmt"
	"image"
	"image/png"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
	"github.com/umpire-pbem/umpire/adjudicator/dice/spec"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/templates"
)

// The browser tests drive a real headless Chromium (Debian's chromium,
// which .ci/run installs) through the DevTools protocol: the pages load
// without a console error, the map's SVG is the PNG's picture, and the
// verifier in the page gives umpire verify's verdict word for word.

var screenshots = flag.Bool("screenshots", false, "write the pages' screenshots into docs/ (TestBrowserDemo)")

// chromium returns the path of the browser, or skips the test when there
// is none outside CI (in CI it must be there: .ci/run installs it).
func chromium(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("no chromium on this machine: .ci/run installs Debian's chromium")
	}
	t.Skip("no chromium on this machine (apt-get install chromium)")
	return ""
}

// console collects what a page reports as an error: console.error calls,
// uncaught exceptions and the browser's own log errors (a CSP violation,
// a failed load).
type console struct {
	mu   sync.Mutex
	errs []string
}

func (c *console) add(s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.errs = append(c.errs, s)
}

func (c *console) take() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.errs
	c.errs = nil
	return out
}

// browser starts headless Chromium with a fresh profile for the test and
// returns a tab's context and its console. The browser ends with the test.
func browser(t testing.TB) (context.Context, *console) {
	t.Helper()
	path := chromium(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.WindowSize(1600, 1200),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelTab(); cancelAlloc() })
	c := &console{}
	err := chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
				var args []string
				for _, a := range ev.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				c.add("console.error: " + strings.Join(args, " "))
			}
		case *runtime.EventExceptionThrown:
			c.add("exception: " + ev.ExceptionDetails.Text + " " + fmt.Sprint(ev.ExceptionDetails.Exception.Description))
		case *cdplog.EventEntryAdded:
			if ev.Entry.Level == cdplog.EntryLevelError {
				c.add("log: " + ev.Entry.Text + " " + ev.Entry.URL)
			}
		}
	})
	if err == nil {
		_, err = chromedp.Call(ctx, cdplog.Enable, cdp.Empty{})
	}
	if err == nil {
		_, err = chromedp.Call(ctx, runtime.Enable, cdp.Empty{})
	}
	if err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return ctx, c
}

// runIn runs browser actions with a deadline.
func runIn(t testing.TB, ctx context.Context, d time.Duration, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("browser: %v", err)
	}
}

// get runs one browser action that gives a value.
func get[T any](t testing.TB, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatalf("browser: %v", err)
	}
	return v
}

func css(s string) chromedp.CSS { return chromedp.CSS(s) }

// webOn serves the pages of the store at path on loopback for the test and
// returns their root URL.
func webOn(t testing.TB, path string) (string, *store.DB) {
	t.Helper()
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := daemon.DefaultConfig()
	cfg.Games, cfg.Address, cfg.Web = games(), daemontest.JudgeAddress, &daemon.WebConfig{Address: "127.0.0.1:0", Rate: 1000, Burst: 1000}
	cfg.IMAP.Address, cfg.SMTP.Address = "127.0.0.1:1", "127.0.0.1:1" // never reached: the judge only serves its pages
	d, err := daemon.New(context.Background(), cfg, db)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		d.ServeWeb(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		d.Close()
		db.Close()
	})
	return d.WebURL(), db
}

// verifyIn runs the page's verifier on the log the form is given (the
// game's own log when file is "", else the file uploaded) and returns the
// verdict's state and text.
func verifyIn(t testing.TB, ctx context.Context, url, file string) (state, text string) {
	t.Helper()
	return verifyWith(t, ctx, url, file, "")
}

// verifyWith is verifyIn with a seat's salt ("SEAT:SALT") in the form.
func verifyWith(t testing.TB, ctx context.Context, url, file, salt string) (state, text string) {
	t.Helper()
	actions := []chromedp.Action[chromedp.Void]{chromedp.Navigate(url), chromedp.WaitReady(css("#verify"))}
	if salt != "" {
		actions = append(actions, chromedp.SendKeys(css(`input[name="salt"]`), salt))
	}
	if file == "" {
		actions = append(actions, chromedp.Click(css(`button[value="fetch"]`)))
	} else {
		actions = append(actions, chromedp.SetUploadFiles(css(`input[name="file"]`), []string{file}),
			chromedp.Click(css(`button[value="own"]`)))
	}
	actions = append(actions, chromedp.WaitVisible(css(`#result[data-state]`)))
	runIn(t, ctx, 2*time.Minute, actions...)
	state = get(t, ctx, chromedp.AttributeValue(css(`#result`), "data-state")).Value
	text = get(t, ctx, chromedp.TextContent(css(`#result pre`)))
	return state, text
}

// goVerify is umpire verify's text for the log in file, as the page names
// it.
func goVerify(t testing.TB, file, name string, salts map[string]dice.Hash) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	res, err := dice.VerifyStream(bytes.NewReader(data), dice.VerifyOptions{Salts: salts})
	var v1 *dice.LegacyExport
	switch {
	case err == nil:
		templates.WriteVerification(&buf, name, res, nil)
	case isV1(err, &v1):
		x, err := legacy.ReadExport(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		templates.WriteLegacyVerification(&buf, name, legacy.Verify(x, nil))
	default:
		t.Fatalf("%s: %v", file, err)
	}
	return strings.TrimRight(buf.String(), "\n")
}

func isV1(err error, v1 **dice.LegacyExport) bool {
	e, ok := err.(*dice.LegacyExport)
	*v1 = e
	return ok
}

// TestBrowserDemo plays the demo, serves its store and opens the pages in
// Chromium: the list and the game's page load without a console error and
// show the map; the map's SVG, as the browser draws it, is the PNG the
// reports carry; the verifier accepts the demo's log and names the same
// failing record as umpire verify for the forged copy, in the same words;
// and it reads a v1 log and v2 logs with beacon rounds as umpire verify
// does.
func TestBrowserDemo(t *testing.T) {
	t.Parallel()
	ctx, cons := browser(t)
	dir := t.TempDir()
	if code, out, errOut := run(t, "demo", "--dir", dir, "--web", "off", "--serve=false"); code != exitOK {
		t.Fatalf("demo: exit %d\n%s\n%s", code, out, errOut)
	}
	root, db := webOn(t, filepath.Join(dir, "umpire.db"))

	t.Run("pages", func(t *testing.T) {
		runIn(t, ctx, time.Minute, chromedp.Navigate(root), chromedp.WaitVisible(css(`table.games`)))
		if n := get(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll("table.games a[href*='demo-1']").length`)); n == 0 {
			t.Error("the list of games does not link demo-1")
		}
		runIn(t, ctx, time.Minute, chromedp.Navigate(root+"games/demo-1/"), chromedp.WaitVisible(css(`figure.map svg`)))
		if !get(t, ctx, chromedp.Evaluate[bool](`document.fonts.ready.then(() => document.fonts.check("12px Go"))`, chromedp.EvalAwaitPromise)) {
			t.Error("the Go font of the map did not load")
		}
		if n := get(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll("figure.map svg text").length`)); n < 100 {
			t.Errorf("the game page's map has %d texts", n)
		}
		runIn(t, ctx, time.Minute, chromedp.Navigate(root+"games/demo-1/steps/2"), chromedp.WaitVisible(css(`ol.events`)))
		if errs := cons.take(); len(errs) > 0 {
			t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
		}
	})

	// The game's page shows the dice log head whole, as the reports quote
	// it, and its copy button puts it on the clipboard: the test grants the
	// page the clipboard, presses the button and reads the clipboard back.
	t.Run("head and its copy button", func(t *testing.T) {
		var want string
		err := db.View(context.Background(), func(tx *store.Tx) error {
			steps, err := tx.Steps("demo-1")
			for _, st := range steps {
				if st.Status == adjudicator.StepClosed && st.Dice != nil {
					want = st.Dice.Head.String()
				}
			}
			return err
		})
		if err != nil || len(want) != 64 {
			t.Fatalf("the demo's last head %q: %v", want, err)
		}
		origin := strings.TrimSuffix(root, "/")
		if u, err := url.Parse(root); err == nil {
			origin = u.Scheme + "://" + u.Host
		}
		for _, name := range []string{"clipboard-read", "clipboard-write"} {
			if _, err := chromedp.Call(ctx, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
				Permission: &cdpbrowser.PermissionDescriptor{Name: name, AllowWithoutSanitization: true}, Setting: cdpbrowser.PermissionSettingGranted, Origin: origin}); err != nil {
				t.Fatalf("granting %s: %v", name, err)
			}
		}
		if _, err := chromedp.Call(ctx, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true}); err != nil {
			t.Fatal(err)
		}
		runIn(t, ctx, time.Minute, chromedp.Navigate(root+"games/demo-1/"), chromedp.WaitVisible(css(`button[data-copy]`)))
		if shown := strings.TrimSpace(get(t, ctx, chromedp.TextContent(css(`#dice-head`)))); shown != want {
			t.Errorf("the page shows the head %q, the last report %q", shown, want)
		}
		if data := get(t, ctx, chromedp.AttributeValue(css(`button[data-copy]`), "data-copy")).Value; data != want {
			t.Errorf("the copy button holds %q, want %q", data, want)
		}
		runIn(t, ctx, time.Minute, chromedp.Click(css(`button[data-copy]`)))
		got := get(t, ctx, chromedp.Evaluate[string](`navigator.clipboard.readText()`, chromedp.EvalAwaitPromise))
		if got != want {
			t.Errorf("the copy button put %q on the clipboard, want %q", got, want)
		}
		if label := get(t, ctx, chromedp.TextContent(css(`button[data-copy]`))); label != "Copied" {
			t.Errorf("the button says %q after the copy", label)
		}
		if errs := cons.take(); len(errs) > 0 {
			t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
		}
	})

	// The map zooms under the wheel (its viewBox narrows), a click on a
	// hex holding units opens a box listing each of them with its
	// values, as the judge's picture has them, and hovering a line of
	// the events marks the hex it names.
	t.Run("map zoom, stack and marks", func(t *testing.T) {
		var snap *adjudicator.Report
		err := db.View(context.Background(), func(tx *store.Tx) (err error) {
			snap, err = (&adjudicator.Judge{Games: games()}).Snapshot(tx.Judge(daemontest.JudgeAddress, time.Now()), "demo-1")
			return err
		})
		if err != nil || snap.Picture == nil || len(snap.Picture.Counters) == 0 {
			t.Fatalf("snapshot: %v", err)
		}
		runIn(t, ctx, time.Minute, chromedp.Navigate(root+"games/demo-1/"), chromedp.WaitVisible(css(`figure.map .mapzoom`)))
		before := get(t, ctx, chromedp.Evaluate[string](`document.querySelector("figure.map svg").getAttribute("viewBox")`))
		c := get(t, ctx, chromedp.Evaluate[[]float64](`(() => { const r = document.querySelector("figure.map svg").getBoundingClientRect(); return [r.left + r.width/2, r.top + r.height/2]; })()`))
		// the protocol wants both deltas, and leaves a zero out: DeltaX is a hair
		if _, err := chromedp.Call(ctx, input.DispatchMouseEvent, input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMouseWheel, X: c[0], Y: c[1], DeltaX: 0.01, DeltaY: -400}); err != nil {
			t.Fatal(err)
		}
		after := get(t, ctx, chromedp.Evaluate[string](`document.querySelector("figure.map svg").getAttribute("viewBox")`))
		var x0, y0, w0, h0, x1, y1, w1, h1 float64
		fmt.Sscan(before, &x0, &y0, &w0, &h0)
		fmt.Sscan(after, &x1, &y1, &w1, &h1)
		if !(w1 < w0*0.9 && h1 < h0*0.9) {
			t.Errorf("the wheel did not zoom the map in: viewBox %q, then %q", before, after)
		}

		hex := snap.Picture.Counters[0].Hex.String()
		var want []board.Counter
		for _, cn := range snap.Picture.Counters {
			if cn.Hex.String() == hex {
				want = append(want, cn)
			}
		}
		// As a player would, show the whole map again (the zoom above may have
		// left the hex outside the picture) and scroll the hex into the window
		// before clicking it (the page above the map may be taller than it).
		get(t, ctx, chromedp.Evaluate[bool](`(() => { [...document.querySelectorAll("figure.map button")].find(b => b.textContent === "Whole map").click(); return true; })()`))
		p := get(t, ctx, chromedp.Evaluate[[]float64](`(() => { const e = document.querySelector('figure.map rect[data-hex="`+hex+`"]'); e.scrollIntoView({block: "center", inline: "center"}); const r = e.getBoundingClientRect(); return [r.left + r.width/2, r.top + r.height/2]; })()`))
		runIn(t, ctx, time.Minute, chromedp.MouseClickXY(p[0], p[1]), chromedp.WaitVisible(css(`.stackbox`)))
		box := get(t, ctx, chromedp.TextContent(css(`.stackbox`)))
		if !strings.Contains(box, hex) {
			t.Errorf("the box of hex %s does not name it: %q", hex, box)
		}
		rows := get(t, ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll(".stackbox tbody tr")].map(tr => [...tr.cells].map(td => td.textContent).join("|"))`))
		if len(rows) != len(want) {
			t.Errorf("the box of hex %s lists %q, want %d units", hex, rows, len(want))
		}
		for i, cn := range want {
			if line := strings.Join([]string{cn.ID, cn.Side, cn.Type, cn.Strength, strings.Join(cn.Markers, " ")}, "|"); i >= len(rows) || rows[i] != line {
				t.Errorf("the box's unit %d: %q, want %q", i, rows[min(i, len(rows)-1)], line)
			}
		}

		li := get(t, ctx, chromedp.Evaluate[[]string](`(() => { const li = document.querySelector("ol.events li[data-places]"); if (!li) return []; li.scrollIntoView(); const r = li.getBoundingClientRect(); return [li.dataset.places.split("|")[0], String(r.left + 10), String(r.top + r.height/2)]; })()`))
		if len(li) == 0 {
			t.Fatal("no line of the last step's events names a hex of the map")
		}
		var lx, ly float64
		fmt.Sscan(li[1], &lx)
		fmt.Sscan(li[2], &ly)
		runIn(t, ctx, time.Minute, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, lx, ly))
		if n := get(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll('figure.map g.marks circle[data-mark="`+li[0]+`"]').length`)); n != 1 {
			t.Errorf("hovering the line naming %s marks it %d times", li[0], n)
		}
		runIn(t, ctx, time.Minute, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 1, 1))
		if n := get(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll('figure.map g.marks circle').length`)); n != 0 {
			t.Errorf("%d marks stay after the pointer left the line", n)
		}
		if errs := cons.take(); len(errs) > 0 {
			t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
		}
	})

	t.Run("svg is the png", func(t *testing.T) {
		var snap *adjudicator.Report
		err := db.View(context.Background(), func(tx *store.Tx) (err error) {
			snap, err = (&adjudicator.Judge{Games: games()}).Snapshot(tx.Judge(daemontest.JudgeAddress, time.Now()), "demo-1")
			return err
		})
		if err != nil || snap.Picture == nil {
			t.Fatalf("snapshot: %v", err)
		}
		want, err := templates.Render(*snap.Picture)
		if err != nil {
			t.Fatal(err)
		}
		runIn(t, ctx, time.Minute, chromedp.Navigate(root+"games/demo-1/"), chromedp.WaitVisible(css(`figure.map svg`)))
		get(t, ctx, chromedp.Evaluate[bool](`document.fonts.ready.then(() => true)`, chromedp.EvalAwaitPromise))
		shot := get(t, ctx, chromedp.Screenshot(css(`figure.map svg`)))
		got, err := png.Decode(bytes.NewReader(shot))
		if err != nil {
			t.Fatal(err)
		}
		if got.Bounds().Size() != want.Bounds().Size() {
			t.Fatalf("the browser drew the SVG %v, the PNG is %v", got.Bounds().Size(), want.Bounds().Size())
		}
		far, total := comparePictures(got, want)
		t.Logf("SVG drawn by Chromium vs PNG: %d of %d pixels (%.2f%%) differ from every pixel around them", far, total, 100*float64(far)/float64(total))
		if float64(far) > 0.01*float64(total) {
			t.Errorf("%d of %d pixels of the SVG differ from the PNG: not the same picture", far, total)
		}
		// the measure tells pictures apart: the map after step 1 is
		// another picture (units elsewhere, other arrows).
		var step1 *adjudicator.Report
		err = db.View(context.Background(), func(tx *store.Tx) (err error) {
			step1, err = (&adjudicator.Judge{Games: games()}).BuildReport(tx.Judge(daemontest.JudgeAddress, time.Now()), "demo-1", 1, adjudicator.Spectator)
			return err
		})
		if err != nil || step1.Picture == nil {
			t.Fatalf("step 1: %v", err)
		}
		other, err := templates.Render(*step1.Picture)
		if err != nil {
			t.Fatal(err)
		}
		if other.Bounds().Size() == got.Bounds().Size() {
			if far, total := comparePictures(got, other); float64(far) <= 0.01*float64(total) {
				t.Errorf("the SVG of the map now matches the PNG of step 1 too (%d of %d pixels differ): the comparison tells nothing", far, total)
			}
		}
	})

	t.Run("verify", func(t *testing.T) {
		state, text := verifyIn(t, ctx, root+"games/demo-1/verify", "")
		want := goVerify(t, filepath.Join(dir, "demo-1-log.json"), "demo-1-log.json", nil)
		if state != "ok" || text != want {
			t.Errorf("the demo's log in the browser: %s\n%s\nwant (umpire verify):\n%s", state, text, want)
		}
		forged := filepath.Join(dir, "demo-1-forged.json")
		state, text = verifyIn(t, ctx, root+"verify", forged)
		want = goVerify(t, forged, "demo-1-forged.json", nil)
		if state != "failed" || text != want || !strings.Contains(text, "record 4 (draw seq 1 of step 1)") {
			t.Errorf("the forged log in the browser: %s\n%s\nwant (umpire verify):\n%s", state, text, want)
		}
		if errs := cons.take(); len(errs) > 0 {
			t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
		}
	})

	t.Run("other logs", func(t *testing.T) {
		for _, file := range []string{
			"../../docs/examples/dice-log-example.json",
			"../../adjudicator/dice/testdata/dice-v2-example.json",
			"../../adjudicator/dice/testdata/dice-v2-example-ended.json",
			"../../adjudicator/dice/testdata/dice-v2-example-tampered.json",
			"../../adjudicator/dice/testdata/dice-v3-example.json",
			"../../adjudicator/dice/testdata/dice-v3-example-ended.json",
			"../../adjudicator/dice/testdata/dice-v3-example-tampered.json",
		} {
			abs, _ := filepath.Abs(file)
			state, text := verifyIn(t, ctx, root+"verify", abs)
			want := goVerify(t, abs, filepath.Base(abs), nil)
			wantState := "ok"
			if strings.HasPrefix(want, "FAILED") {
				wantState = "failed"
			}
			if state != wantState || text != want {
				t.Errorf("%s in the browser: %s\n%s\nwant (umpire verify):\n%s", filepath.Base(file), state, text, want)
			}
		}
	})

	// A seat checks its salt against the v3 example's start record, and
	// gets its order entries, as umpire verify --salt gives them; another
	// seat's salt fails at record 2 in the same words.
	t.Run("salt", func(t *testing.T) {
		abs, _ := filepath.Abs("../../adjudicator/dice/testdata/dice-v3-example.json")
		var sealed dice.Hash
		sealed[31] = 2
		for _, seat := range []string{"A", "B"} {
			salt := dice.OrderSalt(sealed, "A")
			state, text := verifyWith(t, ctx, root+"verify", abs, seat+":"+salt.String())
			want := goVerify(t, abs, filepath.Base(abs), map[string]dice.Hash{seat: salt})
			if wantState := map[string]string{"A": "ok", "B": "failed"}[seat]; state != wantState || text != want {
				t.Errorf("seat %s's salt in the browser: %s\n%s\nwant (umpire verify --salt):\n%s", seat, state, text, want)
			}
			if seat == "A" && !strings.Contains(text, "digest 44beb807f63682dda63e2b701457b272f807c6ca8118542c441cea1a6cdd1dc4") {
				t.Errorf("A's entries are not listed:\n%s", text)
			}
		}
	})

	if *screenshots {
		shoot(t, ctx, root+"games/demo-1/", "../../docs/web-game.png", nil)
		shoot(t, ctx, root+"games/demo-1/verify", "../../docs/web-verify.png", chromedp.Steps(
			chromedp.Click(css(`button[value="fetch"]`)),
			chromedp.WaitVisible(css(`#result[data-state]`)),
		))
	}
}

// comparePictures counts the pixels of a that differ by more than a
// quarter of full scale in some channel from the pixel of b at the same
// place and from each of its eight neighbours: an edge drawn a pixel
// aside by another rasterizer counts as the same picture, a shape or a
// colour that is not there does not.
func comparePictures(a, b image.Image) (far, total int) {
	r, rb := a.Bounds(), b.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			ar, ag, ab, _ := a.At(x, y).RGBA()
			near := false
			for dy := -1; dy <= 1 && !near; dy++ {
				for dx := -1; dx <= 1 && !near; dx++ {
					p := image.Pt(x-r.Min.X+rb.Min.X+dx, y-r.Min.Y+rb.Min.Y+dy)
					if !p.In(rb) {
						continue
					}
					br, bg, bb, _ := b.At(p.X, p.Y).RGBA()
					near = max(absDiff(ar, br), absDiff(ag, bg), absDiff(ab, bb))>>8 <= 64
				}
			}
			if !near {
				far++
			}
			total++
		}
	}
	return far, total
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

// shoot writes a screenshot of the page at url, on a phone-wide and a
// desktop-wide screen side by side is too much: the desktop one, 1280 px.
func shoot(t *testing.T, ctx context.Context, url, file string, then chromedp.Action[chromedp.Void]) {
	t.Helper()
	runIn(t, ctx, time.Minute, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(url), chromedp.WaitReady(css("main")))
	get(t, ctx, chromedp.Evaluate[bool](`document.fonts.ready.then(() => true)`, chromedp.EvalAwaitPromise))
	if then != nil {
		runIn(t, ctx, time.Minute, then)
	}
	buf := get(t, ctx, chromedp.FullScreenshot(100)) // 100: PNG
	if err := os.WriteFile(file, buf, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", file)
}

// bigLog writes an umpire-dice-v2 export of n draws (1000 steps of n/1000
// draws: 2d6, d10 read 0-9, chits) and returns its path and head.
func bigLog(t testing.TB, n int) (string, dice.Hash) {
	t.Helper()
	root := func(s string) dice.Hash { return sha256.Sum256([]byte(s)) }
	const steps = 1000
	chain := dice.Chain{Root: root("open"), Length: 2048}.WithCheckpoints()
	sealed := root("sealed")
	var l dice.Ledger
	recs := make([]dice.Record, 0, n+steps+1)
	hdr := dice.Record{Type: dice.TypeHeader, Header: &dice.Header{Game: "big-1", Rules: "fake", RulesVersion: "1",
		ChainLength: chain.Length, OpenCommitment: chain.Commitment(), SealedCommitment: dice.SealedCommitment(sealed)}}
	if err := l.Append(&hdr); err != nil {
		t.Fatal(err)
	}
	recs = append(recs, hdr)
	specs := []spec.Spec{spec.Dice(2, 6), spec.DiceFrom(1, 10, 0), spec.Chit(12)}
	for k := uint64(1); k <= steps; k++ {
		link, err := chain.Link(k)
		if err != nil {
			t.Fatal(err)
		}
		orders := []dice.OrderEntry{{Seat: "A", ForStep: k, Version: 1, Digest: root(fmt.Sprint("A", k))},
			{Seat: "B", ForStep: k, Version: 2, Digest: root(fmt.Sprint("B", k))}}
		phase := fmt.Sprintf("turn-%d", k)
		d := l.StepDigest("big-1", k, phase, orders, nil)
		st := dice.Record{Type: dice.TypeStep, Step: &dice.Step{K: k, Phase: phase, Close: 1700000000 + 3600*k, ClosedBy: dice.ClosedByDeadline,
			Orders: orders, OpenLink: link, Digest: d}}
		if err := l.Append(&st); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, st)
		r := dice.NewStepRoller(&l, k, d, link, nil, nil)
		for i := range n / steps {
			r.Draw(dice.Open, specs[i%len(specs)], fmt.Sprintf("draw %d of step %d", i+1, k))
		}
		recs = append(recs, r.Records()...)
	}
	path := filepath.Join(t.TempDir(), "big-1-log.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	i := 0
	head, err := dice.WriteExport(f, nil, nil, func() (*dice.Record, error) {
		if i == len(recs) {
			return nil, nil
		}
		i++
		return &recs[i-1], nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return path, head
}

// TestBrowserVerifiesLargeLog has the browser verify a log of 100,000
// draws (a single run; BenchmarkBrowserVerify measures it): it verifies,
// with umpire verify's head. The time the browser took is logged.
func TestBrowserVerifiesLargeLog(t *testing.T) {
	t.Parallel()
	ctx, _ := browser(t)
	file, head := bigLog(t, 100000)
	root, _ := webOn(t, filepath.Join(t.TempDir(), "umpire.db"))
	start := time.Now()
	state, text := verifyIn(t, ctx, root+"verify", file)
	took := time.Since(start)
	ms := get(t, ctx, chromedp.AttributeValue(css(`#result`), "data-ms")).Value
	t.Logf("100,000 draws verified in the browser in %s ms (the worker), %v from the click", ms, took.Round(time.Millisecond))
	if state != "ok" || !strings.Contains(text, "101001 records: 1000 steps, 100000 draws (100000 re-derived)") || !strings.Contains(text, "Log head "+head.String()) {
		t.Errorf("the large log in the browser: %s\n%s", state, text)
	}
}

// BenchmarkBrowserVerify measures the in-browser verifier on a log of
// 100,000 draws: go test ./cmd/umpire -run XXX -bench BrowserVerify
// -benchtime 3x. It reports the worker's time as ms/log.
func BenchmarkBrowserVerify(b *testing.B) {
	ctx, _ := browser(b)
	file, _ := bigLog(b, 100000)
	root, _ := webOn(b, filepath.Join(b.TempDir(), "umpire.db"))
	var total time.Duration
	for b.Loop() {
		state, _ := verifyIn(b, ctx, root+"verify", file)
		if state != "ok" {
			b.Fatalf("state %s", state)
		}
		ms := get(b, ctx, chromedp.AttributeValue(css(`#result`), "data-ms")).Value
		var v int
		fmt.Sscan(ms, &v)
		total += time.Duration(v) * time.Millisecond
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms/log")
}
