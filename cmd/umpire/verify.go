package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon"
	"github.com/umpire-pbem/umpire/templates"
)

func verifyCommand() *command {
	return &command{
		name:    "verify",
		args:    "[--json] [--head HEX] [--key STEP:STREAM:KEY]... [--salt SEAT:SALT]... FILE",
		summary: "Check a game's exported dice log offline: every record, link, key and value, in one pass.",
		flags: func(fs *flag.FlagSet) {
			fs.Bool("json", false, "print the result as one JSON object on standard output, also when FILE cannot be read ({\"ok\": false, \"error\": ...})")
			fs.String("head", "", "the head quoted in your latest report, to compare")
			fs.Var(&keyFlags{}, "key", "STEP:STREAM:KEY, a hidden stream key you were sent (may be repeated)")
			fs.Var(&saltFlags{}, "salt", "SEAT:SALT, your seat's order salt (v3; may be repeated)")
		},
		run: runVerify,
	}
}

// keyFlags collects --key values.
type keyFlags struct{ keys []dice.KeyReveal }

func (k *keyFlags) String() string { return "" }

func (k *keyFlags) Set(s string) error {
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return fmt.Errorf("want STEP:STREAM:KEY, such as 3:hand-a:0c65d7a9 (64 hex digits)")
	}
	step, err := strconv.ParseUint(parts[0], 10, 64)
	if err != nil || step == 0 {
		return fmt.Errorf("%q is not a step number", parts[0])
	}
	key, err := dice.ParseHash(parts[2])
	if err != nil {
		return fmt.Errorf("the key: %w", err)
	}
	k.keys = append(k.keys, dice.KeyReveal{Step: step, Stream: parts[1], Key: key})
	return nil
}

func (k *keyFlags) Get() any { return k.keys }

// saltFlags collects --salt values.
type saltFlags struct{ salts map[string]dice.Hash }

func (s *saltFlags) String() string { return "" }

func (s *saltFlags) Set(v string) error {
	i := strings.LastIndexByte(v, ':')
	if i < 1 {
		return fmt.Errorf("want SEAT:SALT, such as Serb:87e360b2... (64 hex digits)")
	}
	salt, err := dice.ParseHash(v[i+1:])
	if err != nil {
		return fmt.Errorf("the salt: %w", err)
	}
	if _, twice := s.salts[v[:i]]; twice {
		return fmt.Errorf("seat %q's salt is given twice", v[:i])
	}
	if s.salts == nil {
		s.salts = map[string]dice.Hash{}
	}
	s.salts[v[:i]] = salt
	return nil
}

func (s *saltFlags) Get() any { return s.salts }

func runVerify(ctx context.Context, m *Main, fs *flag.FlagSet, args []string) error {
	asJSON := fs.Lookup("json").Value.(flag.Getter).Get().(bool)
	err := verifyLog(ctx, m, fs, args)
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
	var uerr daemon.UsageError
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

// verifyLog is verify itself; runVerify keeps --json's promise around it.
func verifyLog(ctx context.Context, m *Main, fs *flag.FlagSet, args []string) error {
	if len(args) != 1 {
		return usagef("want one FILE argument, got %d", len(args))
	}
	asJSON := fs.Lookup("json").Value.(flag.Getter).Get().(bool)
	keys := fs.Lookup("key").Value.(flag.Getter).Get().([]dice.KeyReveal)
	salts := fs.Lookup("salt").Value.(flag.Getter).Get().(map[string]dice.Hash)
	var wantHead *dice.Hash
	if h := fs.Lookup("head").Value.String(); h != "" {
		head, err := dice.ParseHash(h)
		if err != nil {
			return usagef("--head: %w", err)
		}
		wantHead = &head
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
	// A game export ('umpire game export', 'umpire game archive') holds
	// its dice log: that is what is checked.
	br := bufio.NewReaderSize(in, 64<<10)
	in = br
	var orderFile func(seat string, forStep, version uint64) ([]byte, bool)
	if head, _ := br.Peek(512); adjudicator.IsGameExport(head) {
		x, err := adjudicator.ReadGameExport(br)
		if err != nil {
			return usagef("%s: %w", name, err)
		}
		name = fmt.Sprintf("%s (the dice log of game export %s)", name, x.Game)
		in, size = bytes.NewReader(x.Dice), int64(len(x.Dice))
		orderFile = x.OrderFile
	}
	var bar *templates.Progress
	if !asJSON && m.IsTerminal(m.Stderr) {
		bar = templates.NewProgress(m.Stderr, m.Now)
	}
	opt := dice.VerifyOptions{Keys: keys, Salts: salts, OrderFile: orderFile}
	if bar != nil {
		opt.Progress = func(n int64) { bar.Set("verifying", n, size) }
	}
	res, err := dice.VerifyStream(in, opt)
	var v1 *dice.LegacyExport
	switch {
	case errors.As(err, &v1):
		bar.Clear()
		return verifyLegacy(ctx, m, name, v1.Input, size, asJSON, wantHead)
	case errors.Is(err, dice.ErrNotLog) || errors.Is(err, dice.ErrVersion):
		bar.Clear()
		return usagef("%s: not a dice log this verifier reads: %w", name, err)
	case err != nil:
		bar.Clear()
		return fmt.Errorf("%s: %w", name, err)
	}
	bar.Clear()
	headDiffers := res.OK() && wantHead != nil && *wantHead != res.Head
	if asJSON {
		out := struct {
			OK          bool `json:"ok"`
			Version     int  `json:"version"`
			HeadDiffers bool `json:"head_differs,omitempty"`
			*dice.Result
		}{res.OK() && !headDiffers, res.Version, headDiffers, res}
		enc := json.NewEncoder(m.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return err
		}
	} else {
		templates.WriteVerification(m.Stdout, name, res, wantHead)
	}
	if !res.OK() || headDiffers {
		return exitCode(exitFail)
	}
	return nil
}

// verifyLegacy checks an umpire-dice-v1 export (docs/dice-log.md, appendix).
func verifyLegacy(ctx context.Context, m *Main, name string, in io.Reader, size int64, asJSON bool, wantHead *dice.Hash) error {
	var bar *templates.Progress
	if !asJSON && m.IsTerminal(m.Stderr) {
		bar = templates.NewProgress(m.Stderr, m.Now)
		in = bar.Reader(in, "reading", size)
	}
	x, err := legacy.ReadExport(in)
	if err != nil {
		bar.Clear()
		if errors.Is(err, dice.ErrNotLog) || errors.Is(err, dice.ErrVersion) {
			return usagef("%s: not a dice log this verifier reads: %w", name, err)
		}
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	var progress func(done, total int)
	if bar != nil {
		progress = func(done, total int) { bar.Set("verifying", int64(done), int64(total)) }
	}
	res := legacy.Verify(x, progress)
	bar.Clear()
	headDiffers := res.OK() && wantHead != nil && *wantHead != res.Head
	if asJSON {
		out := struct {
			OK          bool `json:"ok"`
			Version     int  `json:"version"`
			HeadDiffers bool `json:"head_differs,omitempty"`
			*legacy.Result
		}{res.OK() && !headDiffers, 1, headDiffers, res}
		enc := json.NewEncoder(m.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return err
		}
	} else {
		templates.WriteLegacyVerification(m.Stdout, name, res)
		if headDiffers {
			fmt.Fprintf(m.Stdout, "HEAD DIFFERS: you gave %s.\n  The log verifies, but it is not the log that report quoted.\n", *wantHead)
		}
	}
	if !res.OK() || headDiffers {
		return exitCode(exitFail)
	}
	return nil
}
