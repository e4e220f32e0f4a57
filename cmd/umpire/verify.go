package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

func verifyCommand() *command {
	return &command{
		name:    "verify",
		args:    "[--json] FILE",
		summary: "Check a game's exported dice log offline: links, entry hashes, every value.",
		help: `FILE is a dice log export (docs/dice-log.md), or - for standard input.
verify checks that every revealed dice link hashes back to the game's
published commitments, recomputes each step's digest from its order digests,
re-derives every revealed value from its stream, and checks the hash chain
from h0 to the log head. It names the first entry that does not hold.

Compare the head it prints with the head quoted in your latest report: a log
that verifies but ends in another head is not the log your reports quoted.

Exit status: 0 every check held; 1 a check failed; 2 FILE is not a dice log.`,
		flags: func(fs *flag.FlagSet) {
			fs.Bool("json", false, "print the result as one JSON object on standard output, also when FILE cannot be read ({\"ok\": false, \"error\": ...})")
		},
		run: runVerify,
	}
}

func runVerify(ctx context.Context, m *Main, fs *flag.FlagSet, args []string) error {
	asJSON := fs.Lookup("json").Value.(flag.Getter).Get().(bool)
	err := verify(ctx, m, asJSON, args)
	if err == nil || !asJSON {
		return err
	}
	var code exitCode
	if errors.As(err, &code) {
		return err // the result is printed
	}
	// --json promises JSON on standard output, also when there is no
	// result: {"ok": false, "error": "..."}, with the same exit status.
	status := exitFail
	var uerr usageError
	if errors.As(err, &uerr) {
		status = exitUsage
	}
	enc := json.NewEncoder(m.Stdout)
	enc.SetIndent("", "  ")
	if jerr := enc.Encode(struct {
		OK    bool   `json:"ok"`
		Error string `json:"error"`
	}{false, err.Error()}); jerr != nil {
		return jerr
	}
	fmt.Fprintf(m.Stderr, "umpire verify: %v\n", err)
	return exitCode(status)
}

func verify(ctx context.Context, m *Main, asJSON bool, args []string) error {
	if len(args) != 1 {
		return usagef("want one FILE argument, got %d", len(args))
	}
	name := args[0]
	var in io.Reader
	var size int64
	if name == "-" {
		in = m.Stdin
	} else {
		f, err := os.Open(name)
		if err != nil {
			return usagef("%w", err)
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil {
			return err
		}
		if st.IsDir() {
			return usagef("%s is a directory, not a dice log file", name)
		}
		size = st.Size()
		in = f
	}
	var bar *progressBar
	if !asJSON && m.IsTerminal(m.Stderr) {
		bar = newProgressBar(m.Stderr, m.Now)
		in = &countingReader{r: in, fn: func(n int64) { bar.set("reading", n, size) }}
	}
	x, err := dice.ReadExport(in)
	if err != nil {
		bar.clear()
		if errors.Is(err, dice.ErrNotLog) || errors.Is(err, dice.ErrVersion) {
			return usagef("%s: %w", name, err)
		}
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	var progress func(done, total int)
	if bar != nil {
		progress = func(done, total int) { bar.set("verifying", int64(done), int64(total)) }
	}
	res := dice.Verify(x, progress)
	bar.clear()
	if asJSON {
		out := struct {
			OK bool `json:"ok"`
			*dice.Result
		}{res.OK(), res}
		enc := json.NewEncoder(m.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return err
		}
	} else {
		printVerify(m.Stdout, name, res)
	}
	if !res.OK() {
		return exitCode(exitFail)
	}
	return nil
}

func printVerify(w io.Writer, name string, res *dice.Result) {
	if !res.OK() {
		fmt.Fprintf(w, "FAILED %s (game %s)\n  %s\n", name, res.Game, res.Problem.Error())
		fmt.Fprintf(w, "  Nothing from this entry on can be trusted; the log has %d steps and %d entries.\n", res.Steps, res.Entries)
		return
	}
	fmt.Fprintf(w, "OK %s (game %s)\n", name, res.Game)
	fmt.Fprintf(w, "  %d steps, %d entries: %d re-derived from their revealed links", res.Steps, res.Entries, res.Verified)
	if res.Hidden > 0 {
		fmt.Fprintf(w, ",\n  %s taken by their stated hash until their link is revealed", plural(res.Hidden, "sealed entry"))
	}
	fmt.Fprintf(w, ".\n  Log head %s\n  Compare this head with the one quoted in your latest report.\n", res.Head)
}

// countingReader reports the bytes read so far.
type countingReader struct {
	r  io.Reader
	n  int64
	fn func(n int64)
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	c.fn(c.n)
	return n, err
}
