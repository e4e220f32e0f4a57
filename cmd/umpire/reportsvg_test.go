//go:build integration

package main

import (
	"bytes"
	"encoding/base64"
	"encoding/xml"
	"image/png"
	"io"
	"math"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"net/textproto"
	"strconv"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/mail/message"
)

// checkReportSVG checks a report mail as a player's client parses it: the
// map comes as a PNG (inline, for the HTML part) and as an SVG attached
// beside it, GAME-stepN.svg, which parses as XML with the PNG's shape
// (the aspect of its viewBox is the PNG's); the HTML part offers the
// drawing, and links to the step's web page only when the judge has a
// public address (withPage).
func checkReportSVG(t *testing.T, raw []byte, m *message.Message, withPage bool) {
	t.Helper()
	var pngPart, svgPart *message.Attachment
	for i, a := range m.Attachments {
		switch a.ContentType {
		case "image/png":
			pngPart = &m.Attachments[i]
		case "image/svg+xml":
			svgPart = &m.Attachments[i]
		}
	}
	html := htmlPart(t, raw)
	if pngPart == nil || svgPart == nil {
		t.Fatalf("the report lacks the PNG or the SVG: %d parts", len(m.Attachments))
	}
	if want := strings.TrimSuffix(pngPart.Filename, ".png") + ".svg"; svgPart.Filename != want {
		t.Errorf("the SVG is attached as %q, want %q", svgPart.Filename, want)
	}
	img, err := png.DecodeConfig(bytes.NewReader(pngPart.Data))
	if err != nil {
		t.Fatalf("the PNG: %v", err)
	}
	var root struct {
		XMLName xml.Name
		ViewBox string `xml:"viewBox,attr"`
	}
	if err := xml.Unmarshal(svgPart.Data, &root); err != nil || root.XMLName.Local != "svg" {
		t.Fatalf("the SVG does not parse as an svg document: %v (%s)", err, root.XMLName.Local)
	}
	box := strings.Fields(root.ViewBox)
	if len(box) != 4 {
		t.Fatalf("the SVG's viewBox is %q", root.ViewBox)
	}
	w, _ := strconv.ParseFloat(box[2], 64)
	h, _ := strconv.ParseFloat(box[3], 64)
	if h <= 0 || math.Abs(w/h-float64(img.Width)/float64(img.Height)) > 0.01 {
		t.Errorf("the SVG's viewBox %q is not the shape of the %dx%d PNG", root.ViewBox, img.Width, img.Height)
	}
	if html == "" {
		t.Fatal("the report has no HTML part")
	}
	if want := "The map as a drawing (" + svgPart.Filename + ", attached: sharp at any zoom)"; !strings.Contains(html, want) {
		t.Errorf("the HTML report does not offer the drawing (%q)", want)
	}
	if got := strings.Contains(html, "/steps/"); got != withPage {
		t.Errorf("the HTML report links to the step's web page: %v, want %v", got, withPage)
	}
}

// htmlPart is the text/html part of a raw mail, decoded.
func htmlPart(t *testing.T, raw []byte) string {
	t.Helper()
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var walk func(h textproto.MIMEHeader, body io.Reader) string
	walk = func(h textproto.MIMEHeader, body io.Reader) string {
		mt, params, _ := mime.ParseMediaType(h.Get("Content-Type"))
		switch {
		case strings.HasPrefix(mt, "multipart/"):
			mr := multipart.NewReader(body, params["boundary"])
			for {
				p, err := mr.NextRawPart()
				if err != nil {
					return ""
				}
				if s := walk(p.Header, p); s != "" {
					return s
				}
			}
		case mt == "text/html":
			var r io.Reader = body
			switch strings.ToLower(h.Get("Content-Transfer-Encoding")) {
			case "quoted-printable":
				r = quotedprintable.NewReader(body)
			case "base64":
				r = base64.NewDecoder(base64.StdEncoding, body)
			}
			b, _ := io.ReadAll(r)
			return string(b)
		}
		return ""
	}
	return walk(textproto.MIMEHeader(msg.Header), msg.Body)
}
