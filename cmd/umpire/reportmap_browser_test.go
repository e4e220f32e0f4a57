//go:build integration

package main

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/templates"
)

// TestReportMapFitsWindow reads an HTML report with a map picture wider
// than a phone, as a mail client shows it (the cid: picture given to the
// page as the client does, here a data: URL), in Chromium at a phone's 390
// px and at 1280 px: the picture fits the window, the page scrolls no
// sideways, and a link opens the picture at full size.
func TestReportMapFitsWindow(t *testing.T) {
	rs, err := templates.NewReports("")
	if err != nil {
		t.Fatal(err)
	}
	var pic bytes.Buffer
	if err := png.Encode(&pic, image.NewRGBA(image.Rect(0, 0, 1800, 1200))); err != nil {
		t.Fatal(err)
	}
	r := &adjudicator.Report{Game: "demo-1", Step: 3, Phase: "movement", Situation: adjudicator.Situation{Picture: &board.Picture{}}}
	out, err := rs.RenderWith(r, templates.Picture{PNG: pic.Bytes()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.HTML, `href="cid:`+out.MapCID+`"`) {
		t.Errorf("the HTML report has no link to the full-size map (cid:%s)", out.MapCID)
	}
	page := strings.ReplaceAll(out.HTML, "cid:"+out.MapCID, "data:image/png;base64,"+base64.StdEncoding.EncodeToString(pic.Bytes()))
	file := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(file, []byte(page), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, _ := browser(t)
	for _, width := range []int64{390, 1280} {
		runIn(t, ctx, time.Minute, chromedp.EmulateViewport(width, 900), chromedp.Navigate("file://"+file), chromedp.WaitReady("img"))
		if !get(t, ctx, chromedp.Evaluate[bool](`document.querySelector("img").decode().then(() => true)`, chromedp.EvalAwaitPromise)) {
			t.Fatalf("at %d px: the picture did not load", width)
		}
		type box struct{ Img, Window, Scroll, Natural float64 }
		got := get(t, ctx, chromedp.Evaluate[box](`({Img: document.querySelector("img").getBoundingClientRect().right, Window: window.innerWidth,
			Scroll: document.documentElement.scrollWidth, Natural: document.querySelector("img").naturalWidth})`))
		if got.Natural != 1800 {
			t.Fatalf("at %d px: the picture did not load (natural width %v)", width, got.Natural)
		}
		if got.Img > got.Window {
			t.Errorf("at %d px: the map's right edge is at %v px, beyond the window's %v", width, got.Img, got.Window)
		}
		if got.Scroll > got.Window {
			t.Errorf("at %d px: the page is %v px wide and scrolls sideways", width, got.Scroll)
		}
	}
}
