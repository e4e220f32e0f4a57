//go:build integration

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	gomessage "github.com/emersion/go-message"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/spec"
	"github.com/umpire-pbem/umpire/cmd/umpire/demo"
	"github.com/umpire-pbem/umpire/mail/message"
)

// buDecks is a state's decks, by seat.
type buDecks struct {
	Decks map[string]struct {
		Draw []string `json:"draw"`
	} `json:"decks"`
}

// reportFile is the name of seat's saved text report of step k.
func reportFile(t *testing.T, dir, seat string, k int) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, strings.ToLower(seat), fmt.Sprintf("*-step-%d-report.txt", k)))
	if len(files) == 0 {
		t.Fatalf("%s has no report of step %d", seat, k)
	}
	return filepath.Base(files[0])
}

// linesNaming is the lines of text that name word, for a failure's message.
func linesNaming(text, word string) string {
	re := regexp.MustCompile(`\b` + regexp.QuoteMeta(word) + `\b`)
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if re.MatchString(l) {
			out = append(out, "\t"+strings.TrimSpace(l))
		}
	}
	return strings.Join(out, "\n")
}

// buState is what these tests read of a Brotherhood & Unity state: the
// hands, by seat.
type buState struct {
	Hands map[string][]string `json:"hands"`
	Seats []string            `json:"seats"`
	Turn  int                 `json:"turn"`
}

