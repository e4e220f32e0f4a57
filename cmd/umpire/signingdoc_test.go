package main

import (
	"bytes"
	"encoding/base64"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/mail/message"
	"github.com/umpire-pbem/umpire/mail/signature"
)

// signingDoc is docs/signing.md: its text, the GitHub anchors of its
// headings, and each heading's text up to the next heading.
type signingDoc struct {
	text     string
	anchors  map[string]bool
	sections map[string]string // anchor -> the section's text
}

func readSigningDoc(t *testing.T) signingDoc {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", adjudicator.SigningPage))
	if err != nil {
		t.Fatal(err)
	}
	d := signingDoc{text: string(b), anchors: map[string]bool{}, sections: map[string]string{}}
	anchor := ""
	fence := false
	for line := range strings.Lines(d.text) {
		if strings.HasPrefix(line, "```") {
			fence = !fence
		}
		if !fence && strings.HasPrefix(line, "#") {
			anchor = githubAnchor(strings.TrimLeft(strings.TrimSpace(line), "# "))
			d.anchors[anchor] = true
		}
		d.sections[anchor] += line
	}
	return d
}

// githubAnchor is the anchor GitHub gives a heading: lower case, letters,
// digits, spaces and hyphens kept, spaces made hyphens.
func githubAnchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestSigningDocSections: docs/signing.md has a section for every mail
// program and tool the judge's answers can name (the anchors its mail
// points to), its list at the top links each of them, and every link
// within the page lands on a heading.
func TestSigningDocSections(t *testing.T) {
	d := readSigningDoc(t)
	top := d.sections[githubAnchor("Signing, from your mail program")]
	for _, c := range adjudicator.MailClients() {
		if !d.anchors[c.Section] {
			t.Errorf("%s has no section #%s (%s), which the judge's answers name", adjudicator.SigningPage, c.Section, c.Name)
		}
		if !strings.Contains(top, "](#"+c.Section+")") {
			t.Errorf("the list at the top of %s does not link #%s", adjudicator.SigningPage, c.Section)
		}
	}
	for _, m := range regexp.MustCompile(`\]\(#([a-z0-9-]+)\)`).FindAllStringSubmatch(d.text, -1) {
		if !d.anchors[m[1]] {
			t.Errorf("%s links #%s, which is no heading of it", adjudicator.SigningPage, m[1])
		}
	}
	for _, must := range []string{"joining", "pitfalls"} {
		if !d.anchors[must] {
			t.Errorf("%s has no section #%s", adjudicator.SigningPage, must)
		}
	}
}

// The sample files the terminal sections sign.
const (
	docJoin   = "join club-kosovo-3 NATO\n"
	docOrders = "game: club-kosovo-3\nstep: 7\nseat: NATO\n# the airborne first\nmove US-82AB 1609 1610 1711\nend\n"
)

