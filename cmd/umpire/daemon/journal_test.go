package daemon

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// journalListener is a journald of the test's own: a unixgram socket in
// the test's folder, whose datagrams it reads as journald does.
func journalListener(t *testing.T) (string, *net.UnixConn) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "socket")
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return path, conn
}

// readJournalEntry reads one datagram (or the memory file it carries) and
// returns its fields as journald reads them, each name with its values.
func readJournalEntry(t *testing.T, conn *net.UnixConn) map[string][]string {
	t.Helper()
	fields, _ := readJournalDatagram(t, conn)
	return fields
}

// readJournalDatagram is readJournalEntry that also says whether the
// record came as a memory file.
func readJournalDatagram(t *testing.T, conn *net.UnixConn) (map[string][]string, bool) {
	t.Helper()
	buf, oob := make([]byte, 1<<20), make([]byte, 1024)
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	n, oobn, _, _, err := conn.ReadMsgUnix(buf, oob)
	if err != nil {
		t.Fatalf("no record on the journal's socket: %v", err)
	}
	data := buf[:n]
	if oobn > 0 {
		msgs, err := syscall.ParseSocketControlMessage(oob[:oobn])
		if err != nil || len(msgs) != 1 {
			t.Fatalf("control message: %v (%d)", err, len(msgs))
		}
		fds, err := syscall.ParseUnixRights(&msgs[0])
		if err != nil || len(fds) != 1 {
			t.Fatalf("descriptor passed: %v (%d)", err, len(fds))
		}
		f := os.NewFile(uintptr(fds[0]), "memfd")
		defer f.Close()
		f.Seek(0, 0)
		var b bytes.Buffer
		if _, err := b.ReadFrom(f); err != nil {
			t.Fatal(err)
		}
		data = b.Bytes()
	}
	fields, err := parseJournalEntry(data)
	if err != nil {
		t.Fatalf("the record is not in the journal's native format: %v\n%q", err, data)
	}
	return fields, oobn > 0
}

// parseJournalEntry reads the native protocol's fields: NAME=value lines,
// and NAME, a newline, a 64-bit little-endian length and that many bytes
// and a newline for a value with a newline in it.
func parseJournalEntry(b []byte) (map[string][]string, error) {
	fields := map[string][]string{}
	for len(b) > 0 {
		nl := bytes.IndexByte(b, '\n')
		if nl < 0 {
			return nil, errors.New("a field without its newline")
		}
		line := b[:nl]
		if name, value, ok := bytes.Cut(line, []byte("=")); ok {
			fields[string(name)] = append(fields[string(name)], string(value))
			b = b[nl+1:]
			continue
		}
		b = b[nl+1:]
		if len(b) < 8 {
			return nil, fmt.Errorf("field %s: no length", line)
		}
		n := binary.LittleEndian.Uint64(b)
		b = b[8:]
		if uint64(len(b)) < n+1 || b[n] != '\n' {
			return nil, fmt.Errorf("field %s: %d bytes and a newline do not follow", line, n)
		}
		fields[string(line)] = append(fields[string(line)], string(b[:n]))
		b = b[n+1:]
	}
	for name := range fields {
		if name == "" || name != journalKey(name) {
			return nil, fmt.Errorf("field name %q is not one journald takes", name)
		}
	}
	return fields, nil
}

