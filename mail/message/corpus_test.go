package message

import (
	"bytes"
	"errors"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// ourAddresses are the judge's addresses in the corpus.
var ourAddresses = []string{"judge@umpire.test"}

// treatments are the MANIFEST.tsv treatments (see the corpus README in
// the manifest's notes and protocol.md).
var treatments = map[string]bool{
	"orders": true, "unsigned": true, "bad-signature": true, "unknown-key": true, "plain-text-please": true,
	"too-large": true, "malformed": true, "ignore-automatic": true, "bounce": true, "command": true,
	"command-signed": true, "command-refused": true, "replayed": true, "weak-signature": true,
	"key-renewed": true, "key-revoked": true, "key-refused": true,
}

// manifestEntry is one line of MANIFEST.tsv.
type manifestEntry struct {
	file, treatment, note string
}

// readManifest reads MANIFEST.tsv.
func readManifest(t *testing.T) []manifestEntry {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpusDir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	var out []manifestEntry
	for i, line := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 3 || f[0] == "" || f[2] == "" {
			t.Fatalf("MANIFEST.tsv line %d: want file<TAB>treatment<TAB>note, got %q", i+1, line)
		}
		out = append(out, manifestEntry{f[0], f[1], f[2]})
	}
	return out
}

// corpusData returns the bytes of a manifest entry, building GENERATED
// ones, and the error Parse must return for a generated one.
func corpusData(t *testing.T, e manifestEntry) ([]byte, error) {
	t.Helper()
	if strings.HasPrefix(e.file, "GENERATED:") {
		for _, g := range mailtest.GeneratedCorpus() {
			if g.Name == e.file {
				if g.Treatment == "too-large" {
					return g.Raw, ErrTooLarge
				}
				return g.Raw, ErrTooDeep
			}
		}
		t.Fatalf("%s: no generator", e.file)
	}
	b, err := os.ReadFile(filepath.Join(corpusDir, e.file))
	if err != nil {
		t.Fatal(err)
	}
	return b, nil
}

// TestCorpusManifest checks that the manifest and the files agree and
// that the corpus covers every treatment.
func TestCorpusManifest(t *testing.T) {
	entries := readManifest(t)
	listed := map[string]bool{}
	count := map[string]int{}
	for _, e := range entries {
		if !treatments[e.treatment] {
			t.Errorf("%s: unknown treatment %q", e.file, e.treatment)
		}
		if listed[e.file] {
			t.Errorf("%s is listed twice", e.file)
		}
		listed[e.file] = true
		count[e.treatment]++
		if !strings.HasPrefix(e.file, "GENERATED:") {
			if _, err := os.Stat(filepath.Join(corpusDir, e.file)); err != nil {
				t.Errorf("%s is listed but missing: %v", e.file, err)
			}
		}
	}
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*.eml"))
	for _, f := range files {
		if !listed[filepath.Base(f)] {
			t.Errorf("%s is not in MANIFEST.tsv", filepath.Base(f))
		}
	}
	if len(files) < 45 {
		t.Errorf("the corpus has %d files, want at least 45", len(files))
	}
	for tr := range treatments {
		if count[tr] == 0 {
			t.Errorf("no corpus file has treatment %s", tr)
		}
	}
	for _, dir := range []string{"keys", "keys/unknown"} {
		keys, _ := os.ReadDir(filepath.Join(corpusDir, dir))
		for _, k := range keys {
			b, _ := os.ReadFile(filepath.Join(corpusDir, dir, k.Name()))
			if bytes.Contains(b, []byte("PRIVATE KEY")) {
				t.Errorf("%s/%s holds a private key", dir, k.Name())
			}
		}
	}
}