// TestSigningDocCommands runs every shell command docs/signing.md shows,
// section by section, with the real gpg and ssh-keygen in a home of its
// own, over a sample join and order file. The commands run as the page
// writes them; only the questions they would ask (passphrase, where to
// save the key) are answered for them. What they make is mailed the way
// the page says (the text as the body, or the files attached), read as
// the judge reads mail and verified with the key the page exported.
func TestSigningDocCommands(t *testing.T) {
	d := readSigningDoc(t)
	checks := map[string]func(t *testing.T, home, work string){
		"gpg":        checkGPGSection,
		"ssh-keygen": checkSSHSection,
	}
	for anchor, section := range d.sections {
		blocks := regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(section, -1)
		if len(blocks) == 0 {
			continue
		}
		check, ok := checks[anchor]
		if !ok {
			t.Errorf("section #%s shows shell commands that no test runs", anchor)
			continue
		}
		t.Run(anchor, func(t *testing.T) {
			for _, tool := range []string{"gpg", "ssh-keygen", "bash"} {
				if _, err := exec.LookPath(tool); err != nil {
					t.Skipf("%s is not installed", tool)
				}
			}
			dir, err := os.MkdirTemp("", "sgn") // short: gpg-agent's socket path has a length limit
			if err != nil {
				t.Fatal(err)
			}
			home, work := filepath.Join(dir, "home"), filepath.Join(dir, "work")
			t.Cleanup(func() {
				exec.Command("gpgconf", "--homedir", filepath.Join(home, ".gnupg"), "--kill", "all").Run()
				os.RemoveAll(dir)
			})
			for _, p := range []string{filepath.Join(home, ".gnupg"), filepath.Join(home, ".ssh"), work} {
				if err := os.MkdirAll(p, 0o700); err != nil {
					t.Fatal(err)
				}
			}
			for name, text := range map[string]string{"join.txt": docJoin, "orders.txt": docOrders} {
				if err := os.WriteFile(filepath.Join(work, name), []byte(text), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			for _, b := range blocks {
				script := "set -euo pipefail\n" +
					"gpg() { command gpg --batch --yes --no-tty --pinentry-mode loopback --passphrase '' \"$@\"; }\n" +
					"ssh-keygen() { if [[ \" $* \" == *\" -t \"* ]]; then command ssh-keygen -q -N '' -f \"$HOME/.ssh/id_ed25519\" \"$@\"; else command ssh-keygen \"$@\"; fi; }\n" +
					b[1]
				cmd := exec.Command("bash", "-c", script)
				cmd.Dir = work
				cmd.Env = append(os.Environ(), "HOME="+home, "GNUPGHOME="+filepath.Join(home, ".gnupg"))
				cmd.Stdin = strings.NewReader("")
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("the commands of #%s fail: %v\n%s\n%s", anchor, err, b[1], out)
				}
			}
			check(t, home, work)
		})
	}
	for anchor := range checks {
		if !strings.Contains(d.sections[anchor], "```sh") {
			t.Errorf("section #%s shows no commands", anchor)
		}
	}
}

// read returns a file the commands made.
func read(t *testing.T, dir, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatalf("the commands did not make %s: %v", name, err)
	}
	return b
}