// TestJournalHandlerFields: each record reaches the journal's socket as
// one entry with MESSAGE, PRIORITY from its level, where it was logged,
// and every attribute under its name in upper case, groups first; a value
// with a newline keeps it; an attribute named like one of the record's own
// fields does not overwrite it.
func TestJournalHandlerFields(t *testing.T) {
	path, conn := journalListener(t)
	var fallback bytes.Buffer
	h, err := NewJournalHandler(path, &slog.HandlerOptions{Level: slog.LevelDebug}, slog.NewTextHandler(&fallback, nil))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	log := slog.New(h).With("game", "bu-1")
	for _, c := range []struct {
		log      func(msg string, args ...any)
		priority string
	}{{log.Debug, "7"}, {log.Info, "6"}, {log.Warn, "4"}, {log.Error, "3"}} {
		c.log("order taken", "seat", "north", "err", errors.New("two lines\nof error"), "message", "an attribute",
			slog.Group("mail", "message-id", "<a@b>", "took", 1500*time.Millisecond))
		got := readJournalEntry(t, conn)
		want := map[string]string{
			"MESSAGE": "order taken", "PRIORITY": c.priority, "SYSLOG_IDENTIFIER": "umpire",
			"GAME": "bu-1", "SEAT": "north", "ERR": "two lines\nof error", "ATTR_MESSAGE": "an attribute",
			"MAIL_MESSAGE_ID": "<a@b>", "MAIL_TOOK": "1.5s",
		}
		for name, v := range want {
			if len(got[name]) != 1 || got[name][0] != v {
				t.Errorf("priority %s: %s = %q, want %q", c.priority, name, got[name], v)
			}
		}
		if len(got["CODE_FILE"]) != 1 || !strings.HasSuffix(got["CODE_FILE"][0], "journal_test.go") || len(got["CODE_LINE"]) != 1 {
			t.Errorf("where the record was logged: CODE_FILE %q CODE_LINE %q", got["CODE_FILE"], got["CODE_LINE"])
		}
	}
	if fallback.Len() != 0 {
		t.Errorf("records the journal took went to the fallback too:\n%s", fallback.String())
	}
}

// TestJournalHandlerLevel: records below the configured level are not
// sent.
func TestJournalHandlerLevel(t *testing.T) {
	path, conn := journalListener(t)
	h, err := NewJournalHandler(path, &slog.HandlerOptions{Level: slog.LevelWarn}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	log := slog.New(h)
	log.Info("not sent")
	log.Warn("sent")
	if got := readJournalEntry(t, conn); got["MESSAGE"][0] != "sent" {
		t.Errorf("first record on the socket: %q, want the warning (info is below log.level warn)", got["MESSAGE"])
	}
}

// TestJournalHandlerLargeRecord: a record too large for one datagram
// reaches the journal whole, as a memory file the datagram carries.
func TestJournalHandlerLargeRecord(t *testing.T) {
	path, conn := journalListener(t)
	h, err := NewJournalHandler(path, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	big := strings.Repeat("x", 600<<10)
	slog.New(h).Info("a large answer", "body", big)
	got, file := readJournalDatagram(t, conn)
	if !file {
		t.Errorf("a record of %d bytes came as a datagram, not as a memory file", len(big))
	}
	if len(got["BODY"]) != 1 || got["BODY"][0] != big || got["MESSAGE"][0] != "a large answer" {
		t.Errorf("the large record arrived with BODY of %d bytes, want %d", len(strings.Join(got["BODY"], "")), len(big))
	}
}

// TestJournalHandlerFallback: with no journal listening (its socket
// gone), the record is written by the fallback handler instead of lost.
func TestJournalHandlerFallback(t *testing.T) {
	var fallback bytes.Buffer
	h, err := NewJournalHandler(filepath.Join(t.TempDir(), "no-socket"), nil, slog.NewTextHandler(&fallback, nil))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	slog.New(h).With("game", "bu-1").Info("judge running")
	if out := fallback.String(); !strings.Contains(out, `msg="judge running" game=bu-1`) {
		t.Errorf("the fallback got %q", out)
	}
}

// TestStderrIsJournal: standard error is the journal's stream only when
// JOURNAL_STREAM names its device and inode, as systemd sets it.
func TestStderrIsJournal(t *testing.T) {
	dir := t.TempDir()
	stream, _ := os.Create(filepath.Join(dir, "stream"))
	other, _ := os.Create(filepath.Join(dir, "other"))
	defer stream.Close()
	defer other.Close()
	fi, err := stream.Stat()
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	env := fmt.Sprintf("%d:%d", st.Dev, st.Ino)
	for _, c := range []struct {
		env    string
		stderr io.Writer
		want   bool
	}{
		{env, stream, true},
		{env, other, false},           // stderr redirected elsewhere since
		{"", stream, false},           // not run by systemd
		{"journal", stream, false},    // not DEVICE:INODE
		{env, &bytes.Buffer{}, false}, // not a file
		{fmt.Sprintf("%d:%d", st.Dev, st.Ino+1), stream, false},
	} {
		if got := StderrIsJournal(c.env, c.stderr); got != c.want {
			t.Errorf("JOURNAL_STREAM=%q, stderr %T: %v, want %v", c.env, c.stderr, got, c.want)
		}
	}
}
