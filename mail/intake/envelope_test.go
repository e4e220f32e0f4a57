package intake

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/mail"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/mail/signature"
)

// corpusKeys are the keys of the corpus's seat holders, alice and bob.
func corpusKeys(t *testing.T) *signature.Keyring {
	t.Helper()
	r := &signature.Keyring{}
	for _, f := range []string{"alice.asc", "bob.pub", "dora.asc", "eve.asc"} {
		raw, err := os.ReadFile(filepath.Join(mailtest.CorpusDir(), "keys", f))
		if err != nil {
			t.Fatal(err)
		}
		k, err := signature.ParseKey(raw)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Add(k); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// TestEnvelopeCorpus reads every message of the hostile corpus the way the
// inbox hands it over and checks that the envelope says what the
// treatment in MANIFEST.tsv needs: whose signature, which problem; a
// command may be in the subject alone.
func TestEnvelopeCorpus(t *testing.T) {
	h := New(Config{Address: "judge@umpire.test"})
	keys := corpusKeys(t)
	now := time.Date(2025, 3, 3, 19, 30, 0, 0, time.UTC)
	seen := map[string]int{}
	for i, c := range mailtest.Corpus(t) {
		t.Run(c.Name, func(t *testing.T) {
			m := mail.Message{Mailbox: "INBOX", UIDValidity: 1, UID: uint32(i + 1), Raw: c.Raw, Size: int64(len(c.Raw))}
			if m.Size > h.Limits().MaxMessage { // the inbox hands over the header only
				end := strings.Index(string(c.Raw), "\r\n\r\n")
				m.Raw, m.Truncated = c.Raw[:end+4], true
			}
			env, _ := h.envelope(m, keys, now)
			if !env.Received.Equal(now) {
				t.Errorf("received %v, want %v", env.Received, now)
			}
			problem := env.Unreadable != "" || env.TooLarge || env.SignatureProblem != "" || env.UnknownKey != "" || env.HTMLOnly
			switch c.Treatment {
			case "orders":
				if env.Signed == nil || !strings.Contains(env.Signed.Content, "game:") {
					t.Fatalf("not read as a signed order file (%s): %+v", c.Note, env)
				}
				if _, ok := keys.Lookup(signature.Kind(env.Signed.Kind), env.Signed.Fingerprint); !ok {
					t.Errorf("signed by %s, which is no seat holder's key", env.Signed.Fingerprint)
				}
			case "unsigned":
				if env.Signed != nil || env.UnknownKey != "" || (env.SignatureProblem != "" && !strings.Contains(env.SignatureProblem, "encrypted")) {
					t.Errorf("unsigned mail read as signed (%s): %+v", c.Note, env)
				}
			case "bad-signature":
				if env.Signed != nil || env.SignatureProblem == "" {
					t.Errorf("bad signature not caught (%s): %+v", c.Note, env)
				}
			case "unknown-key":
				if env.Signed != nil || env.UnknownKey == "" {
					t.Errorf("unknown key not named (%s): %+v", c.Note, env)
				}
			case "plain-text-please":
				if !env.HTMLOnly {
					t.Errorf("HTML-only mail not marked (%s)", c.Note)
				}
			case "too-large":
				if !env.TooLarge {
					t.Errorf("too large mail not marked (%s)", c.Note)
				}
			case "malformed":
				if env.Unreadable == "" && !env.TooLarge {
					t.Errorf("malformed mail read without complaint (%s): %+v", c.Note, env)
				}
			case "ignore-automatic":
				if env.Automatic == "" {
					t.Errorf("automatic mail not recognised (%s)", c.Note)
				}
			case "bounce":
				if env.Automatic == "" || env.Bounce == nil || env.Bounce.OriginalMessageID == "" {
					t.Errorf("bounce not read as one (%s): %+v", c.Note, env)
				}
			case "command":
				if env.Automatic != "" || problem || strings.TrimSpace(env.Text+env.Subject) == "" {
					t.Errorf("command mail not read plainly (%s): %+v", c.Note, env)
				}
			case "command-signed", "command-refused", "replayed":
				if env.Signed == nil || strings.Contains(env.Signed.Content, "game:") {
					t.Errorf("not read as a signed command (%s): %+v", c.Note, env)
				}
			case "weak-signature":
				if env.Signed != nil || !strings.Contains(env.KeyProblem, "SHA-1") {
					t.Errorf("a SHA-1 signature was not refused (%s): %+v", c.Note, env)
				}
			case "key-renewed":
				if env.Signed == nil || !strings.Contains(env.KeyNote, "now expires") && !strings.Contains(env.KeyNote, "no longer expires") {
					t.Errorf("the renewed key was not merged (%s): signed %v, note %q, problem %q", c.Note, env.Signed != nil, env.KeyNote, env.KeyProblem)
				}
			case "key-revoked":
				if !strings.Contains(env.KeyNote, "is now revoked") {
					t.Errorf("the revocation was not taken (%s): note %q", c.Note, env.KeyNote)
				}
			case "key-refused":
				if env.Signed != nil || (!strings.Contains(env.KeyProblem, "expired") && !strings.Contains(env.KeyProblem, "revoked")) {
					t.Errorf("a good signature by an expired or revoked key was accepted (%s): %+v", c.Note, env)
				}
			default:
				t.Fatalf("unknown treatment %q", c.Treatment)
			}
			if c.Treatment != "ignore-automatic" && c.Treatment != "bounce" && c.Treatment != "malformed" && env.From == "" {
				t.Errorf("no address to answer (%s)", c.Note)
			}
			seen[c.Treatment]++
		})
	}
	if len(seen) != 17 {
		t.Errorf("treatments seen: %v", seen)
	}
}