// mailed is a player's mail as the page says to send it: body as the
// plain-text body (CRLF, as it crosses the wire), files attached, read
// back as the judge reads it.
func mailed(t *testing.T, body string, files ...[2]string) *message.Message {
	t.Helper()
	var b strings.Builder
	b.WriteString("From: Alice <alice@example.org>\r\nTo: judge@umpire.test\r\nSubject: orders\r\nMessage-ID: <doc@example.org>\r\nMIME-Version: 1.0\r\n")
	crlf := func(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", "\r\n") }
	if len(files) == 0 {
		b.WriteString("Content-Type: text/plain; charset=utf-8\r\n\r\n" + crlf(body))
	} else {
		b.WriteString("Content-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + crlf(body) + "\r\n")
		for _, f := range files {
			b.WriteString("--b\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=\"" + f[0] +
				"\"\r\nContent-Transfer-Encoding: base64\r\n\r\n" + base64.StdEncoding.EncodeToString([]byte(f[1])) + "\r\n")
		}
		b.WriteString("--b--\r\n")
	}
	m, err := message.Parse([]byte(b.String()), message.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// attached returns the attachment of m named name.
func attached(t *testing.T, m *message.Message, name string) []byte {
	t.Helper()
	for _, a := range m.Attachments {
		if a.Filename == name {
			return a.Data
		}
	}
	t.Fatalf("the mail has no attachment %s", name)
	return nil
}

// wantSigned checks a verified signature: by key, over want (an order
// file read without problems when it is one).
func wantSigned(t *testing.T, what string, v signature.Verified, err error, key signature.Key, want string) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s does not verify: %v", what, err)
	}
	if v.Fingerprint != key.Fingerprint {
		t.Errorf("%s is signed by %s, not by the key the page exported (%s)", what, v.Fingerprint, key.Fingerprint)
	}
	got := strings.TrimSpace(strings.ReplaceAll(string(v.Content), "\r\n", "\n"))
	if !strings.Contains(got, strings.TrimSpace(want)) {
		t.Errorf("%s covers %q, want %q", what, got, want)
	}
	if strings.HasPrefix(want, "game:") {
		if of, problems := adjudicator.ParseOrderFile(got); len(problems) > 0 || of.Seat != "NATO" || len(of.Orders) != 1 {
			t.Errorf("%s reads as %+v, problems %v", what, of, problems)
		}
	}
}

func checkGPGSection(t *testing.T, home, work string) {
	join := mailed(t, "", [2]string{"alice.asc", string(read(t, work, "alice.asc"))})
	key, err := signature.ParseKey(attached(t, join, "alice.asc"))
	if err != nil {
		t.Fatalf("alice.asc is no key the judge reads: %v", err)
	}
	keys, err := signature.NewKeyring(key)
	if err != nil {
		t.Fatal(err)
	}
	join = mailed(t, string(read(t, work, "join.txt.asc")), [2]string{"alice.asc", string(read(t, work, "alice.asc"))})
	v, err := signature.VerifyInline(join.RawText, keys)
	wantSigned(t, "the clear-signed join", v, err, key, docJoin)
	if got := strings.TrimSpace(string(v.Content)); got != strings.TrimSpace(docJoin) {
		t.Errorf("the join's signed text is %q", got)
	}

	orders := mailed(t, string(read(t, work, "orders.txt.asc")))
	v, err = signature.VerifyInline(orders.RawText, keys)
	wantSigned(t, "the clear-signed orders", v, err, key, docOrders)

	detached := mailed(t, "My orders.", [2]string{"orders.txt", string(read(t, work, "orders.txt"))}, [2]string{"orders.txt.sig", string(read(t, work, "orders.txt.sig"))})
	v, err = signature.VerifyDetached(attached(t, detached, "orders.txt"), attached(t, detached, "orders.txt.sig"), keys)
	wantSigned(t, "orders.txt with orders.txt.sig", v, err, key, docOrders)
}

func checkSSHSection(t *testing.T, home, work string) {
	pub := read(t, filepath.Join(home, ".ssh"), "id_ed25519.pub")
	join := mailed(t, "", [2]string{"join.txt", string(read(t, work, "join.txt"))}, [2]string{"join.txt.sig", string(read(t, work, "join.txt.sig"))},
		[2]string{"id_ed25519.pub", string(pub)})
	key, err := signature.ParseKey(attached(t, join, "id_ed25519.pub"))
	if err != nil {
		t.Fatalf("id_ed25519.pub is no key the judge reads: %v", err)
	}
	keys, err := signature.NewKeyring(key)
	if err != nil {
		t.Fatal(err)
	}
	v, err := signature.VerifyDetached(attached(t, join, "join.txt"), attached(t, join, "join.txt.sig"), keys)
	wantSigned(t, "join.txt with join.txt.sig", v, err, key, docJoin)

	orders := mailed(t, "Orders attached.", [2]string{"orders.txt", string(read(t, work, "orders.txt"))}, [2]string{"orders.txt.sig", string(read(t, work, "orders.txt.sig"))})
	v, err = signature.VerifyDetached(attached(t, orders, "orders.txt"), attached(t, orders, "orders.txt.sig"), keys)
	wantSigned(t, "orders.txt with orders.txt.sig", v, err, key, docOrders)

	inline := read(t, work, "orders-inline.txt")
	if !bytes.HasPrefix(inline, []byte(docOrders)) {
		t.Errorf("orders-inline.txt does not start with the order file:\n%s", inline)
	}
	pasted := mailed(t, string(inline))
	v, err = signature.VerifyInline(pasted.RawText, keys)
	wantSigned(t, "the order file pasted with its SSH signature", v, err, key, docOrders)
}