// TestBUHiddenHandsByRealMail plays a whole three-seat Brotherhood & Unity
// game, its four turns (the first with small hands), by real mail (Dovecot,
// OpenSMTPD, players signing with gpg and ssh-keygen) and checks that hands stay hidden: no
// seat's mail (reports and receipts, text and HTML) holds a card another
// seat holds at that moment, while every seat's own reports show its hand;
// each seat's reports carry its own deck stream's key and no other's; the
// public dice log a player asks for in the middle of the game holds no
// value of a sealed draw; and after the end umpire verify checks every
// shuffle and deal, every sealed value being public. The game master holds
// no hand: before the end its mail names no card any seat holds and holds
// no deck stream's key. The game is an umpire-dice-v3 game: checkV3ByMail
// checks its salts, keyed digests and commitments, then replays it.
func TestBUHiddenHandsByRealMail(t *testing.T) {
	t.Parallel()
	// a player asks for the public dice log by mail: an unsigned read-only
	// command, answered with the log attached as full-1-log.json
	askLog := func(tb *demo.Table, p *demo.Player, n uint64) []byte {
		raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: log full-1\r\nMessage-ID: <bu-log-%d@players.test>\r\nDate: %s\r\n"+
			"Content-Type: text/plain; charset=utf-8\r\n\r\nlog full-1\r\n", p.Addr, tb.Address, n, tb.Now().Format(time.RFC1123Z))
		if err := tb.Submit(t.Context(), p.Addr, []byte(raw)); err != nil {
			t.Fatal(err)
		}
		got := mustRound(t, tb, []*demo.Player{p})
		for _, raw := range got[p] {
			if bytes.Contains(raw, []byte("full-1-log.json")) {
				return logAttachment(t, raw, "full-1-log.json")
			}
		}
		t.Fatalf("the log request got no answer with full-1-log.json among %d mails", len(got[p]))
		return nil
	}
	var midLog []byte
	// a game master's tracks with smaller first hands shorten the first
	// turn (3, 3 and 2 cards: eight action rounds); the game plays all four
	// turns to its end
	options := "[options]\ntracks = '''\n" + `title = "short first turn"
[intervention]
level1 = -2
level2 = -4
level3 = -6
[cards]
Serb = [3, 7, 6, 6]
Croat = [3, 5, 6, 6]
Bosniak = [2, 6, 6, 6]
` + "'''\n"
	res := playFullGame(t, "bu", "three", options, 9, 0, false, func(tb *demo.Table, step uint64, players []*demo.Player) {
		if step == 6 {
			midLog = askLog(tb, players[0], step)
		}
	})
	// the public log in the middle of the game: sealed draws, no values
	sealed := checkSealedLog(t, midLog, false)
	if sealed == 0 {
		t.Fatal("the mid-game log holds no sealed draw: the deals are not hidden draws")
	}
	// after the end every deck draw is public, and umpire verify checks it
	final := askLog(res.Mail, res.Players[0], 1000)
	if n := checkSealedLog(t, final, true); n < sealed {
		t.Errorf("the final log holds %d deck draws, the mid-game one %d", n, sealed)
	}
	path := filepath.Join(t.TempDir(), "log.json")
	if err := os.WriteFile(path, final, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := run(t, "verify", path); code != exitOK || !strings.Contains(out, "OK") || !strings.Contains(out, "umpire-dice-v3") {
		t.Errorf("verify: exit %d\n%s%s", code, out, errOut)
	} else {
		t.Logf("umpire verify: %s", out)
	}
	checkV3ByMail(t, res, "full-1", midLog, final)

	// each seat checks its own deal at once: the key its set-up report
	// carries opens its deck's shuffle in the running game's log, and the
	// shuffle applied to its sorted deck gives the hand its report shows
	midPath := filepath.Join(t.TempDir(), "log-running.json")
	if err := os.WriteFile(midPath, midLog, 0o644); err != nil {
		t.Fatal(err)
	}
	var first buDecks
	if err := json.Unmarshal(res.Export.Steps[0].State, &first); err != nil {
		t.Fatal(err)
	}
	var dealt buState
	if err := json.Unmarshal(res.Export.Steps[1].State, &dealt); err != nil {
		t.Fatal(err)
	}
	for _, seat := range []string{"Serb", "Croat", "Bosniak"} {
		stream := "deck-" + strings.ToLower(seat)
		rep, _ := os.ReadFile(filepath.Join(res.MailDir, strings.ToLower(seat), reportFile(t, res.MailDir, seat, 1)))
		k := regexp.MustCompile(`verify\s+--key\s+1:` + stream + `:KEY\s+LOG\s+([0-9a-f]{64})`).FindSubmatch(rep)
		if k == nil {
			t.Fatalf("%s's step-1 report carries no key of %s:\n%s", seat, stream, rep)
		}
		code, out, errOut := run(t, "verify", "--key", "1:"+stream+":"+string(k[1]), midPath)
		m := regexp.MustCompile(`Your stream ` + stream + `, step 1, draw \d+ \(shuffle \d+\): \[([0-9 ]*)\]`).FindStringSubmatch(out)
		if code != exitOK || m == nil {
			t.Fatalf("%s's check of its deal: exit %d\n%s%s", seat, code, out, errOut)
		}
		var js []int64
		for _, f := range strings.Fields(m[1]) {
			v, _ := strconv.ParseInt(f, 10, 64)
			js = append(js, v)
		}
		deck := slices.Sorted(slices.Values(first.Decks[seat].Draw))
		spec.ApplyShuffle(deck, js)
		hand := slices.Sorted(slices.Values(deck[:len(dealt.Hands[seat])]))
		if !slices.Equal(hand, slices.Sorted(slices.Values(dealt.Hands[seat]))) {
			t.Errorf("%s's own shuffle gives the hand %v, its report's hand is %v", seat, hand, dealt.Hands[seat])
		}
		// another seat's key is not in this seat's mail (checked below) and
		// this key opens no other deck
		if strings.Contains(out, "Your stream deck-") && strings.Count(out, "Your stream ") != strings.Count(out, "Your stream "+stream) {
			t.Errorf("%s's key opens another stream:\n%s", seat, out)
		}
	}

	// hands in every seat's mail
	states := map[uint64]buState{} // the state after step k
	for i, st := range res.Export.Steps {
		var s buState
		if err := json.Unmarshal(st.State, &s); err != nil {
			t.Fatal(err)
		}
		states[uint64(i)] = s // the state step i+1 opened with is the one after step i
	}
	stepOf := regexp.MustCompile(`step-(\d+)`)
	cardRE := regexp.MustCompile(`\b[SCB]\d{1,2}\b`)
	for _, seat := range []string{"Serb", "Croat", "Bosniak"} {
		files, _ := filepath.Glob(filepath.Join(res.MailDir, strings.ToLower(seat), "*"))
		ownSeen, checked := false, 0
		for _, f := range files {
			if !strings.HasSuffix(f, ".txt") && !strings.HasSuffix(f, ".html") {
				continue
			}
			m := stepOf.FindStringSubmatch(filepath.Base(f))
			if m == nil {
				continue
			}
			k, _ := strconv.ParseUint(m[1], 10, 64)
			at := k - 1 // a receipt: the hands when the step opened
			if strings.Contains(filepath.Base(f), "report") {
				at = k // a report: the hands after the step
			}
			st, ok := states[at]
			if !ok {
				continue
			}
			// A step that ends a turn plays its last cards and deals the
			// next turn's: the action phase ends when every card has
			// been played (5.1.1), so a card in a hand both before and after
			// such a step was played in it, its name public, and was
			// dealt anew from the deck made of the discards (6.1.1).
			before, turnChanged := states[at-1], false
			if at == k && before.Turn != 0 && st.Turn != before.Turn {
				turnChanged = true
			}
			text, _ := os.ReadFile(f)
			words := cardRE.FindAllString(string(text), -1)
			for other, hand := range st.Hands {
				for _, c := range hand {
					if turnChanged && slices.Contains(before.Hands[other], c) {
						continue
					}
					if other != seat && slices.Contains(words, c) {
						t.Errorf("%s's mail %s names %s, a card in %s's hand:\n%s", seat, filepath.Base(f), c, other, linesNaming(string(text), c))
					}
					if other == seat && strings.Contains(filepath.Base(f), "report") && strings.HasSuffix(f, ".txt") && slices.Contains(words, c) {
						ownSeen = true
					}
				}
			}
			for _, other := range []string{"serb", "croat", "bosniak"} {
				if other != strings.ToLower(seat) && strings.Contains(string(text), "stream deck-"+other) {
					t.Errorf("%s's mail %s names the key of deck-%s", seat, filepath.Base(f), other)
				}
			}
			if strings.Contains(filepath.Base(f), "report") && strings.HasSuffix(f, ".txt") && strings.Contains(string(text), "stream deck-"+strings.ToLower(seat)) {
				checked++
			}
			checked++
		}
		if !ownSeen {
			t.Errorf("%s's reports never show its own hand: the check above would not see a leak either", seat)
		}
		if checked == 0 {
			t.Errorf("no mail of %s was checked", seat)
		}
	}

	// the game master's mail before the end: every report (text and HTML)
	// of a step but the last (after which the game has ended and everyone
	// may see everything) names no card in any seat's hand, and no deck
	// stream's key of any step is in any of its mails
	var root struct {
		SealedRoot string `json:"sealed_root"`
	}
	if err := json.Unmarshal(final, &root); err != nil {
		t.Fatal(err)
	}
	sealedRoot, err := dice.ParseHash(root.SealedRoot)
	if err != nil {
		t.Fatalf("the final log's sealed root: %v", err)
	}
	lastStep := uint64(len(res.Export.Steps) - 1)
	gmFiles, _ := filepath.Glob(filepath.Join(res.MailDir, "gm", "*"))
	gmReports := 0
	for _, f := range gmFiles {
		text, _ := os.ReadFile(f)
		for k := uint64(1); k <= lastStep; k++ {
			for _, seat := range []string{"serb", "croat", "bosniak"} {
				if key := dice.StreamKey(sealedRoot, k, "deck-"+seat).String(); bytes.Contains(text, []byte(key)) {
					t.Errorf("the game master's mail %s holds the key of deck-%s of step %d", filepath.Base(f), seat, k)
				}
			}
		}
		m := stepOf.FindStringSubmatch(filepath.Base(f))
		if m == nil || !strings.Contains(f, "report") || !(strings.HasSuffix(f, ".txt") || strings.HasSuffix(f, ".html")) {
			continue
		}
		k, _ := strconv.ParseUint(m[1], 10, 64)
		st, ok := states[k]
		if !ok || k >= lastStep {
			continue
		}
		gmReports++
		// As for the seats above: a card in a hand both before and after
		// a step that ends a turn was played in it (5.1.1), its name
		// public, and dealt anew (6.1.1). The deals differ from run to
		// run (each game has its own dice chains).
		before := states[k-1]
		turnChanged := k > 0 && before.Turn != 0 && st.Turn != before.Turn
		words := cardRE.FindAllString(string(text), -1)
		for holder, hand := range st.Hands {
			for _, c := range hand {
				if turnChanged && slices.Contains(before.Hands[holder], c) {
					continue
				}
				if slices.Contains(words, c) {
					t.Errorf("the game master's mail %s names %s, a card in %s's hand", filepath.Base(f), c, holder)
				}
			}
		}
		if strings.HasSuffix(f, ".txt") && !strings.Contains(string(text), "the public view") {
			t.Errorf("the game master's report %s does not say it is the public view", filepath.Base(f))
		}
	}
	if gmReports < 2 {
		t.Errorf("only %d of the game master's reports were checked", gmReports)
	}
}

