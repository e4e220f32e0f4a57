package daemon

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
)

// The control socket: while "umpire serve" holds the store, the command
// line talks to it through a Unix socket beside the store file
// (STORE.sock, mode 0600), and the daemon runs the command on its open
// store (docs/operations.md). Only the commands below go through it, and
// only without flags other than --config and --store.

// controlCommands are the commands a running judge carries out for the
// command line, by subcommand ("" for a command without subcommands).
var controlCommands = map[string][]string{
	"game":   {"list", "show", "export", "pause", "resume", "archive", "archived", "image"},
	"keys":   {"server", "list"},
	"replay": {""},
	"mail":   {"held", "release", "quarantined", "drop"},
	"store":  {"backup", "compact", "prune", "space", "stats"},
}

// Controllable reports whether a command line (the command's name, then
// its arguments, fs its parsed flags) may be run by the running judge.
func Controllable(args []string, fs *flag.FlagSet) bool {
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

// ControlPath is the control socket of the store at storePath.
func ControlPath(storePath string) string {
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

// ErrNoDaemon is returned when no judge answers on the control socket.
var ErrNoDaemon = errors.New("no judge is running on this store")

// ControlFunc carries out a command line (the command's name and its
// arguments, without flags) in the running judge d, printing to stdout and
// stderr, and returns its exit code.
type ControlFunc func(ctx context.Context, d *Daemon, args []string, stdout, stderr io.Writer) int

// Call runs args in the judge that holds the store at storePath, if one
// answers on its control socket (else ErrNoDaemon), prints what it printed
// to stdout and stderr, and returns its exit code.
func Call(storePath string, args []string, stdout, stderr io.Writer) (code int, err error) {
	path := ControlPath(storePath)
	if _, err := os.Stat(path); err != nil {
		return 0, ErrNoDaemon
	}
	c, err := net.DialTimeout("unix", path, 2*time.Second)
	if err != nil {
		return 0, ErrNoDaemon // a socket left by a judge that was killed
	}
	defer c.Close()
	if err := json.NewEncoder(c).Encode(controlRequest{Args: args}); err != nil {
		return 0, fmt.Errorf("control socket %s: %w", path, err)
	}
	var resp controlResponse
	if err := json.NewDecoder(bufio.NewReader(c)).Decode(&resp); err != nil {
		return 0, fmt.Errorf("control socket %s: the judge did not answer: %w", path, err)
	}
	io.WriteString(stdout, resp.Stdout)
	io.WriteString(stderr, resp.Stderr)
	return resp.Code, nil
}

// control serves the control socket until ctx ends.
type control struct {
	d    *Daemon
	path string
	ln   net.Listener
}

// listenControl makes the control socket of the store. A socket file left
// by a judge that was killed is replaced: the store's lock says no other
// judge runs.
func (d *Daemon) listenControl() (*control, error) {
	if d.cfg.Control == nil {
		return nil, errors.New("this judge carries out no command")
	}
	path := ControlPath(d.cfg.Store)
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
	return &control{d: d, path: path, ln: ln}, nil
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
		c.d.log.WarnContext(ctx, "control socket: refused a connection from another user", "uid", uid)
		return
	}
	var req controlRequest
	if err := json.NewDecoder(io.LimitReader(conn, 1<<20)).Decode(&req); err != nil || len(req.Args) == 0 {
		return
	}
	var resp controlResponse
	fs := flag.NewFlagSet("control", flag.ContinueOnError)
	if !Controllable(req.Args, fs) {
		resp = controlResponse{Stderr: fmt.Sprintf("umpire: the running judge does not carry out %q\n", strings.Join(req.Args, " ")), Code: 2}
	} else {
		var out, errOut strings.Builder
		resp.Code = c.d.cfg.Control(ctx, c.d, req.Args, &out, &errOut)
		resp.Stdout, resp.Stderr = out.String(), errOut.String()
		c.d.log.InfoContext(ctx, "control command", "args", strings.Join(req.Args, " "), "exit", resp.Code)
		// wake the scheduler and the outbox after each command
		c.d.sched.Wake()
		c.d.outbox.Poke()
	}
	_ = json.NewEncoder(conn).Encode(resp)
}