// TestCorpus parses every corpus message and checks what the MIME layer
// can check for its treatment. Signature verification is the intake's.
func TestCorpus(t *testing.T) {
	for _, e := range readManifest(t) {
		t.Run(e.file, func(t *testing.T) {
			data, want := corpusData(t, e)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			m, err := Parse(data, DefaultLimits())
			runtime.ReadMemStats(&after)
			if m == nil {
				t.Fatal("Parse returned a nil Message")
			}
			// The limits bound allocation: a hostile message costs a small
			// multiple of the bytes Parse may keep, never its claimed size.
			allowed := uint64(8*min(int64(len(data)), DefaultLimits().MaxMessage) + 4<<20)
			if got := after.TotalAlloc - before.TotalAlloc; got > allowed {
				t.Errorf("Parse allocated %d bytes for a %d-byte message, want at most %d", got, len(data), allowed)
			}
			if want != nil && !errors.Is(err, want) {
				t.Fatalf("Parse: %v, want an error wrapping %v", err, want)
			}
			if err != nil && strings.Contains(err.Error(), "internal error") {
				t.Fatalf("Parse panicked: %v", err)
			}
			reason, auto := Automatic(m, ourAddresses)
			switch e.treatment {
			case "orders", "bad-signature", "unknown-key":
				mustParse(t, err)
				notAutomatic(t, reason, auto)
				if forms := signedForms(m); len(forms) == 0 {
					t.Errorf("no signed material found (Text %q)", clip(m.Text, 200))
				}
				if !reachable(m, "game: club-kosovo-3") {
					t.Error("the order text is not reachable from the Message")
				}
			case "command-signed", "command-refused", "replayed", "weak-signature", "key-renewed", "key-refused":
				mustParse(t, err)
				notAutomatic(t, reason, auto)
				if forms := signedForms(m); len(forms) == 0 {
					t.Errorf("no signed material found (Text %q)", clip(m.Text, 200))
				}
				if strings.HasPrefix(e.treatment, "key-") && e.file != "key-expired-orders.eml" && !hasKeyAttachment(m) {
					t.Error("no key attached")
				}
			case "key-revoked":
				mustParse(t, err)
				notAutomatic(t, reason, auto)
				if !hasKeyAttachment(m) {
					t.Error("no revocation certificate attached")
				}
			case "unsigned", "command":
				mustParse(t, err)
				notAutomatic(t, reason, auto)
				if forms := signedForms(m); len(forms) > 0 {
					t.Errorf("signed material %v found in an unsigned message", forms)
				}
				if strings.HasPrefix(e.file, "encrypted-") && !m.Encrypted {
					t.Error("Encrypted is not set")
				}
				if e.treatment == "command" && !hasCommand(m) {
					t.Errorf("no command in subject %q or text %q", m.Subject, m.Text)
				}
			case "plain-text-please":
				mustParse(t, err)
				notAutomatic(t, reason, auto)
				if !m.HTMLOnly || m.Text != "" {
					t.Errorf("HTMLOnly %v with Text %q, want HTMLOnly and no text", m.HTMLOnly, m.Text)
				}
				if m.HTMLText == "" || strings.ContainsAny(m.HTMLText, "<>") {
					t.Errorf("HTMLText %q, want the text without tags", m.HTMLText)
				}
			case "too-large":
				var le *LimitError
				if !errors.As(err, &le) || !errors.Is(err, ErrTooLarge) {
					t.Fatalf("Parse: %v, want a *LimitError", err)
				}
				if le.Size <= le.Max {
					t.Errorf("LimitError size %d is not over its limit %d", le.Size, le.Max)
				}
				if m.From.Addr != "carol@players.test" || m.MessageID == "" {
					t.Errorf("From %q, Message-ID %q: the judge needs them to answer", m.From.Addr, m.MessageID)
				}
			case "malformed":
				if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrTooDeep) {
					t.Fatalf("Parse: %v, want ErrMalformed or ErrTooDeep", err)
				}
			case "ignore-automatic":
				mustParse(t, err)
				if !auto {
					t.Error("Automatic did not flag it")
				}
			case "bounce":
				mustParse(t, err)
				if !auto {
					t.Error("Automatic did not flag it")
				}
				if m.Report == nil {
					t.Fatal("no Report")
				}
				if !strings.HasPrefix(m.Report.OriginalMessageID, "umpire-out-") || !strings.HasSuffix(m.Report.OriginalMessageID, "@umpire.test") {
					t.Errorf("OriginalMessageID %q, want the judge's own Message-ID", m.Report.OriginalMessageID)
				}
				if !strings.HasSuffix(m.Report.FinalRecipient, "@players.test") || m.Report.Action != "failed" {
					t.Errorf("recipient %q action %q, want a failed player address", m.Report.FinalRecipient, m.Report.Action)
				}
			}
			if err == nil {
				t.Logf("automatic=%v (%s) problems=%q", auto, reason, m.Problems)
			} else {
				t.Logf("error: %v", err)
			}
		})
	}
}

