//go:build integration

package main

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	"github.com/umpire-pbem/umpire/store"
)

// layoutDemos are each game's demo scenario, the one the docs show.
var layoutDemos = []struct{ kind, scenario string }{
	{"perrote", "demo"}, {"wbt", "demo"}, {"bu", "three"}, {"pcs1995", "demo"}, {"sms1914", "demo"},
}

// demoStore is a judge's store at path holding each game's demo played
// between the rules' bots through the adjudicator, as mail plays it (each
// seat owing sends the bot's signed orders, the game master processes the
// step): KIND-end to its end, KIND-mid to half as many steps. Dice roots
// and the clock are fixed, so the pages are the same at every run.
type demoStore struct {
	t   testing.TB
	db  *store.DB
	j   *adjudicator.Judge
	now time.Time
	n   uint64
}

func newDemoStore(t testing.TB, path string) *demoStore {
	t.Helper()
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := &demoStore{t: t, db: db, now: time.Date(2026, 11, 2, 12, 0, 0, 0, time.UTC)}
	p.j = &adjudicator.Judge{Games: games(), NewRoot: func() (dice.Hash, error) {
		p.n++
		return sha256.Sum256(binary.BigEndian.AppendUint64([]byte("page layout root"), p.n)), nil
	}}
	return p
}

func (p *demoStore) update(fn func(tx adjudicator.Tx) error) {
	p.t.Helper()
	p.now = p.now.Add(time.Hour)
	if err := p.db.Update(context.Background(), func(tx *store.Tx) error { return fn(tx.Judge(daemontest.JudgeAddress, p.now)) }); err != nil {
		p.t.Fatal(err)
	}
}

// play creates game id of kind and scenario, each seat held by a key of
// its own, and plays it to its end or, steps > 0, until that many steps
// are adjudicated. It returns the number of steps adjudicated.
func (p *demoStore) play(id, kind, scenario string, steps int) int {
	p.t.Helper()
	file := fmt.Sprintf("id = %q\ngame = %q\nscenario = %q\ngm = \"GMKEY\"\n[schedule]\nevery = \"72h\"\n", id, kind, scenario)
	f, err := adjudicator.ParseGameFile([]byte(file), p.j.Games)
	if err != nil {
		p.t.Fatal(err)
	}
	p.update(func(tx adjudicator.Tx) error {
		if err := p.j.Create(tx, f, []byte(file), p.now); err != nil {
			return err
		}
		if err := tx.PutKey(adjudicator.Key{Fingerprint: "GMKEY", Kind: "ssh", Address: "gm@players.test"}, nil); err != nil {
			return err
		}
		for _, seat := range f.Seats {
			key := fingerprint(id, seat)
			if err := tx.PutKey(adjudicator.Key{Fingerprint: key, Kind: "ssh", Address: strings.ToLower(seat) + "@players.test"}, []byte("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPublicKeyMaterial "+seat)); err != nil {
				return err
			}
			if err := p.j.Join(tx, id, seat, key); err != nil {
				return err
			}
		}
		return p.j.Start(tx, id, p.now)
	})
	rules, _ := p.j.Games.Get(kind)
	bot := rules.(adjudicator.Bot)
	// open is the open step's number, state and owing seats, or ended.
	open := func() (step uint64, state []byte, owing []string, ended bool) {
		p.update(func(tx adjudicator.Tx) error {
			g, err := tx.Game(id)
			if err != nil {
				return err
			}
			if ended = g.Status == adjudicator.Ended; ended {
				return nil
			}
			st, err := tx.Step(id, g.Step)
			step, state, owing = g.Step, st.State, st.Owing
			return err
		})
		return step, state, owing, ended
	}
	for range 400 {
		step, state, owing, ended := open()
		if ended || (steps > 0 && int(step) > steps) {
			return int(p.lastClosed(id))
		}
		for _, seat := range owing {
			lines, err := bot.Bot(state, seat)
			if err != nil {
				p.t.Fatal(err)
			}
			p.orders(id, step, seat, lines)
		}
		if _, _, _, ended := open(); !ended { // the last orders may have closed the step
			p.update(func(tx adjudicator.Tx) error { return p.j.Process(context.Background(), tx, id, p.now) })
		}
	}
	p.t.Fatalf("%s did not end in 400 steps", id)
	return 0
}

