package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	"github.com/umpire-pbem/umpire/cmd/umpire/web"
	"github.com/umpire-pbem/umpire/store"
)

// artGameFile is a fake game drawn on Grace's scan: the fake game's 8 × 6
// hexes, their layout origin 60 pixels in, 30 pixels a unit.
const artGameFile = `id = %q
game = "fake"
scenario = "duel"
title = "A duel on the real map"
map_image = "Grace's scan of the published map"
map_image_align = "60 60 30 30"
%s
[schedule]
every = "24h"
`

// scanMagenta is the scan's colour: no drawn map has it.
var scanMagenta = color.RGBA{200, 40, 200, 255}

func writeScan(t *testing.T, path string, w, h int) {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = scanMagenta.R, scanMagenta.G, scanMagenta.B, 255
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// pngClaiming is a PNG header that claims w × h pixels.
func pngClaiming(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 2
	binary.Write(&b, binary.BigEndian, uint32(13))
	chunk := append([]byte("IHDR"), ihdr...)
	b.Write(chunk)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}

// TestMapArtReport: the operator installs the game master's scan with
// 'umpire game image' (refusing what is not an image, an image of 20,000
// × 20,000 pixels and one the map does not fit, each with its reason);
// a seat's report is then drawn on the scan, its counters over it, and
// says whose image it is; the public web page, its step page and their
// SVG maps do not hold the image, unless the game file says
// map_image_public = true.
func TestMapArtReport(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "umpire.db")
	for id, extra := range map[string]string{"art-1": "", "art-pub": "map_image_public = true"} {
		file := filepath.Join(dir, id+".toml")
		os.WriteFile(file, []byte(fmt.Sprintf(artGameFile, id, extra)), 0o644)
		if code, out, errOut := run(t, "game", "new", file, "--store", dbPath); code != exitOK || !strings.Contains(out, "game "+id+" created") {
			t.Fatalf("game new %s: exit %d %q %q", id, code, out, errOut)
		}
	}
	scan := filepath.Join(dir, "scan.jpg")
	writeScan(t, scan, 420, 400)
	small := filepath.Join(dir, "small.jpg")
	writeScan(t, small, 200, 200)
	notImage := filepath.Join(dir, "map.toml")
	os.WriteFile(notImage, []byte("title = \"not an image\"\n"), 0o644)
	huge := filepath.Join(dir, "huge.png")
	os.WriteFile(huge, pngClaiming(20000, 20000), 0o644)
	for _, tt := range []struct{ file, want string }{
		{notImage, "not a PNG, JPEG or GIF image"},
		{huge, "20,000 × 20,000 pixels, over the limit of 100,000,000 pixels"},
		{small, "the map does not fit the image: hex 0104's centre falls at pixel (60, 216), outside the image of 200 × 200 pixels"},
	} {
		start := time.Now()
		code, out, errOut := run(t, "game", "image", "art-1", tt.file, "--store", dbPath)
		if code != exitUsage || !strings.Contains(errOut, tt.want) || out != "" {
			t.Errorf("game image %s: exit %d %q %q, want %q", filepath.Base(tt.file), code, out, errOut, tt.want)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("game image %s: refused after %v", filepath.Base(tt.file), d)
		}
	}
	for _, id := range []string{"art-1", "art-pub"} {
		code, out, errOut := run(t, "game", "image", id, scan, "--store", dbPath)
		if code != exitOK || !strings.Contains(out, "map image of "+id+" installed: a jpeg image of 420 × 400 pixels") {
			t.Fatalf("game image %s: exit %d %q %q", id, code, out, errOut)
		}
	}

	// Two players join and play a step (by the judge, as mail would).
	db, err := store.Open(dbPath, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	j := &adjudicator.Judge{Games: games()}
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	in := &adjudicator.Intake{Judge: j}
	err = db.Update(context.Background(), func(tx *store.Tx) error {
		jt := tx.Judge(daemontest.JudgeAddress, now)
		for _, id := range []string{"art-1", "art-pub"} {
			for _, seat := range []string{"A", "B"} {
				if err := j.Join(jt, id, seat, "K"+seat); err != nil {
					return err
				}
			}
			if err := j.Start(jt, id, now); err != nil {
				return err
			}
			for _, seat := range []string{"A", "B"} {
				text := "game: " + id + "\nstep: 1\nseat: " + seat + "\nroll 2\nend\n"
				env := &adjudicator.Envelope{MessageID: id + seat, Received: now, Text: text,
					Signed: &adjudicator.Signature{Kind: "ssh", Fingerprint: "K" + seat, Content: text, Signed: []byte(text)}}
				if _, err := in.Handle(context.Background(), jt, env); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var seatPic, publicPic *board.Picture
	db.View(context.Background(), func(tx *store.Tx) error {
		jt := tx.Judge(daemontest.JudgeAddress, now)
		r, err := j.BuildReport(jt, "art-1", 1, "A")
		if err != nil {
			t.Fatal(err)
		}
		seatPic = r.Picture
		if !strings.Contains(strings.Join(r.Notices, "\n"), "The map is drawn on Grace's scan of the published map, shown to this game's seats and game master only.") {
			t.Errorf("the seat's report does not say whose image it is: %q", r.Notices)
		}
		pub, err := j.BuildReport(jt, "art-1", 1, adjudicator.Spectator)
		if err != nil {
			t.Fatal(err)
		}
		publicPic = pub.Picture
		return nil
	})
	if seatPic == nil || seatPic.Art == nil || publicPic == nil || publicPic.Art != nil {
		t.Fatalf("the seat's picture carries %+v, the public one %+v", seatPic.Art, publicPic.Art)
	}

	// The seat's report, as the judge mails it: the scan under the counters.
	db.Close()
	out := filepath.Join(dir, "out") + "/"
	if d := os.Getenv("MAPART_OUT"); d != "" {
		out = d + "/"
	}
	if code, stdout, errOut := run(t, "render", "art-1", "--seat", "A", "--out", out, "--store", dbPath); code != exitOK {
		t.Fatalf("render: exit %d %q %q", code, stdout, errOut)
	}
	text, _ := os.ReadFile(filepath.Join(out, "art-1-step1-A.txt"))
	if !strings.Contains(string(text), "Grace's scan of the published map") {
		t.Errorf("the text report does not say whose image the map is on:\n%s", text)
	}
	f, err := os.Open(filepath.Join(out, "art-1-step1-A.png"))
	if err != nil {
		t.Fatal(err)
	}
	pic, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	near := func(c color.Color, want color.RGBA) bool {
		r, g, b, _ := c.RGBA()
		d := func(a uint32, w uint8) int { return max(int(a>>8)-int(w), int(w)-int(a>>8)) }
		return d(r, want.R) <= 20 && d(g, want.G) <= 20 && d(b, want.B) <= 20
	}
	counts := map[string]int{}
	bnds := pic.Bounds()
	for y := bnds.Min.Y; y < bnds.Max.Y; y++ {
		for x := bnds.Min.X; x < bnds.Max.X; x++ {
			c := pic.At(x, y)
			if near(c, scanMagenta) {
				counts["scan"]++
			}
			for _, cn := range seatPic.Counters {
				if near(c, hexColor(cn.Color)) {
					counts[cn.Side]++
				}
			}
		}
	}
	if area := bnds.Dx() * bnds.Dy(); counts["scan"] < area/4 {
		t.Errorf("the seat's map shows the scan in %d of %d pixels", counts["scan"], area)
	}
	for _, cn := range seatPic.Counters {
		if counts[cn.Side] < 100 {
			t.Errorf("the counters of %s show in %d pixels over the scan", cn.Side, counts[cn.Side])
		}
	}

	// The public pages: the image only where the game file makes it public.
	if db, err = store.Open(dbPath, store.Options{}); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	web := webOf(t, db)
	for _, tt := range []struct {
		id     string
		public bool
	}{{"art-1", false}, {"art-pub", true}} {
		for _, path := range []string{"/games/" + tt.id + "/", "/games/" + tt.id + "/map.svg", "/games/" + tt.id + "/steps/1", "/games/" + tt.id + "/steps/1/map.svg"} {
			resp, err := http.Get(web + path)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Errorf("%s: %s", path, resp.Status)
				continue
			}
			has := bytes.Contains(body, []byte("data:image/")) || bytes.Contains(body, []byte("<image"))
			if has != tt.public {
				t.Errorf("%s holds the image: %v, want %v", path, has, tt.public)
			}
			if says := bytes.Contains(body, []byte("Grace")); says != tt.public {
				t.Errorf("%s names whose image it is: %v, want %v", path, says, tt.public)
			}
		}
	}
}

// hexColor reads "#rrggbb".
func hexColor(s string) color.RGBA {
	var c color.RGBA
	fmt.Sscanf(s, "#%02x%02x%02x", &c.R, &c.G, &c.B)
	c.A = 255
	return c
}

// webOf serves the public pages of db on loopback, wired as the daemon
// wires them, and returns their address.
func webOf(t *testing.T, db *store.DB) string {
	t.Helper()
	srv, err := web.New(web.Config{DB: db, Judge: &adjudicator.Judge{Games: games()}, From: daemontest.JudgeAddress, MapImages: daemon.MapImages(db)})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return ts.URL
}

// TestMapArtShrunkAtInstall: a scan four times finer than the reports
// draw the map is kept shrunk to twice their pixels, half its size a
// side, with its scale, and the operator is told; map_image_align still
// counts the pixels of the scan given.
func TestMapArtShrunkAtInstall(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "umpire.db")
	file := filepath.Join(dir, "art-big.toml")
	os.WriteFile(file, []byte(strings.Replace(fmt.Sprintf(artGameFile, "art-big", ""), `"60 60 30 30"`, `"240 240 96 96"`, 1)), 0o644)
	if code, out, errOut := run(t, "game", "new", file, "--store", dbPath); code != exitOK {
		t.Fatalf("game new: exit %d %q %q", code, out, errOut)
	}
	scan := filepath.Join(dir, "scan.jpg")
	writeScan(t, scan, 1680, 1600)
	code, out, errOut := run(t, "game", "image", "art-big", scan, "--store", dbPath)
	if code != exitOK || !strings.Contains(out, "a jpeg image of 1680 × 1600 pixels") || !strings.Contains(out, "Kept shrunk to 840 × 800 pixels") {
		t.Fatalf("game image: exit %d %q %q", code, out, errOut)
	}
	db, err := store.Open(dbPath, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.View(context.Background(), func(tx *store.Tx) error {
		m, data, ok, err := tx.MapImage("art-big")
		if err != nil || !ok {
			t.Fatalf("no map image kept: %v", err)
		}
		cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
		if err != nil || cfg.Width != 840 || cfg.Height != 800 || m.Width != 840 || m.ScaleX != 0.5 || m.ScaleY != 0.5 || m.SourceWidth != 1680 {
			t.Errorf("kept %+v, a %d × %d image (%v)", m, cfg.Width, cfg.Height, err)
		}
		return nil
	})
}