// mustParse fails the test on a Parse error.
func mustParse(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
}

// notAutomatic fails the test when Automatic flagged a player's mail.
func notAutomatic(t *testing.T, reason string, auto bool) {
	t.Helper()
	if auto {
		t.Errorf("Automatic flagged a player's mail: %s", reason)
	}
}

// signedForms lists the signed material a Message exposes, in the forms
// the intake checks: "clearsigned" and "inline-ssh" in RawText, "pgpmime"
// in Signed, "detached" as a signature attachment next to the file it
// signs; and the same in attached messages, prefixed "forwarded ".
func signedForms(m *Message) []string {
	var forms []string
	if hasLinePrefix(string(m.RawText), "-----BEGIN PGP SIGNED MESSAGE-----") {
		forms = append(forms, "clearsigned")
	}
	if bytes.Contains(m.RawText, []byte("-----BEGIN SSH SIGNATURE-----")) {
		forms = append(forms, "inline-ssh")
	}
	if m.Signed != nil && m.Signed.Protocol == "application/pgp-signature" && len(m.Signed.Part) > 0 &&
		bytes.Contains(m.Signed.Signature, []byte("-----BEGIN PGP SIGNATURE-----")) {
		forms = append(forms, "pgpmime")
	}
	if _, _, ok := detachedPair(m); ok {
		forms = append(forms, "detached")
	}
	for _, f := range m.Forwarded {
		for _, form := range signedForms(f) {
			forms = append(forms, "forwarded "+form)
		}
	}
	return forms
}

// detachedPair finds a signature attachment (NAME.asc or NAME.sig) and
// the attachment NAME it signs.
func detachedPair(m *Message) (sig, data Attachment, ok bool) {
	for _, s := range m.Attachments {
		for _, ext := range []string{".asc", ".sig"} {
			name, isSig := strings.CutSuffix(s.Filename, ext)
			if !isSig {
				continue
			}
			for _, d := range m.Attachments {
				if d.Filename == name {
					return s, d, true
				}
			}
		}
	}
	return Attachment{}, Attachment{}, false
}

// reachable reports whether text is in the Message's text, its signed
// part, its attachments or its attached messages.
func reachable(m *Message, text string) bool {
	if strings.Contains(m.Text, text) {
		return true
	}
	if m.Signed != nil && m.Signed.Inner != nil && reachable(m.Signed.Inner, text) {
		return true
	}
	for _, a := range m.Attachments {
		if strings.Contains(a.Text(), text) {
			return true
		}
	}
	for _, f := range m.Forwarded {
		if reachable(f, text) {
			return true
		}
	}
	return false
}

// hasCommand reports whether the subject or the first line of the text is
// a read-only command (protocol.md).
func hasCommand(m *Message) bool {
	firstLine, _, _ := strings.Cut(strings.TrimSpace(m.Text), "\n")
	for _, s := range []string{m.Subject, firstLine} {
		word, _, _ := strings.Cut(strings.TrimSpace(s), " ")
		switch word {
		case "help", "list", "status", "map", "log":
			return true
		}
	}
	return false
}

// hasKeyAttachment reports whether m carries an OpenPGP public key block.
func hasKeyAttachment(m *Message) bool {
	for _, a := range m.Attachments {
		if bytes.Contains(a.Data, []byte("BEGIN PGP PUBLIC KEY BLOCK")) {
			return true
		}
	}
	return false
}