// fingerprint is the made-up fingerprint of the SSH key holding seat in
// game id, shaped as ssh-keygen prints one.
func fingerprint(id, seat string) string {
	h := sha256.Sum256([]byte(id + "/" + seat))
	return "SHA256:" + base64.RawStdEncoding.EncodeToString(h[:])
}

// lastClosed is the number of game id's last adjudicated step.
func (p *demoStore) lastClosed(id string) uint64 {
	p.t.Helper()
	var last uint64
	err := p.db.View(context.Background(), func(tx *store.Tx) error {
		steps, err := tx.Steps(id)
		for _, st := range steps {
			if st.Status == adjudicator.StepClosed {
				last = st.Number
			}
		}
		return err
	})
	if err != nil || last == 0 {
		p.t.Fatalf("%s: no step adjudicated (%v)", id, err)
	}
	return last
}

// orders sends seat's signed order file for step, as the intake takes it
// from mail.
func (p *demoStore) orders(id string, step uint64, seat string, lines []string) {
	p.t.Helper()
	text := fmt.Sprintf("game: %s\nstep: %d\nseat: %s\n%s\nend\n", id, step, seat, strings.Join(lines, "\n"))
	key := fingerprint(id, seat)
	env := &adjudicator.Envelope{MessageID: fmt.Sprintf("%s-%s-%d@players.test", id, seat, step), From: strings.ToLower(seat) + "@players.test",
		Received: p.now, Text: text, Signed: &adjudicator.Signature{Kind: "ssh", Fingerprint: key, Content: text, Signed: []byte(text)}}
	p.update(func(tx adjudicator.Tx) error {
		_, err := (&adjudicator.Intake{Judge: p.j}).Handle(context.Background(), tx, env)
		return err
	})
}

