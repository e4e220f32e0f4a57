package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/umpire-pbem/umpire/mail/intake"
	"github.com/umpire-pbem/umpire/store"
)

// The control socket: while "umpire serve" holds the store, the command
// line talks to it through a Unix socket beside the store file
// (STORE.sock, mode 0600), and the daemon runs the command on its open
// store (docs/operations.md). Only the commands below go through it, and
// only without flags other than --config and --store.

// controlCommands are the commands a running judge carries out for the
// command line, by subcommand ("" for a command without subcommands).
var controlCommands = map[string][]string{
	"game":   {"list", "show", "export", "pause", "resume", "archive", "archived"},
	"keys":   {"server", "list"},
	"replay": {""},
	"mail":   {"held", "release", "quarantined", "drop"},
	"store":  {"backup", "compact", "prune", "space", "stats"},
}

// controllable reports whether a command line (the command's name, then
// its arguments) may be run by the daemon.
func controllable(args []string, fs *flag.FlagSet) bool {
	subs, ok := controlCommands[args[0]]
	if !ok {
		return false
	}
	sub := ""
	if len(args) > 1 && !slices.Contains(subs, "") {
		sub = args[1]
	}
	if !slices.Contains(subs, sub) {
		return false
	}
	other := false
	fs.Visit(func(f *flag.Flag) { other = other || (f.Name != "config" && f.Name != "store") })
	return !other
}

// absolutePath returns the file a command line names last, made absolute
// in the command line a running judge is sent, so that the judge writes
// where the command means; in the judge itself the path must be absolute
// already (the judge's folder is not the caller's).
func (m *Main) absolutePath(cmdline ...string) (string, error) {
	path := cmdline[len(cmdline)-1]
	if m.daemon != nil {
		if !filepath.IsAbs(path) {
			return "", usagef("%s: the running judge writes only an absolute path, not %q", cmdline[1], path)
		}
		return path, nil
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", usagef("%s: %v", cmdline[1], err)
	}
	cmdline[len(cmdline)-1] = abs
	m.cmdline = cmdline
	return abs, nil
}

// controlPath is the control socket of the store at path.
func controlPath(storePath string) string {
	if abs, err := filepath.Abs(storePath); err == nil {
		storePath = abs
	}
	return storePath + ".sock"
}

// controlRequest is what the command line sends: its command line, without
// the flags.
type controlRequest struct {
	Args []string `json:"args"`
}

// controlResponse is what the daemon answers: the command's output and
// exit code.
type controlResponse struct {
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
	Code   int    `json:"code"`
}

// errNoDaemon: no judge answers on the control socket.
var errNoDaemon = errors.New("no judge is running on this store")

// callDaemon runs args in the judge that holds the store at storePath, if
// one answers on its control socket, and prints what it printed.
func (m *Main) callDaemon(storePath string, args []string) (code int, err error) {
	path := controlPath(storePath)
	if _, err := os.Stat(path); err != nil {
		return 0, errNoDaemon
	}
	c, err := net.DialTimeout("unix", path, 2*time.Second)
	if err != nil {
		return 0, errNoDaemon // a socket left by a judge that was killed
	}
	defer c.Close()
	if err := json.NewEncoder(c).Encode(controlRequest{Args: args}); err != nil {
		return 0, fmt.Errorf("control socket %s: %w", path, err)
	}
	var resp controlResponse
	if err := json.NewDecoder(bufio.NewReader(c)).Decode(&resp); err != nil {
		return 0, fmt.Errorf("control socket %s: the judge did not answer: %w", path, err)
	}
	io.WriteString(m.Stdout, resp.Stdout)
	io.WriteString(m.Stderr, resp.Stderr)
	return resp.Code, nil
}

// inDaemon is what a command run through the control socket uses instead
// of opening the store.
type inDaemon struct {
	cfg *Config
	db  *store.DB
	// intake processes released quarantined messages at once.
	intake *intake.Handler
}

// control serves the control socket until ctx ends.
type control struct {
	m      *Main
	cfg    *Config
	db     *store.DB
	intake *intake.Handler
	after  func() // wakes the scheduler and the outbox after each command
	path   string
	ln     net.Listener
}

// listenControl makes the control socket of the store. A socket file left
// by a judge that was killed is replaced: the store's lock says no other
// judge runs.
func (m *Main) listenControl(cfg *Config, db *store.DB, h *intake.Handler, after func()) (*control, error) {
	path := controlPath(cfg.Store)
	if len(path) > 100 {
		return nil, fmt.Errorf("control socket %s: the path is longer than a Unix socket's 100 bytes: move the store to a shorter path", path)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("control socket %s: %w", path, err)
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("control socket: %w", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("control socket: %w", err)
	}
	return &control{m: m, cfg: cfg, db: db, intake: h, after: after, path: path, ln: ln}, nil
}

// Run answers commands until ctx ends, then removes the socket.
func (c *control) Run(ctx context.Context) error {
	stop := context.AfterFunc(ctx, func() { c.ln.Close() })
	defer stop()
	defer os.Remove(c.path)
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		conn, err := c.ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("control socket: %w", err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer conn.Close()
			c.serve(ctx, conn)
		}()
	}
}

// serve answers one connection: one command.
func (c *control) serve(ctx context.Context, conn net.Conn) {
	if uid, ok := peerUID(conn); !ok || (uid != 0 && int(uid) != os.Getuid()) {
		c.m.Logger.WarnContext(ctx, "control socket: refused a connection from another user", "uid", uid)
		return
	}
	var req controlRequest
	if err := json.NewDecoder(io.LimitReader(conn, 1<<20)).Decode(&req); err != nil || len(req.Args) == 0 {
		return
	}
	var resp controlResponse
	fs := flag.NewFlagSet("control", flag.ContinueOnError)
	if !controllable(req.Args, fs) {
		resp = controlResponse{Stderr: fmt.Sprintf("umpire: the running judge does not carry out %q\n", strings.Join(req.Args, " ")), Code: exitUsage}
	} else {
		var out, errOut strings.Builder
		sub := &Main{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Now: c.m.Now, Getenv: c.m.Getenv,
			IsTerminal: func(io.Writer) bool { return false }, Logger: c.m.Logger, daemon: &inDaemon{cfg: c.cfg, db: c.db, intake: c.intake}}
		resp.Code = sub.Run(ctx, req.Args)
		resp.Stdout, resp.Stderr = out.String(), errOut.String()
		c.m.Logger.InfoContext(ctx, "control command", "args", strings.Join(req.Args, " "), "exit", resp.Code)
		if c.after != nil {
			c.after()
		}
	}
	_ = json.NewEncoder(conn).Encode(resp)
}
