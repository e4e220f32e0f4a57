package main

import (
	"context"
	"embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon"
)

// Exit codes; see the package comment.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

// Main is the umpire program: its standard streams, clock and environment
// are fields so that tests run it in-process.
type Main struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Now            func() time.Time
	Getenv         func(string) string
	// IsTerminal reports whether w is a terminal a person watches, which
	// turns on progress bars.
	IsTerminal func(w io.Writer) bool
	Logger     *slog.Logger
	// Games, when set, is the games the judge hosts instead of games()
	// (tests add the stall game).
	Games adjudicator.Registry

	closers []io.Closer
	// cmdline is the command being run, without its flags; a command the
	// running judge can carry out is sent to it (control.go).
	cmdline []string
	// daemon is set for a command the judge runs for the control socket.
	daemon *daemon.Daemon
	// Hangup delivers SIGHUP to serve, which then reopens its log file and
	// rereads its templates; nil: never.
	Hangup <-chan os.Signal
	// logFile is serve's log.file, when the configuration names one.
	logFile *daemon.LogFile
}

// NewMain returns a Main wired to the process's streams and clock.
func NewMain() *Main {
	return &Main{
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		Now: time.Now, Getenv: os.Getenv, IsTerminal: isTerminal,
		Logger: slog.New(slog.NewTextHandler(os.Stderr, nil)),
	}
}

// Close releases what the command opened, such as the store.
func (m *Main) Close() error {
	var errs []error
	for i := len(m.closers) - 1; i >= 0; i-- {
		errs = append(errs, m.closers[i].Close())
	}
	m.closers = nil
	return errors.Join(errs...)
}

// helpFiles hold each command's --help paragraphs after its synopsis,
// help/NAME.txt (none for a command without them).
//
//go:embed help/*.txt
var helpFiles embed.FS

// command is one subcommand of umpire.
type command struct {
	name    string
	args    string // the argument synopsis after the name
	summary string
	flags   func(fs *flag.FlagSet) // declares its flags; nil for none
	run     func(ctx context.Context, m *Main, fs *flag.FlagSet, args []string) error
}

func (m *Main) commands() []*command {
	return []*command{
		serveCommand(), demoCommand(), gameCommand(), verifyCommand(), digestCommand(), replayCommand(),
		resolveCommand(), renderCommand(), keysCommand(), mailCommand(), storeCommand(), checkCommand(), editCommand(), versionCommand(),
	}
}

// usagef is a mistake on the command line or in an input file: exit 2.
func usagef(format string, args ...any) error {
	return daemon.UsageError{Err: fmt.Errorf(format, args...)}
}

// exitCode is an error that carries its exit status and whose message, if
// any, was already printed.
type exitCode int

func (e exitCode) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// Run runs the command line args (without the program name) and returns the
// exit code.
func (m *Main) Run(ctx context.Context, args []string) int {
	if len(args) == 0 {
		m.usage(m.Stderr)
		return exitUsage
	}
	name := args[0]
	if isHelp(name) {
		return m.help(args[1:])
	}
	cmd := m.command(name)
	if cmd == nil {
		if strings.HasPrefix(name, "-") {
			fmt.Fprintf(m.Stderr, "umpire: flag %s comes after a command\nRun 'umpire help' for the list of commands.\n", name)
			return exitUsage
		}
		fmt.Fprintf(m.Stderr, "umpire: unknown command %q: the commands are %s\nRun 'umpire help' for what each does.\n", name, m.commandNames())
		return exitUsage
	}
	return m.runCommand(ctx, cmd, args[1:])
}

// isHelp reports whether a word asks for help.
func isHelp(s string) bool {
	switch s {
	case "help", "-h", "-help", "--help":
		return true
	}
	return false
}

// help answers "umpire help [COMMAND]" in all its forms: "help", "help
// help", "help --help", "help COMMAND", "help COMMAND --help".
func (m *Main) help(args []string) int {
	var topics []string
	for _, a := range args {
		if !isHelp(a) {
			topics = append(topics, a)
		}
	}
	switch len(topics) {
	case 0:
		m.usage(m.Stdout)
		return exitOK
	case 1:
		cmd := m.command(topics[0])
		if cmd == nil {
			fmt.Fprintf(m.Stderr, "umpire help: no command %q: the commands are %s\n", topics[0], m.commandNames())
			return exitUsage
		}
		fs := flag.NewFlagSet("umpire "+cmd.name, flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		if cmd.flags != nil {
			cmd.flags(fs)
		}
		m.commandUsage(m.Stdout, cmd, fs)
		return exitOK
	}
	fmt.Fprintf(m.Stderr, "umpire help: one command at a time, not %s\nRun 'umpire help' for the list of commands.\n", strings.Join(topics, " "))
	return exitUsage
}

// command finds a command by name (nil if there is none).
func (m *Main) command(name string) *command {
	for _, c := range m.commands() {
		if c.name == name {
			return c
		}
	}
	return nil
}

// commandNames lists the commands: "serve, demo, game, ...".
func (m *Main) commandNames() string {
	var names []string
	for _, c := range m.commands() {
		names = append(names, c.name)
	}
	return strings.Join(names, ", ")
}

func (m *Main) runCommand(ctx context.Context, cmd *command, args []string) int {
	fs := flag.NewFlagSet("umpire "+cmd.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if cmd.flags != nil {
		cmd.flags(fs)
	}
	pos, err := parseInterspersed(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		m.commandUsage(m.Stdout, cmd, fs)
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(m.Stderr, "umpire %s: %v\nRun 'umpire %s --help' for its usage.\n", cmd.name, err, cmd.name)
		return exitUsage
	}
	m.cmdline = append([]string{cmd.name}, pos...)
	err = cmd.run(ctx, m, fs, pos)
	var code exitCode
	var uerr daemon.UsageError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &code):
		return int(code)
	case errors.As(err, &uerr):
		fmt.Fprintf(m.Stderr, "umpire %s: %v\n", cmd.name, err)
		return exitUsage
	default:
		fmt.Fprintf(m.Stderr, "umpire %s: %v\n", cmd.name, err)
		return exitFail
	}
}

// parseInterspersed parses flags wherever they stand among the positional
// arguments, as people type them ("umpire verify log.json --json"). A "--"
// ends the flags.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		// flag stops at the first non-flag, or after "--" which it drops.
		consumed := len(args) - len(rest)
		if consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

func (m *Main) usage(w io.Writer) {
	var b strings.Builder
	b.WriteString("umpire: a play-by-email judge for board wargames, with dice anyone can verify.\n\n")
	b.WriteString("Usage:\n  umpire COMMAND [flags] [arguments]\n\nCommands:\n")
	for _, c := range m.commands() {
		fmt.Fprintf(&b, "  %-9s %s\n", c.name, c.summary)
	}
	b.WriteString("\nRun 'umpire help COMMAND' (or 'umpire COMMAND --help') for a command's flags and arguments.\n")
	b.WriteString("\nExit status: 0 done (for verify: every check held); 1 failed (a log that\n" +
		"does not verify, a store that cannot be opened, a feature not built yet);\n" +
		"2 bad command line or input file.\n")
	io.WriteString(w, b.String())
}

func (m *Main) commandUsage(w io.Writer, cmd *command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "Usage: umpire %s %s\n\n%s\n", cmd.name, cmd.args, cmd.summary)
	if help, err := helpFiles.ReadFile("help/" + cmd.name + ".txt"); err == nil {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(string(help)))
	}
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n > 0 {
		io.WriteString(w, "\nFlags:\n")
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
}

// isTerminal reports whether w is a character device, such as a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
