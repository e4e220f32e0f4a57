package main

import (
	"bytes"
	"mime"
	"net/mail"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// received is one mail as a seat's mailbox holds it, in arrival order.
type received struct {
	n       int    // its place in the mailbox, from 1
	subject string // without "umpire: " and "(re: ...)"
	auto    string // Auto-Submitted
	seq     int    // the judge's outbox sequence, from the Message-ID
}

var outSeq = regexp.MustCompile(`<umpire-out-(\d+)\.`)

func readReceived(t *testing.T, raws [][]byte) []received {
	t.Helper()
	var out []received
	for i, raw := range raws {
		m, err := mail.ReadMessage(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("mail %d: %v", i+1, err)
		}
		subject, err := new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject"))
		if err != nil {
			subject = m.Header.Get("Subject")
		}
		subject = strings.TrimPrefix(subject, "umpire: ")
		if j := strings.Index(subject, " (re:"); j > 0 {
			subject = subject[:j]
		}
		r := received{n: i + 1, subject: subject, auto: m.Header.Get("Auto-Submitted")}
		if s := outSeq.FindStringSubmatch(m.Header.Get("Message-Id")); s != nil {
			r.seq, _ = strconv.Atoi(s[1])
		}
		out = append(out, r)
	}
	return out
}

// readMailDir reads the .eml files the demo wrote for one reader, in the
// order they arrived.
func readMailDir(t *testing.T, dir string) []received {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.eml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no mail in %s: %v", dir, err)
	}
	slices.Sort(files) // NN-subject.eml: arrival order
	var raws [][]byte
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		raws = append(raws, raw)
	}
	return readReceived(t, raws)
}

var (
	receiptSubject = regexp.MustCompile(`^receipt \S+ (\S+) step (\d+): `)
	reportSubject  = regexp.MustCompile(`^\S+ step (\d+) report$`)
)

// checkMailOrder checks one seat's mailbox: for every step, every receipt
// for its orders comes before the step's report (inMailbox: by place in
// the mailbox; otherwise by the order the judge sent them, for an MTA that
// may deliver out of order), reports are auto-generated and receipts
// auto-replied (RFC 3834), and it returns the steps whose reports it got.
func checkMailOrder(t *testing.T, who string, mails []received, inMailbox bool) []int {
	t.Helper()
	before := func(a, b received) bool {
		if inMailbox {
			return a.n < b.n
		}
		return a.seq < b.seq
	}
	reports := map[int]received{}
	var steps []int
	for _, m := range mails {
		if s := reportSubject.FindStringSubmatch(m.subject); s != nil {
			n, _ := strconv.Atoi(s[1])
			reports[n] = m
			steps = append(steps, n)
			if m.auto != "auto-generated" {
				t.Errorf("%s: the step %d report has Auto-Submitted %q, want auto-generated", who, n, m.auto)
			}
		}
	}
	for _, m := range mails {
		s := receiptSubject.FindStringSubmatch(m.subject)
		if s == nil {
			continue
		}
		if m.auto != "auto-replied" {
			t.Errorf("%s: receipt %q has Auto-Submitted %q, want auto-replied", who, m.subject, m.auto)
		}
		n, _ := strconv.Atoi(s[2])
		if r, ok := reports[n]; ok && !before(m, r) {
			t.Errorf("%s: the step %d report (mail %d) came before the receipt %q (mail %d)", who, n, r.n, m.subject, m.n)
		}
	}
	return steps
}

// checkOneJoinMail checks the joiner of seat got one mail about taking it.
func checkOneJoinMail(t *testing.T, who, seat string, mails []received) {
	t.Helper()
	n := 0
	for _, m := range mails {
		if strings.HasPrefix(m.subject, "joined ") || strings.HasSuffix(m.subject, "seat "+seat+" taken") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%s got %d mails about taking seat %s, want one", who, n, seat)
	}
}
