package daemon

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// JournalSocket is where systemd-journald takes log records in its native
// protocol (https://systemd.io/JOURNAL_NATIVE_PROTOCOL/).
const JournalSocket = "/run/systemd/journal/socket"

// journalIdentifier is the SYSLOG_IDENTIFIER of every record, what
// journalctl -t selects.
const journalIdentifier = "umpire"

// StderrIsJournal reports whether stderr, the process's standard error, is
// the journal's stream: systemd names that stream's device and inode in
// JOURNAL_STREAM (journalStream, "DEVICE:INODE"), and a program whose
// standard error is it may send its records in the native protocol instead
// (systemd.exec(5), $JOURNAL_STREAM). A standard error that is not a file,
// or was redirected since, is not.
func StderrIsJournal(journalStream string, stderr io.Writer) bool {
	f, ok := stderr.(*os.File)
	if journalStream == "" || !ok {
		return false
	}
	var dev, ino uint64
	if _, err := fmt.Sscanf(journalStream, "%d:%d", &dev, &ino); err != nil {
		return false
	}
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && uint64(st.Dev) == dev && uint64(st.Ino) == ino //nolint:unconvert // Dev is 32 bits on some systems
}

// JournalHandler is a slog.Handler that sends each record to the journal
// in its native protocol, one datagram of fields: MESSAGE, PRIORITY (from
// the record's level: debug 7, info 6, warn 4, error 3), CODE_FILE,
// CODE_LINE and CODE_FUNC where the record was logged, SYSLOG_IDENTIFIER
// umpire, and each attribute under its key in upper case (a group's keys
// after the group's name and an underscore: GAME_ID), so that journalctl
// selects on them (journalctl -u umpire GAME=bu-1). A record the journal
// does not take (its socket gone) is written by the fallback handler
// instead, so that it is not lost.
type JournalHandler struct {
	conn     *net.UnixConn
	addr     *net.UnixAddr
	level    slog.Leveler
	fallback slog.Handler
	prefix   string // the open groups' names, each followed by _
	pre      []byte // the fields of the attributes given to WithAttrs
}

// NewJournalHandler returns a handler sending to the journal's socket at
// path (JournalSocket), at the level and above that opts names, that
// writes to fallback what the journal does not take. Close closes its
// socket.
func NewJournalHandler(path string, opts *slog.HandlerOptions, fallback slog.Handler) (*JournalHandler, error) {
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Net: "unixgram"})
	if err != nil {
		return nil, fmt.Errorf("journal socket: %w", err)
	}
	h := &JournalHandler{conn: conn, addr: &net.UnixAddr{Name: path, Net: "unixgram"}, level: slog.LevelInfo, fallback: fallback}
	if opts != nil && opts.Level != nil {
		h.level = opts.Level
	}
	return h, nil
}

// Enabled reports whether a record at level is sent.
func (h *JournalHandler) Enabled(_ context.Context, level slog.Level) bool {
	return level >= h.level.Level()
}

// Handle sends r to the journal, or to the fallback handler when the
// journal does not take it.
func (h *JournalHandler) Handle(ctx context.Context, r slog.Record) error {
	b := make([]byte, 0, 512)
	b = appendJournalField(b, "MESSAGE", r.Message)
	b = appendJournalField(b, "PRIORITY", strconv.Itoa(journalPriority(r.Level)))
	b = appendJournalField(b, "SYSLOG_IDENTIFIER", journalIdentifier)
	if r.PC != 0 {
		f, _ := runtime.CallersFrames([]uintptr{r.PC}).Next()
		b = appendJournalField(b, "CODE_FILE", f.File)
		b = appendJournalField(b, "CODE_LINE", strconv.Itoa(f.Line))
		b = appendJournalField(b, "CODE_FUNC", f.Function)
	}
	b = append(b, h.pre...)
	r.Attrs(func(a slog.Attr) bool {
		b = appendJournalAttr(b, h.prefix, a)
		return true
	})
	err := h.send(b)
	if err != nil && h.fallback != nil {
		return errors.Join(err, h.fallback.Handle(ctx, r))
	}
	return err
}