// logAttachment is the dice log a log answer carries, as a player's mail
// program saves the attached file name: its text names the file.
func logAttachment(t *testing.T, raw []byte, name string) []byte {
	t.Helper()
	m, err := message.Parse(raw, message.Limits{MaxMessage: 64 << 20, MaxAttachment: 32 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.Text, "attached to this mail as "+name) {
		t.Errorf("the log answer does not name its file %s:\n%s", name, m.Text)
	}
	for _, a := range m.Attachments {
		if a.Filename == name && a.ContentType == "application/json" {
			return a.Data
		}
	}
	t.Fatalf("the log answer has no %s attached:\n%s", name, m.Text)
	return nil
}

// plainPart is the text/plain part of a mail.
func plainPart(t *testing.T, raw []byte) []byte {
	t.Helper()
	e, err := gomessage.Read(bytes.NewReader(raw))
	if err != nil && e == nil {
		t.Fatal(err)
	}
	var out []byte
	e.Walk(func(_ []int, part *gomessage.Entity, err error) error {
		if ct, _, _ := part.Header.ContentType(); err == nil && ct == "text/plain" && out == nil {
			out, _ = io.ReadAll(part.Body)
		}
		return nil
	})
	return out
}

// checkSealedLog reads a v2 dice log and returns its draws from deck
// streams: before the end (ended false) each must hold no value, after it
// each must hold its values.
func checkSealedLog(t *testing.T, data []byte, ended bool) int {
	t.Helper()
	var x struct {
		SealedRoot *string          `json:"sealed_root"`
		Records    []map[string]any `json:"records"`
	}
	if err := json.Unmarshal(data, &x); err != nil {
		t.Fatalf("log: %v\n%s", err, data)
	}
	if (x.SealedRoot != nil) != ended {
		t.Errorf("sealed_root %v, want it set only after the end", x.SealedRoot)
	}
	n := 0
	for _, r := range x.Records {
		if r["type"] != "draw" {
			continue
		}
		stream, _ := r["stream"].(string)
		if !strings.HasPrefix(stream, "deck-") {
			if stream != "open" {
				t.Errorf("a hidden draw on stream %q: the game's streams are its decks", stream)
			}
			continue
		}
		n++
		revealed := r["values"] != nil
		purpose := fmt.Sprint(r["purpose"])
		if !strings.Contains(purpose, "shuffle") || !strings.Contains(purpose, "B&U 6.1") {
			t.Errorf("deck draw %q cites no deal rule", purpose)
		}
		if ended && !revealed {
			t.Errorf("after the end, deck draw %v (%s) still has no values", r["seq"], purpose)
		}
		if !ended && revealed {
			// a reveal record may open a turn's deal once its cards are all
			// played; in the first turn nothing is revealed yet
			t.Errorf("before the end, deck draw %v (%s) shows its values", r["seq"], purpose)
		}
	}
	return n
}
