package mailtest

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// CorpusMessage is one message of the hostile corpus (mail/testdata/corpus,
// whose README says what each treatment means).
type CorpusMessage struct {
	Name      string // the file name, or "GENERATED:name"
	Treatment string
	Note      string
	Raw       []byte
}

// CorpusDir is the folder of the corpus, its MANIFEST.tsv and keys/.
func CorpusDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "testdata", "corpus")
}

// Corpus reads every message of MANIFEST.tsv, building the GENERATED ones
// (too big to commit) on the spot.
func Corpus(tb testing.TB) []CorpusMessage {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(CorpusDir(), "MANIFEST.tsv"))
	if err != nil {
		tb.Fatal(err)
	}
	gen := map[string][]byte{}
	for _, g := range GeneratedCorpus() {
		gen[g.Name] = g.Raw
	}
	var out []CorpusMessage
	for i, line := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 3 || f[0] == "" || f[2] == "" {
			tb.Fatalf("MANIFEST.tsv line %d: want file<TAB>treatment<TAB>note, got %q", i+1, line)
		}
		m := CorpusMessage{Name: f[0], Treatment: f[1], Note: f[2]}
		if strings.HasPrefix(m.Name, "GENERATED:") {
			if m.Raw = gen[m.Name]; m.Raw == nil {
				tb.Fatalf("MANIFEST.tsv line %d: no generator for %s", i+1, m.Name)
			}
		} else if m.Raw, err = os.ReadFile(filepath.Join(CorpusDir(), m.Name)); err != nil {
			tb.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

// CorpusOrders is the order file of the corpus's NATO player (alice).
const CorpusOrders = "game: club-kosovo-3\nstep: 7\nseat: NATO\nattack 1708 from 1607 1709 with US-1AD US-3ID\nend\n"

// CRLF makes every line ending of s CRLF, as mail is on the wire.
func CRLF(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", "\r\n")
}

// EML joins a header block and a body (both with LF endings) into a CRLF
// message.
func EML(header, body string) []byte {
	return []byte(CRLF(strings.TrimRight(header, "\n") + "\n\n" + body))
}

// Envelope is the usual header of a player's mail to the judge, with LF
// endings.
func Envelope(from, subject, id string) string {
	addr := from
	if i := strings.IndexByte(from, '<'); i >= 0 {
		addr = strings.Trim(from[i:], "<>")
	}
	return "Return-Path: <" + addr + ">\n" +
		"Received: from mail.players.test (mail.players.test [192.0.2.25])\n\tby mx.umpire.test with ESMTPS id 4Z7Q; Mon, 03 Mar 2025 19:12:03 +0100\n" +
		"From: " + from + "\n" +
		"To: Umpire <judge@umpire.test>\n" +
		"Subject: " + subject + "\n" +
		"Date: Mon, 03 Mar 2025 19:12:00 +0100\n" +
		"Message-ID: <" + id + ">\n"
}

// TextPart is the MIME header of a plain UTF-8 text part.
const TextPart = "Content-Type: text/plain; charset=UTF-8; format=flowed\nContent-Transfer-Encoding: 7bit\n\n"

// PlainHeader is the MIME header of a plain UTF-8 text mail.
const PlainHeader = "MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: 7bit\n"

// Base64 encodes b in lines of n characters.
func Base64(b []byte, n int) string {
	s := base64.StdEncoding.EncodeToString(b)
	var out strings.Builder
	for len(s) > n {
		out.WriteString(s[:n] + "\n")
		s = s[n:]
	}
	out.WriteString(s + "\n")
	return out.String()
}

// Detached builds a multipart/mixed mail with a short text, an attached
// order file and its detached signature (or any second attachment).
func Detached(header, text string, file []byte, sigName, sigType, sigCTE string, sig []byte) []byte {
	const b = "=_mixed_8c1f2e"
	sigBody := string(sig)
	if sigCTE == "base64" {
		sigBody = Base64(sig, 76)
	}
	body := "--" + b + "\n" + TextPart + text + "\n" +
		"--" + b + "\n" +
		"Content-Type: text/plain; charset=UTF-8; name=\"orders.txt\"\n" +
		"Content-Disposition: attachment; filename=\"orders.txt\"\n" +
		"Content-Transfer-Encoding: base64\n\n" + Base64(file, 76) +
		"--" + b + "\n" +
		"Content-Type: " + sigType + "; name=\"" + sigName + "\"\n" +
		"Content-Disposition: attachment; filename=\"" + sigName + "\"\n" +
		"Content-Transfer-Encoding: " + sigCTE + "\n\n" + sigBody +
		"--" + b + "--\n"
	return EML(header+"MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\""+b+"\"\n", body)
}

// GeneratedCorpus builds the corpus messages too large to commit; the
// manifest names them GENERATED:name.
func GeneratedCorpus() []CorpusMessage {
	// Each message has its own Message-ID: the judge takes two mails with
	// one Message-ID for one mail delivered twice.
	hdr := func(id string) string {
		return Envelope("Carol <carol@players.test>", "orders", id+"@players.test") + "MIME-Version: 1.0\n"
	}
	attach := func(id string, size int) []byte {
		data := bytes.Repeat([]byte("umpire!"), size/7+1)[:size]
		return Detached(hdr(id), "A big map.\n", []byte(CorpusOrders), "map.bmp", "image/bmp", "base64", data)
	}
	var parts strings.Builder
	for range 1000 {
		parts.WriteString("--many\nContent-Type: text/plain\n\npart\n")
	}
	parts.WriteString("--many--\n")
	fwd := EML(Envelope("Carol <carol@players.test>", "orders", "n0@players.test")+PlainHeader, CorpusOrders)
	for i := 1; i < 50; i++ {
		fwd = EML(Envelope("Carol <carol@players.test>", "Fwd: orders", fmt.Sprintf("n%d@players.test", i))+"MIME-Version: 1.0\nContent-Type: message/rfc822\n", string(fwd))
	}
	return []CorpusMessage{
		{"GENERATED:huge-attachment", "too-large", "a 10 MB attachment: over the message limit", attach("gen-huge", 10<<20)},
		{"GENERATED:big-attachment", "too-large", "a 1.2 MB attachment in a 1.7 MB message: under the message limit, over the attachment limit", attach("gen-big", 1200<<10)},
		{"GENERATED:many-parts", "too-large", "1000 tiny parts: over the part limit", EML(hdr("gen-parts")+"Content-Type: multipart/mixed; boundary=many\n", parts.String())},
		{"GENERATED:nested-50", "malformed", "50 multiparts nested one inside the other: over the depth limit", EML(hdr("gen-nested")+"Content-Type: multipart/mixed; boundary=b0\n", Nested(50))},
		{"GENERATED:nested-rfc822-50", "malformed", "message/rfc822 nested 50 deep (a forward of a forward of ...): over the depth limit", fwd},
	}
}

// Nested returns the body of a multipart with boundary b0 that holds
// levels-1 more multiparts, one inside the other, and the order text at
// the bottom, at depth levels.
func Nested(levels int) string {
	var b strings.Builder
	for i := 0; i < levels-1; i++ {
		fmt.Fprintf(&b, "--b%d\nContent-Type: multipart/mixed; boundary=b%d\n\n", i, i+1)
	}
	fmt.Fprintf(&b, "--b%d\n%s%s", levels-1, TextPart, CorpusOrders)
	for i := levels - 1; i >= 0; i-- {
		fmt.Fprintf(&b, "--b%d--\n", i)
	}
	return b.String()
}
