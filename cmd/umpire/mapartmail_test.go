//go:build integration

package main

import (
	"bytes"
	"encoding/base64"
	"image/png"
	"io"
	"mime"
	"mime/multipart"
	"net/mail"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/cmd/umpire/daemon"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/mail/message"
)

// TestMapArtByRealMail: grace creates club-1 by mail with map_image in its
// game file, the operator installs her scan with 'umpire game image' while
// the judge runs (through its control socket), and after a step played by
// mail alice's report, as the running judge mails it through the real
// servers, has its picture drawn on the scan with her counters over it,
// and says whose image it is. The judge has a public address: the
// report links the step's web page as the public page (it shows the drawn
// map, not the scan, which the game keeps off the web), and carries the
// map as a drawing too.
func TestMapArtByRealMail(t *testing.T) {
	t.Parallel()
	c := newClub(t, mailtest.Real(t), "[web]\naddress = \"127.0.0.1:0\"\nbase_url = \"https://judge.example.org/\"")
	game := strings.Replace(clubGame, "[options]", "map_image = \"Grace's scan of the published map\"\nmap_image_align = \"60 60 30 30\"\n[options]", 1)
	c.setup(game)
	// The operator installs the scan while the judge runs: through its
	// control socket.
	startDaemon(t, c.config)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if _, err := os.Stat(daemon.ControlPath(c.store)); err == nil {
			break
		}
	}
	scan := filepath.Join(c.dir, "scan.jpg")
	writeScan(t, scan, 420, 400)
	if code, out, errOut := c.run("game", "image", "club-1", scan); code != exitOK || !strings.Contains(out, "map image of club-1 installed") {
		t.Fatalf("game image: exit %d %q %q", code, out, errOut)
	}
	for _, who := range []struct{ name, seat string }{{"alice", "A"}, {"bob", "B"}} {
		c.send(who.name, c.signed(who.name, "game: club-1\nstep: 1\nseat: "+who.seat+"\nroll 2\nend\n", false, ""))
	}
	var report []byte
	for deadline := time.Now().Add(60 * time.Second); report == nil && time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		for _, raw := range c.st.Mailbox(t, "alice@players.test", "pw", "INBOX") {
			if strings.Contains(daemontest.HeaderOf(raw, "Subject"), "step 1") && bytes.Contains(raw, []byte("image/png")) {
				report = raw
			}
		}
	}
	if report == nil {
		t.Fatalf("alice has no report of step 1 with a picture:\n%s", strings.Join(c.inbox("alice", 0), "\n----\n"))
	}
	if text := readable(report); !strings.Contains(text, "The map is drawn on Grace's scan of the published map") {
		t.Errorf("alice's report does not say whose image the map is on:\n%s", text)
	}
	m, err := message.Parse(report, message.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	checkReportSVG(t, report, m, true)
	if want := `<a href="https://judge.example.org/games/club-1/steps/1">The public page of this step on the web (it shows what anyone may see, not your own map)</a>`; !strings.Contains(htmlPart(t, report), want) {
		t.Errorf("alice's report does not link the step's public page as the public page (%s)", want)
	}
	pngs := pngParts(t, report)
	if len(pngs) != 1 {
		t.Fatalf("alice's report holds %d pictures", len(pngs))
	}
	pic, err := png.Decode(bytes.NewReader(pngs[0]))
	if err != nil {
		t.Fatal(err)
	}
	scanPixels, counterPixels := 0, 0
	b := pic.Bounds()
	blue := hexColor("#5b9bd5")
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := pic.At(x, y).RGBA()
			d := func(v uint32, w uint8) int { return max(int(v>>8)-int(w), int(w)-int(v>>8)) }
			switch {
			case d(r, scanMagenta.R) <= 20 && d(g, scanMagenta.G) <= 20 && d(bl, scanMagenta.B) <= 20:
				scanPixels++
			case d(r, blue.R) <= 30 && d(g, blue.G) <= 30 && d(bl, blue.B) <= 30:
				counterPixels++
			}
		}
	}
	if scanPixels < b.Dx()*b.Dy()/4 || counterPixels < 100 {
		t.Errorf("alice's picture shows the scan in %d of %d pixels and side A's counters in %d", scanPixels, b.Dx()*b.Dy(), counterPixels)
	}
}

// pngParts returns the PNG parts of a mail, however its multiparts nest
// (a PGP/MIME signature around the report's alternative and picture).
func pngParts(t *testing.T, raw []byte) [][]byte {
	t.Helper()
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	var walk func(ctype, enc string, body io.Reader)
	walk = func(ctype, enc string, body io.Reader) {
		mt, params, err := mime.ParseMediaType(ctype)
		if err != nil {
			return
		}
		switch {
		case strings.HasPrefix(mt, "multipart/"):
			mr := multipart.NewReader(body, params["boundary"])
			for {
				p, err := mr.NextRawPart()
				if err != nil {
					return
				}
				walk(p.Header.Get("Content-Type"), p.Header.Get("Content-Transfer-Encoding"), p)
			}
		case mt == "image/png":
			data, _ := io.ReadAll(body)
			if strings.EqualFold(enc, "base64") {
				data, _ = base64.StdEncoding.DecodeString(strings.Join(strings.Fields(string(data)), ""))
			}
			out = append(out, data)
		}
	}
	walk(m.Header.Get("Content-Type"), m.Header.Get("Content-Transfer-Encoding"), m.Body)
	return out
}