// send writes one datagram; one too large for a datagram goes as a
// memory file whose descriptor the datagram carries, as the protocol says.
func (h *JournalHandler) send(b []byte) error {
	_, _, err := h.conn.WriteMsgUnix(b, nil, h.addr)
	if errors.Is(err, syscall.EMSGSIZE) || errors.Is(err, syscall.ENOBUFS) {
		err = sendJournalFile(h.conn, h.addr, b)
	}
	if err != nil {
		return fmt.Errorf("journal %s: %w", h.addr.Name, err)
	}
	return nil
}

// WithAttrs returns a handler whose records carry attrs too.
func (h *JournalHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	h2 := *h
	h2.pre = slices.Clip(h.pre)
	for _, a := range attrs {
		h2.pre = appendJournalAttr(h2.pre, h.prefix, a)
	}
	if h.fallback != nil {
		h2.fallback = h.fallback.WithAttrs(attrs)
	}
	return &h2
}

// WithGroup returns a handler whose records' attributes are in the group
// name.
func (h *JournalHandler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	h2 := *h
	h2.prefix = h.prefix + journalKey(name) + "_"
	if h.fallback != nil {
		h2.fallback = h.fallback.WithGroup(name)
	}
	return &h2
}

// Close closes the handler's socket.
func (h *JournalHandler) Close() error { return h.conn.Close() }

// journalPriority is the syslog priority of a slog level.
func journalPriority(l slog.Level) int {
	switch {
	case l < slog.LevelInfo:
		return 7 // debug
	case l < slog.LevelWarn:
		return 6 // info
	case l < slog.LevelError:
		return 4 // warning
	default:
		return 3 // err
	}
}

// journalReserved are the fields the handler writes itself: an attribute
// of one of these names is sent as ATTR_NAME, so that it does not pass for
// the record's own.
var journalReserved = []string{"MESSAGE", "PRIORITY", "SYSLOG_IDENTIFIER", "CODE_FILE", "CODE_LINE", "CODE_FUNC", "MESSAGE_ID"}

// appendJournalAttr appends a's field (a group's fields) to b.
func appendJournalAttr(b []byte, prefix string, a slog.Attr) []byte {
	a.Value = a.Value.Resolve()
	if a.Equal(slog.Attr{}) {
		return b
	}
	if a.Value.Kind() == slog.KindGroup {
		if a.Key != "" {
			prefix += journalKey(a.Key) + "_"
		}
		for _, g := range a.Value.Group() {
			b = appendJournalAttr(b, prefix, g)
		}
		return b
	}
	key := prefix + journalKey(a.Key)
	if prefix == "" && slices.Contains(journalReserved, key) {
		key = "ATTR_" + key
	}
	if len(key) > 64 {
		key = key[:64]
	}
	v := a.Value.String()
	if a.Value.Kind() == slog.KindTime {
		v = a.Value.Time().Format(time.RFC3339Nano)
	}
	return appendJournalField(b, key, v)
}

// journalKey makes key a journal field name: upper case letters, digits
// and underscores, not starting with an underscore or a digit.
func journalKey(key string) string {
	k := []byte(strings.ToUpper(key))
	for i, c := range k {
		if (c < 'A' || c > 'Z') && (c < '0' || c > '9') {
			k[i] = '_'
		}
	}
	s := strings.TrimLeft(string(k), "_")
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		s = "ATTR_" + s
	}
	return s
}

// appendJournalField appends one field in the protocol's form: NAME=value
// and a newline, or, for a value holding a newline, the name, a newline,
// the value's length (64 bits, little-endian), the value and a newline.
func appendJournalField(b []byte, name, value string) []byte {
	b = append(b, name...)
	if !strings.ContainsRune(value, '\n') {
		b = append(b, '=')
		b = append(b, value...)
		return append(b, '\n')
	}
	b = append(b, '\n')
	n := uint64(len(value))
	for range 8 {
		b = append(b, byte(n))
		n >>= 8
	}
	b = append(b, value...)
	return append(b, '\n')
}