// layoutCheck is evaluated in a page: it opens every <details> and
// returns what the browser's own layout says is wrong, one line each (at
// most 20 of each kind), or nothing.
//
//   - the document is wider than the window (it scrolls sideways);
//   - an element's box reaches beyond the window's left or right edge and
//     no ancestor scrolls sideways on purpose (overflow-x auto or scroll,
//     or the zoomable map, which map.js pans): the outermost such element
//     is named;
//   - two text boxes (the line boxes of a text node, form controls)
//     overlap by more than 2 px both ways: text drawn over text;
//   - an element that hides its overflow (overflow hidden or clip) holds
//     text and is wider or taller inside than its box: text cut off.
//
// Text inside an SVG (the map's labels) is the map's business: its
// legibility is measured on the picture (templates.Legibility).
const layoutCheck = `(async () => {
  await new Promise(r => document.readyState === "complete" ? r() : addEventListener("load", r));
  await document.fonts.ready;
  for (const d of document.querySelectorAll("details")) d.open = true;
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const W = document.documentElement.clientWidth;
  const out = [];
  const name = (n) => {
    const e = n.nodeType === Node.TEXT_NODE ? n.parentElement : n;
    let s = e.tagName.toLowerCase();
    if (e.id) s += "#" + e.id;
    for (const c of e.classList) s += "." + c;
    const up = e.parentElement && e.parentElement !== document.body ? e.parentElement.tagName.toLowerCase() + (e.parentElement.className ? "." + String(e.parentElement.className).split(" ")[0] : "") + " > " : "";
    const text = (n.textContent || n.value || "").trim().replace(/\s+/g, " ");
    return up + s + (text ? ' "' + (text.length > 50 ? text.slice(0, 50) + "…" : text) + '"' : "");
  };
  const px = (v) => Math.round(v * 10) / 10;
  if (innerWidth > W) {
    out.push("the window shows " + innerWidth + " px of a page laid out for " + W + " px: the phone zooms the page out");
  }
  if (document.documentElement.scrollWidth > W) {
    out.push("the page is " + document.documentElement.scrollWidth + " px wide in a window of " + W + " px: it scrolls sideways");
  }
  const inSVG = (e) => e.closest("svg") !== null && e.tagName.toLowerCase() !== "svg";
  const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden";
  // scrolls: the element scrolls its content sideways on purpose.
  const scrolls = (a) => {
    const o = getComputedStyle(a).overflowX;
    return o === "auto" || o === "scroll" || a.matches("figure.map.zoomable");
  };
  const underScroller = (e) => { for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) if (scrolls(a)) return true; return false; };
  const all = [...document.body.querySelectorAll("*")].filter(e => !inSVG(e) && shown(e));
  const wide = new Set();
  for (const e of all) {
    const r = e.getBoundingClientRect();
    if ((r.right > W + 0.5 || r.left < -0.5) && r.width > 0 && !underScroller(e)) {
      wide.add(e);
      if (!wide.has(e.parentElement) && out.length < 20) {
        out.push("beyond the window (" + px(r.left) + " to " + px(r.right) + " px of " + W + "): " + name(e));
      }
    }
  }
  // clip is the part of rect r its clipping ancestors let show.
  const clip = (e, r) => {
    let x0 = r.left, y0 = r.top, x1 = r.right, y1 = r.bottom;
    for (let a = e; a && a !== document.body; a = a.parentElement) {
      if (a === e && a.nodeType !== Node.ELEMENT_NODE) continue;
      const s = getComputedStyle(a);
      if (s.overflowX !== "visible" || s.overflowY !== "visible") {
        const c = a.getBoundingClientRect();
        x0 = Math.max(x0, c.left); y0 = Math.max(y0, c.top); x1 = Math.min(x1, c.right); y1 = Math.min(y1, c.bottom);
      }
    }
    return x1 > x0 && y1 > y0 ? {l: x0, t: y0, r: x1, b: y1} : null;
  };
  const boxes = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const p = n.parentElement;
    if (!n.textContent.trim() || !p || p.closest("svg, script, style, noscript, textarea") || !shown(p)) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    for (const r of range.getClientRects()) {
      const c = r.width > 0 && r.height > 0 ? clip(p, r) : null;
      if (c) boxes.push({n, c});
    }
  }
  for (const e of all) {
    if (e.matches("input:not([type=hidden]), textarea, select, progress")) {
      const c = clip(e, e.getBoundingClientRect());
      if (c) boxes.push({n: e, c});
    }
  }
  let beyond = 0;
  for (const {n, c} of boxes) {
    if ((c.r > W + 0.5 || c.l < -0.5) && !wide.has(n.parentElement) && beyond++ < 20) {
      out.push("text beyond the window (" + px(c.l) + " to " + px(c.r) + " px of " + W + "): " + name(n));
    }
  }
  boxes.sort((a, b) => a.c.t - b.c.t);
  let overlaps = 0;
  for (let i = 0; i < boxes.length; i++) {
    const a = boxes[i];
    for (let j = i + 1; j < boxes.length && boxes[j].c.t < a.c.b - 2; j++) {
      const b = boxes[j];
      if (a.n === b.n || a.n.contains(b.n) || b.n.contains(a.n)) continue;
      const w = Math.min(a.c.r, b.c.r) - Math.max(a.c.l, b.c.l), h = Math.min(a.c.b, b.c.b) - Math.max(a.c.t, b.c.t);
      if (w > 2 && h > 2 && overlaps++ < 20) {
        out.push("text over text (" + px(w) + " × " + px(h) + " px): " + name(a.n) + " and " + name(b.n));
      }
    }
  }
  for (const e of all) {
    const s = getComputedStyle(e);
    const hides = (o) => o === "hidden" || o === "clip";
    if (!e.textContent.trim() || !(hides(s.overflowX) || hides(s.overflowY)) || scrolls(e)) continue;
    if ((hides(s.overflowX) && e.scrollWidth > e.clientWidth + 1) || (hides(s.overflowY) && e.scrollHeight > e.clientHeight + 1)) {
      out.push("text cut off by its box (" + e.scrollWidth + " × " + e.scrollHeight + " px in " + e.clientWidth + " × " + e.clientHeight + "): " + name(e));
    }
  }
  return out;
})()`

