package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"go.etcd.io/bbolt"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	"github.com/umpire-pbem/umpire/store"
)

// run runs umpire in-process and returns its exit code and output.
func run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runWith(t, func(*Main) {}, args...)
}

func runWith(t *testing.T, setup func(*Main), args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	m := &Main{
		Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
		Now:        func() time.Time { return time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC) }, // in the past: keys and signatures made then are valid now
		Getenv:     func(string) string { return "" },
		IsTerminal: func(io.Writer) bool { return false },
		Logger:     slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	setup(m)
	code := m.Run(context.Background(), args)
	if err := m.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	return code, out.String(), errb.String()
}

var allCommands = []string{"serve", "demo", "game", "verify", "replay", "resolve", "render", "keys", "mail", "check", "version"}

func TestHelpListsEveryCommand(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"--help"}, {"-h"}} {
		code, out, _ := run(t, args...)
		if code != exitOK {
			t.Errorf("%v: exit %d, want 0", args, code)
		}
		for _, c := range allCommands {
			if !strings.Contains(out, "\n  "+c+" ") {
				t.Errorf("%v does not list %q:\n%s", args, c, out)
			}
		}
	}
	if code, _, errOut := run(t); code != exitUsage || !strings.Contains(errOut, "Commands:") {
		t.Errorf("no arguments: exit %d, want 2 with the usage on stderr", code)
	}
}

func TestEachCommandHasHelp(t *testing.T) {
	for _, c := range allCommands {
		for _, args := range [][]string{{c, "--help"}, {c, "-h"}, {"help", c}} {
			code, out, _ := run(t, args...)
			if code != exitOK || !strings.HasPrefix(out, "Usage: umpire "+c) {
				t.Errorf("%v: exit %d, output %q", args, code, out)
			}
		}
	}
}

func TestBadCommandLines(t *testing.T) {
	cases := []struct {
		args     []string
		contains string
	}{
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"verify"}, "want one FILE"},
		{[]string{"verify", "a.json", "b.json"}, "want one FILE"},
		{[]string{"verify", "--bogus", "a.json"}, "flag provided but not defined"},
		{[]string{"version", "extra"}, "takes no arguments"},
		{[]string{"game"}, "want a subcommand"},
		{[]string{"game", "delete"}, `unknown subcommand "delete"`},
	}
	for _, c := range cases {
		code, _, errOut := run(t, c.args...)
		if code != exitUsage || !strings.Contains(errOut, c.contains) {
			t.Errorf("%v: exit %d, stderr %q; want 2 mentioning %q", c.args, code, errOut, c.contains)
		}
	}
}

func TestVersion(t *testing.T) {
	code, out, _ := run(t, "version")
	if code != exitOK || !strings.Contains(out, "umpire ") || !strings.Contains(out, "dice umpire-dice-v3") || !strings.Contains(out, "store schema 2") {
		t.Errorf("version: exit %d, %q", code, out)
	}
}

const exampleLog = "../../docs/examples/dice-log-example.json"

