package main

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/store"
)

// TestLogToJournal: run by systemd, whose journal is its standard error
// (JOURNAL_STREAM names that stream's device and inode), umpire sends its
// log records to the journal's socket in the native protocol, each
// attribute a field; run otherwise, with the same standard error, it
// writes them there as text.
func TestLogToJournal(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "umpire.db")
	s, err := store.Open(db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	sock := filepath.Join(dir, "journal")
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: sock, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	stderr, err := os.Create(filepath.Join(dir, "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer stderr.Close()
	fi, _ := stderr.Stat()
	st := fi.Sys().(*syscall.Stat_t)
	stream := fmt.Sprintf("%d:%d", st.Dev, st.Ino)

	for _, underSystemd := range []bool{true, false} {
		code, out, _ := runWith(t, func(m *Main) {
			m.Stderr, m.JournalSocket = stderr, sock
			m.Getenv = func(k string) string {
				if k == "JOURNAL_STREAM" && underSystemd {
					return stream
				}
				return ""
			}
		}, "store", "compact", "--store", db)
		if code != exitOK {
			t.Fatalf("umpire store compact: exit %d\n%s", code, out)
		}
		buf := make([]byte, 1<<16)
		conn.SetReadDeadline(time.Now().Add(time.Second))
		n, err := conn.Read(buf)
		text, _ := os.ReadFile(stderr.Name())
		if !underSystemd {
			if err == nil {
				t.Errorf("without JOURNAL_STREAM the journal got %q", buf[:n])
			}
			if !strings.Contains(string(text), `level=INFO msg="store compacted" before=`) {
				t.Errorf("without JOURNAL_STREAM standard error holds %q, want the text record", text)
			}
			continue
		}
		if err != nil {
			t.Fatalf("under systemd the journal got nothing: %v (standard error: %q)", err, text)
		}
		for _, f := range []string{"MESSAGE=store compacted\n", "PRIORITY=6\n", "SYSLOG_IDENTIFIER=umpire\n", "\nBEFORE=", "\nAFTER=", "\nKEPT=", "\nCODE_FILE="} {
			if !bytes.Contains(buf[:n], []byte(f)) {
				t.Errorf("the journal's record lacks %q:\n%s", f, buf[:n])
			}
		}
		if len(text) != 0 {
			t.Errorf("under systemd standard error got the log too: %q", text)
		}
	}
}