// layoutWidths are the windows the pages are read in: a desktop's and a
// phone's (an iPhone's 390 × 844 CSS px at 3 device pixels to one, as a
// mobile browser, so the media queries and the viewport meta apply).
// Screenshots (shot) are taken at one device pixel to one CSS pixel and
// cut at shotHeight CSS px (the map, the seats, the tracks and the dice,
// the first units), to keep their files small.
var layoutWidths = []struct {
	name       string
	width      int64
	emu, shot  chromedp.Action[chromedp.Void]
	shotHeight float64
}{
	{"1280", 1280, chromedp.EmulateViewport(1280, 900), chromedp.EmulateViewport(1280, 900), 1500},
	{"390", 390, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(3), chromedp.EmulateMobile, chromedp.EmulateTouch),
		chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(1), chromedp.EmulateMobile, chromedp.EmulateTouch), 2400},
}

// TestPageLayout serves each game's demo played to half its steps and to
// its end, and reads in Chromium, at 1280 px and at a phone's 390 px, the
// list of games and for each game its page, its last step's page and its
// verifier (before and after verifying the game's log): by the browser's
// own layout (element and text boxes), no page scrolls sideways, nothing
// reaches beyond the window but inside a deliberate scroller, no text is
// drawn over other text and none is cut off by its box. With -screenshots
// it writes each game's page, at both widths, into docs/web/.
func TestPageLayout(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "umpire.db")
	ps := newDemoStore(t, path)
	var targets []string
	for _, d := range layoutDemos {
		end := ps.play(d.kind+"-end", d.kind, d.scenario, 0)
		mid := ps.play(d.kind+"-mid", d.kind, d.scenario, max(1, end/2))
		t.Logf("%s: %d steps to the end, the mid-game page after %d", d.kind, end, mid)
		for _, id := range []string{d.kind + "-end", d.kind + "-mid"} {
			targets = append(targets, "games/"+id+"/", fmt.Sprintf("games/%s/steps/%d", id, ps.lastClosed(id)), "games/"+id+"/verify", "games/"+id+"/verify#checked")
		}
	}
	if err := ps.db.Close(); err != nil {
		t.Fatal(err)
	}
	// and a page that is not there, and a verification that fails (a salt
	// for a seat the game does not have: the verdict and its reason).
	targets = append([]string{"", "verify", "games/no-such-game/", "games/pcs1995-mid/verify#failed"}, targets...)
	root, _ := webOn(t, path)
	ctx, cons := browser(t)

	for _, w := range layoutWidths {
		for _, target := range targets {
			url, verdict, verify := strings.Cut(target, "#")
			if verdict == "checked" {
				verdict = "ok"
			}
			actions := []chromedp.Action[chromedp.Void]{w.emu, chromedp.Navigate(root + url), chromedp.WaitReady(css("main"))}
			if verdict == "failed" {
				actions = append(actions, chromedp.SendKeys(css(`input[name="salt"]`), "Napoleon:"+strings.Repeat("0f", 32)))
			}
			if verify {
				actions = append(actions, chromedp.Click(css(`button[value="fetch"]`)), chromedp.WaitVisible(css(`#result[data-state]`)))
			}
			runIn(t, ctx, time.Minute, actions...)
			if verify {
				if state := get(t, ctx, chromedp.AttributeValue(css(`#result`), "data-state")).Value; state != verdict {
					t.Errorf("/%s at %s px: the verifier says %q, want %q", url, w.name, state, verdict)
				}
			}
			if got := get(t, ctx, chromedp.Evaluate[int64](`document.documentElement.clientWidth`)); got != w.width {
				t.Fatalf("the window is %d px wide, want %d", got, w.width)
			}
			problems := get(t, ctx, chromedp.Evaluate[[]string](layoutCheck, chromedp.EvalAwaitPromise))
			if len(problems) > 0 {
				t.Errorf("/%s at %s px:\n\t%s", target, w.name, strings.Join(problems, "\n\t"))
			}
		}
	}
	var errs []string
	for _, e := range cons.take() {
		if !strings.Contains(e, "status of 404") || !strings.Contains(e, "/games/no-such-game/") { // the 404 asked for
			errs = append(errs, e)
		}
	}
	if len(errs) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
	}

	// The check sees each fault it looks for: a game's page with a line
	// too wide for the phone, a word drawn over another, and text cut off
	// by a box that hides its overflow, is named for each, and for nothing
	// else (a wide table in a wrapper that scrolls is no fault).
	t.Run("the check sees", func(t *testing.T) {
		runIn(t, ctx, time.Minute, layoutWidths[1].emu, chromedp.Navigate(root+"games/perrote-mid/"), chromedp.WaitReady(css("main")))
		// (the pages' Content-Security-Policy ignores style attributes: the
		// faults are styled through the CSSOM, as a script may)
		get(t, ctx, chromedp.Evaluate[bool](`(() => {
			const add = (parent, tag, attrs, style, text) => {
				const e = document.createElement(tag);
				Object.assign(e, attrs);
				Object.assign(e.style, style);
				if (text) e.textContent = text;
				parent.append(e);
				return e;
			};
			const main = document.querySelector("main");
			add(main, "p", {id: "toowide"}, {whiteSpace: "nowrap"}, "Napoleon ".repeat(20));
			const pair = add(main, "div", {}, {position: "relative", height: "3em"});
			add(pair, "span", {id: "under"}, {}, "Grouchy marches");
			add(pair, "span", {id: "over"}, {position: "absolute", left: "1em", top: "0"}, "Blücher arrives");
			add(main, "div", {id: "cut"}, {width: "5em", overflow: "hidden", whiteSpace: "nowrap"}, "Quatre Bras and Ligny");
			const wrap = add(main, "div", {}, {overflowX: "auto"});
			add(add(add(wrap, "table", {}, {width: "900px"}), "tr"), "td", {}, {}, "a table wider than the phone");
			return true;
		})()`))
		problems := strings.Join(get(t, ctx, chromedp.Evaluate[[]string](layoutCheck, chromedp.EvalAwaitPromise)), "\n")
		for _, want := range []string{"it scrolls sideways", `beyond the window (16 to `, `p#toowide "Napoleon`, `text over text`, `span#under "Grouchy marches"`, `span#over "Blücher arrives"`, `text cut off by its box`, `div#cut "Quatre Bras and Ligny"`} {
			if !strings.Contains(problems, want) {
				t.Errorf("the check does not say %q:\n%s", want, problems)
			}
		}
		if strings.Contains(problems, "a table wider") {
			t.Errorf("the check names a table inside a wrapper that scrolls sideways:\n%s", problems)
		}
	})

	if *screenshots {
		dir := filepath.Join("..", "..", "docs", "web")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, d := range layoutDemos {
			for _, w := range layoutWidths {
				shootCapped(t, ctx, w.shot, root+"games/"+d.kind+"-mid/", filepath.Join(dir, d.kind+"-"+w.name+".png"), w.shotHeight)
			}
		}
	}
}

// shootCapped writes a PNG of the page at url as the window emu shows
// it, at one pixel to a CSS pixel, down to height CSS px at most.
func shootCapped(t *testing.T, ctx context.Context, emu chromedp.Action[chromedp.Void], url, file string, height float64) {
	t.Helper()
	runIn(t, ctx, time.Minute, emu, chromedp.Navigate(url), chromedp.WaitReady(css("main")))
	size := get(t, ctx, chromedp.Evaluate[[]float64](`document.fonts.ready.then(() => [document.documentElement.clientWidth, document.documentElement.scrollHeight])`, chromedp.EvalAwaitPromise))
	full := true
	r, err := chromedp.Call(ctx, page.CaptureScreenshot, page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatPng, CaptureBeyondViewport: &full, FromSurface: &full,
		Clip: &page.Viewport{X: 0, Y: 0, Width: size[0], Height: min(size[1], height), Scale: 1}})
	if err != nil {
		t.Fatalf("screenshot of %s: %v", url, err)
	}
	shot := r.Data
	if err := os.WriteFile(file, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s (%d KB)", file, len(shot)/1024)
}