// writeTampered writes the example log with one change made by fn.
func writeTampered(t *testing.T, fn func(x *legacy.Export)) string {
	t.Helper()
	f, err := os.Open(exampleLog)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	x, err := legacy.ReadExport(f)
	if err != nil {
		t.Fatal(err)
	}
	fn(x)
	var buf bytes.Buffer
	if err := x.Write(&buf); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "log.json")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestVerifyGenuine(t *testing.T) {
	code, out, errOut := run(t, "verify", exampleLog)
	if code != exitOK || !strings.HasPrefix(out, "OK ") || !strings.Contains(out, "3 re-derived") ||
		!strings.Contains(out, "1 sealed entry") || !strings.Contains(out, "9c52f093871e41050e67a6ee004036641ddf5fd3cfcd454e2e1db8b744171d4e") {
		t.Errorf("exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	// Flags may follow the file; JSON output is machine-readable.
	code, out, _ = run(t, "verify", exampleLog, "--json")
	var res struct {
		OK       bool   `json:"ok"`
		Verified int    `json:"verified"`
		Hidden   int    `json:"hidden"`
		Head     string `json:"head"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != exitOK || !res.OK || res.Verified != 3 || res.Hidden != 1 {
		t.Errorf("--json: exit %d, %+v, %v\n%s", code, res, err, out)
	}
}

func TestVerifyStdin(t *testing.T) {
	data, err := os.ReadFile(exampleLog)
	if err != nil {
		t.Fatal(err)
	}
	code, out, _ := runWith(t, func(m *Main) { m.Stdin = bytes.NewReader(data) }, "verify", "-")
	if code != exitOK || !strings.HasPrefix(out, "OK -") {
		t.Errorf("verify -: exit %d, %q", code, out)
	}
}

func TestVerifyCorrupted(t *testing.T) {
	path := writeTampered(t, func(x *legacy.Export) { x.Entries[1].Values[0] = 3 })
	code, out, _ := run(t, "verify", path)
	if code != exitFail || !strings.HasPrefix(out, "FAILED") || !strings.Contains(out, `entry 2 (step 1, "example d10 read 0-9"): value 1 is 3, but the open stream gives 7`) {
		t.Errorf("exit %d, %q", code, out)
	}
	path = writeTampered(t, func(x *legacy.Export) { x.Entries[2].Purpose = "a better purpose" })
	code, out, _ = run(t, "verify", "--json", path)
	var res struct {
		OK      bool `json:"ok"`
		Problem struct {
			Seq    uint64 `json:"seq"`
			Reason string `json:"reason"`
		} `json:"problem"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != exitFail || res.OK || res.Problem.Seq != 3 || !strings.Contains(res.Problem.Reason, "hash") {
		t.Errorf("--json on a changed purpose: exit %d, %+v, %v", code, res, err)
	}
}

func TestVerifyNotALog(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct{ path, contains string }{
		{write("notes.txt", "dear GM,\nmy orders are below\n"), "not an umpire dice log: line 1, column 1"},
		{write("package.json", `{"name": "x"}`), `its "format" is ""`},
		{write("future.json", `{"format": "umpire-dice-log", "version": 9}`), "version 9"},
		{write("empty.json", ""), "not an umpire dice log"},
		{filepath.Join(dir, "missing.json"), "no such file"},
		{dir, "is a directory"},
	}
	for _, c := range cases {
		code, out, errOut := run(t, "verify", c.path)
		if code != exitUsage || !strings.Contains(errOut, c.contains) || out != "" {
			t.Errorf("verify %s: exit %d, stderr %q; want 2 mentioning %q", filepath.Base(c.path), code, errOut, c.contains)
		}
	}
}

func TestVerifyProgressBarOnTerminal(t *testing.T) {
	t.Parallel()
	open := legacy.Chain(dice.Hash{7}, 4, nil)
	sealed := legacy.Chain(dice.Hash{8}, 4, nil)
	x := legacy.NewExport("long", 4, open.Commitment(), sealed.Commitment())
	log := legacy.NewLog(open.Commitment(), sealed.Commitment())
	ol, _ := open.Link(1)
	d := legacy.StepDigest("long", 1, "turn", nil)
	r := legacy.NewStepRoller(log, 1, d, ol, dice.Hash{})
	for range 20000 {
		dice.Roll(r, 1, 6, "a roll")
	}
	x.Steps = []legacy.ExportStep{{Step: 1, Phase: "turn", Orders: []dice.Hash{}, Digest: d, Open: &ol}}
	for _, rec := range r.Records() {
		x.AddRecord(rec, false)
	}
	path := filepath.Join(t.TempDir(), "long.json")
	var buf bytes.Buffer
	if err := x.Write(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var term daemontest.LockedBuffer
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	code, out, _ := runWith(t, func(m *Main) {
		m.Stderr = &term
		m.IsTerminal = func(w io.Writer) bool { return w == &term }
		m.Now = func() time.Time { clock = clock.Add(time.Second); return clock }
	}, "verify", path)
	bar := term.B.String()
	if code != exitOK || !strings.HasPrefix(out, "OK") {
		t.Fatalf("exit %d, %q", code, out)
	}
	for _, want := range []string{"reading", "verifying [", "100% 20000/20000"} {
		if !strings.Contains(bar, want) {
			t.Errorf("progress bar lacks %q: %q", want, bar[:min(len(bar), 300)])
		}
	}
	// Not on a terminal, or with --json: no bar.
	code, _, errOut := run(t, "verify", path)
	if code != exitOK || errOut != "" {
		t.Errorf("not a terminal: stderr %q", errOut)
	}
}

// TestDemo runs the newcomer's first command: a game by mail on the
// embedded servers, to its end, every mail written out, the log verified.
// It is the mail-order test too: for every step of the whole game, each
// seat's receipt is in its mailbox before that step's report.
func TestDemo(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	code, out, errOut := run(t, "demo", "--dir", dir)
	if code != exitOK {
		t.Fatalf("demo: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"signs with OpenPGP", "signs with SSH", "OK ", "FAILED", "replay re-ran the", "Done in",
		"Olga (seat Russia):      receipt (accepted), then the step 1 report", "Grace (game master):     the step 1 report",
		"The game is over after step", " wins: "} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q:\n%s", want, out)
		}
	}
	last := 0
	for _, who := range []struct{ dir, seat string }{{"gm", ""}, {"russia", "Russia"}, {"usa", "USA"}} {
		mails := readMailDir(t, filepath.Join(dir, "mail", who.dir))
		steps := checkMailOrder(t, who.dir, mails, true)
		if len(steps) == 0 || steps[len(steps)-1] < 3 {
			t.Errorf("%s got the reports of steps %v", who.dir, steps)
		}
		if last != 0 && steps[len(steps)-1] != last {
			t.Errorf("%s's last report is of step %d, another reader's of step %d", who.dir, steps[len(steps)-1], last)
		}
		last = steps[len(steps)-1]
		if who.seat != "" {
			checkOneJoinMail(t, who.dir, who.seat, mails)
		}
	}
	// Every seat got a report of every turn, with a picture that decodes.
	seats, err := os.ReadDir(filepath.Join(dir, "mail"))
	if err != nil || len(seats) != 3 {
		t.Fatalf("mail folders %v: %v", seats, err)
	}
	for _, seat := range seats {
		for step := 1; step <= 3; step++ {
			pngs, _ := filepath.Glob(filepath.Join(dir, "mail", seat.Name(), fmt.Sprintf("*step-%d-report.png", step)))
			texts, _ := filepath.Glob(filepath.Join(dir, "mail", seat.Name(), fmt.Sprintf("*step-%d-report.txt", step)))
			htmls, _ := filepath.Glob(filepath.Join(dir, "mail", seat.Name(), fmt.Sprintf("*step-%d-report.html", step)))
			if len(pngs) != 1 || len(texts) != 1 || len(htmls) != 1 {
				t.Errorf("%s: step %d report: %d pictures, %d texts, %d html parts", seat.Name(), step, len(pngs), len(texts), len(htmls))
				continue
			}
			text, _ := os.ReadFile(texts[0])
			for i, line := range strings.Split(strings.ReplaceAll(string(text), "\r\n", "\n"), "\n") {
				if n := utf8.RuneCountInString(line); n > 72 {
					t.Errorf("%s line %d is %d columns wide: %q", texts[0], i+1, n, line)
				}
			}
			f, err := os.Open(pngs[0])
			if err != nil {
				t.Fatal(err)
			}
			if _, err := png.Decode(f); err != nil {
				t.Errorf("%s: %v", pngs[0], err)
			}
			f.Close()
		}
	}
	if code, _, _ := run(t, "verify", filepath.Join(dir, "demo-1-log.json")); code != exitOK {
		t.Errorf("the demo's log does not verify: exit %d", code)
	}
	if code, _, _ := run(t, "verify", filepath.Join(dir, "demo-1-forged.json")); code != exitFail {
		t.Errorf("the demo's forged log: exit %d, want 1", code)
	}
	// A second run into the same folder is refused rather than mixed in.
	if code, _, errOut := run(t, "demo", "--dir", dir); code != exitUsage || !strings.Contains(errOut, "already") {
		t.Errorf("demo into a used folder: exit %d %s", code, errOut)
	}
}

func TestConfig(t *testing.T) {
	dir := t.TempDir()
	write := func(text string) string {
		p := filepath.Join(dir, "umpire.toml")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct{ text, contains string }{
		{"stor = \"x.db\"\n", "unknown setting stor"},
		{"store = \"x.db\"\n[log]\nlevel = \"loud\"\n", `log.level "loud"`},
		{"store = \"x.db\"\n[log]\nformat = \"xml\"\n", `log.format "xml"`},
		{"store = \"x.db\"\n[log]\nformat = \"journal\"\nfile = \"u.log\"\n", `log.format journal sends the log to the journal, not to log.file`},
		{"store = \n", "line 1"},
		{"store = \"x.db\"\n[dkim]\nresolver = \"127.0.0.1\"\n", `dkim.resolver "127.0.0.1": write a DNS server as host:port`},
		{"store = \"x.db\"\n[dkim]\ntimeout = \"10s\"\n", `dkim.timeout 10s: give a duration under limits.message_time (5s)`},
	}
	for _, c := range cases {
		code, _, errOut := run(t, "serve", "--config", write(c.text))
		if code != exitUsage || !strings.Contains(errOut, c.contains) {
			t.Errorf("config %q: exit %d, stderr %q; want 2 mentioning %q", c.text, code, errOut, c.contains)
		}
	}
	if code, _, errOut := run(t, "serve", "--config", filepath.Join(dir, "nope.toml")); code != exitUsage || !strings.Contains(errOut, "no such file") {
		t.Errorf("missing config: exit %d, %q", code, errOut)
	}
	// A relative store path is relative to the configuration's folder.
	cfgPath := write("store = \"games.db\"\n[log]\nlevel = \"debug\"\n")
	code, _, errOut := run(t, "serve", "--config", cfgPath)
	if code != exitUsage || !strings.Contains(errOut, "the configuration "+cfgPath+" lacks address, imap.address, smtp.address") {
		t.Errorf("serve without mail settings: exit %d, %q", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "games.db")); err == nil {
		t.Errorf("serve without mail settings made a store")
	}
	code, _, errOut = run(t, "game", "list", "--config", cfgPath)
	if code != exitUsage || !strings.Contains(errOut, "there is no store "+filepath.Join(dir, "games.db")+" (the configuration "+cfgPath+"'s store)") {
		t.Errorf("the store is not looked for beside its configuration: exit %d, %q", code, errOut)
	}
}

// TestServeRefusesNewerSchema: a store written by a newer umpire is refused
// with a message that says what to do, and is left as it was.
func TestServeRefusesNewerSchema(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "umpire.db")
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := bbolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := raw.Update(func(tx *bbolt.Tx) error {
		return tx.Bucket([]byte("meta")).Put([]byte("schema"), binary.BigEndian.AppendUint64(nil, 99))
	}); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	before, _ := os.ReadFile(path)
	code, _, errOut := run(t, "serve", "--store", path)
	want := fmt.Sprintf("store %s has schema version 99; this umpire understands versions up to %d: upgrade umpire", path, store.SchemaVersion)
	if code != exitFail || !strings.Contains(errOut, want) {
		t.Errorf("serve on a newer store: exit %d, stderr %q; want 1 and %q", code, errOut, want)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("the refused store was modified")
	}
}
