package daemon

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runCheck writes config (if not empty) in a folder of its own, with the
// files named, and runs the check on it.
func runCheck(t *testing.T, config string, files map[string]string, mailTo string) (int, string) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "umpire.toml")
	if config != "" {
		os.WriteFile(path, []byte(config), 0o600)
	}
	for name, mode := range files {
		os.WriteFile(filepath.Join(dir, name), []byte("secret\n"), map[string]os.FileMode{"0600": 0o600, "0644": 0o644}[mode])
	}
	var out bytes.Buffer
	n := Check(context.Background(), CheckOptions{Config: path, Out: &out, Timeout: 5 * time.Second, Mail: mailTo})
	return n, strings.ReplaceAll(out.String(), dir, "DIR")
}

// closedPort is a loopback address nothing listens on.
func closedPort(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// TestCheckWithoutServers: the checks that need no mail server: a
// configuration that does not parse or lacks the mail servers stops the
// check at its first line, with LoadConfig's error; a password file every
// user can read is a warning; a store whose folder is missing, and a web
// address in use, fail with what to change.
func TestCheckWithoutServers(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	imap, smtp := closedPort(t), closedPort(t)
	base := "address = \"judge@example.org\"\n[imap]\naddress = \"" + imap + "\"\npassword_file = \"imap.secret\"\n[smtp]\naddress = \"" + smtp + "\"\nsecurity = \"none\"\n"
	for _, tc := range []struct {
		name, config string
		files        map[string]string
		mail         string // --mail
		want         []string
		failed       int
	}{
		{name: "no file", want: []string{"FAIL configuration\n     config DIR/umpire.toml: no such file"}, failed: 1},
		{name: "unknown setting", config: "adress = \"judge@example.org\"\n",
			want: []string{"FAIL configuration\n     config DIR/umpire.toml: line 1: unknown setting adress (see README.md, Configuration)"}, failed: 1},
		{name: "no mail servers", config: "address = \"judge@example.org\"\n",
			want: []string{"FAIL configuration\n     the configuration DIR/umpire.toml lacks imap.address, smtp.address"}, failed: 1},
		{name: "secret every user reads", config: base, files: map[string]string{"imap.secret": "0644"},
			want: []string{"ok   configuration DIR/umpire.toml parses\n",
				"warn imap.password_file DIR/imap.secret is readable by every user of this machine (mode 0644)\n     chmod 600 DIR/imap.secret",
				"FAIL imap " + imap + ": cannot connect", "FAIL smtp " + smtp + ": cannot connect",
				"ok   store DIR/umpire.db: not there yet"}, failed: 2},
		{name: "test mail without an operator", config: base, files: map[string]string{"imap.secret": "0600"}, mail: MailOperator,
			want: []string{"FAIL test mail: the configuration names no operator\n     set operator, or give the address: umpire check --mail ADDRESS"}, failed: 3},
		{name: "test mail to no address", config: base, files: map[string]string{"imap.secret": "0600"}, mail: "ops at example.org",
			want: []string{"FAIL test mail: \"ops at example.org\" is not a mail address"}, failed: 3},
		{name: "store folder missing, web address in use",
			config: "store = \"nowhere/umpire.db\"\n" + base + "[log]\nfile = \"nowhere/umpire.log\"\n[web]\naddress = \"" + busy.Addr().String() + "\"\n", files: map[string]string{"imap.secret": "0600"},
			want: []string{"ok   imap.password_file DIR/imap.secret can be read\n",
				"FAIL store DIR/nowhere/umpire.db: its folder DIR/nowhere does not exist\n     make the folder (mkdir -p DIR/nowhere)",
				"FAIL log.file DIR/nowhere/umpire.log cannot be written: no such file or directory\n     make its folder DIR/nowhere",
				"FAIL web.address " + busy.Addr().String() + " is in use\n     another program"}, failed: 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, out := runCheck(t, tc.config, tc.files, tc.mail)
			if n != tc.failed {
				t.Errorf("%d checks failed, want %d:\n%s", n, tc.failed, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("no %q in:\n%s", w, out)
				}
			}
		})
	}
}
