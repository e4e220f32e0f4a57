package web

import (
	"context"
	"fmt"
	"html"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/adjudicator/kit"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/templates"
)

// TestReportTexts plays each game's demo to its end between the rules'
// bots and reads every report of every step as each seat, the game master
// and an observer get it (the text part, and the HTML part's text) as a
// player reads it: no raw token of the program (fire_control_crippled,
// assault+ap_grenade), no word doubled ("the the"), no event said twice in
// one step, no "a" before a vowel sound where a text is generated ("a
// RPG"), no list of two or more followed by a singular verb ("1206 and
// 1407 is overstacked"), and each side's units together, in natural order
// (ARBIH-2 before ARBIH-10); and every modified roll written as the
// games write one (kit.Roll: "7 +2 card B15 (13.4.4) -2 Bosniak on turn 1
// (13.4.4.3) = 7"), its terms each named with its rule and summing to the
// difference between the total and the die, and 1995's combat strength
// adjustments ("CSA +4 (MP spent +1 (7.3), adjacent units +3 (8.1.2))")
// each part named with its rule and summing to the total. A failure names
// the game, the step, the reader and the line.
func TestReportTexts(t *testing.T) {
	t.Parallel()
	rs, err := templates.NewReports("")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range demoScenarios {
		t.Run(d.kind, func(t *testing.T) {
			t.Parallel()
			w, id := endedDemo(t, d.kind, d.scenario)
			last := lastPlayed(t, w, id)
			err := w.db.View(context.Background(), func(stx *store.Tx) error {
				tx := stx.Judge(judgeFrom, w.now)
				readers, err := readersOf(tx, id)
				if err != nil {
					return err
				}
				// ids are every unit's id the game master is shown.
				ids := map[string]bool{}
				for k := uint64(1); k <= last; k++ {
					r, err := w.j.BuildReport(tx, id, k, "")
					if err != nil {
						return err
					}
					for _, u := range r.Units {
						ids[u.ID] = true
					}
				}
				for k := uint64(1); k <= last; k++ {
					for _, reader := range readers {
						r, err := w.j.BuildReport(tx, id, k, reader)
						if err != nil {
							return err
						}
						r.Picture = nil // the pictures have their own test; this one reads
						out, err := rs.Render(r)
						if err != nil {
							return err
						}
						where := fmt.Sprintf("%s step %d, %s", id, k, readerName(reader))
						for _, p := range reportProblems(out.Text, ids) {
							t.Errorf("%s, text part: %s", where, p)
						}
						for _, p := range reportProblems(htmlText(out.HTML), ids) {
							t.Errorf("%s, HTML part: %s", where, p)
						}
						said := map[adjudicator.ReportEvent]int{}
						for _, e := range r.Events {
							if said[e]++; said[e] == 2 {
								t.Errorf("%s: event said twice in one step: %q", where, e.Text)
							}
							if reader == "" {
								for _, p := range rollProblems(e.Text) {
									t.Errorf("%s: %s", where, p)
								}
							}
						}
						for _, p := range unitOrderProblems(r.Units) {
							t.Errorf("%s: %s", where, p)
						}
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

func readerName(reader string) string {
	switch reader {
	case "":
		return "the game master"
	case adjudicator.Spectator:
		return "the public view"
	}
	return "seat " + reader
}

var (
	// tokenRE is a word of letters joined by "_" or "+": a program's
	// token, never a word of English.
	tokenRE = regexp.MustCompile(`\b[A-Za-z][A-Za-z0-9]*(?:[_+][A-Za-z][A-Za-z0-9]*)+\b`)
	// pairRE is two words of prose one space apart (the table's columns
	// are two or more apart).
	pairRE = regexp.MustCompile(`\b[A-Za-z]+ [A-Za-z]+\b`)
	// articleRE is "a" before a word with a vowel sound: a vowel (but the
	// "you" sound of unit, use...; "one" is let through below) or an
	// initialism of two or three capitals read letter by letter from one
	// of A E F H I L M N O R S X (NATO, a word, is read as one).
	articleRE = regexp.MustCompile(`(?:^|[^\pL\pN'])[Aa] ((?:[AEIOaeio][\pL]*|[AEFHILMNORSX][A-Z0-9]{1,2})(?:$|[^\pL\pN]))`)
	// agreeRE is a generated list of two or more ("1206 and 1407",
	// "1206, 1305 and 1407") followed by a singular verb.
	agreeRE = regexp.MustCompile(`\b[A-Za-z0-9-]+(?:, [A-Za-z0-9-]+)* and [A-Za-z0-9-]+ (is|was|has)\b`)
)

var (
	// rollRE is a modified roll as kit.Roll writes it: the die, one or
	// more terms "+2 card B15 (13.4.4)", "=" and the total.
	rollRE = regexp.MustCompile(`(-?\d+)((?: [+-]\d+ [^()=,;:]+? \([^()]+\))+) = (-?\d+)`)
	// termRE is one term of rollRE: its value, what it is for, its rule.
	termRE = regexp.MustCompile(` ([+-]\d+) ([^()=,;:]+?) \(([^()]+)\)`)
	// modifiedRE is a roll said to be modified some other way ("modified
	// roll 5", "DRM +1 makes 4", "14→9").
	modifiedRE = regexp.MustCompile(`(?i)\bmodified\b|\bDRM [+-]?\d|\bmakes -?\d|\d→\d`)
	// csaRE is a combat strength adjustment (1995's CSA) with its parts,
	// "CSA +4 (MP spent +1 (7.3), adjacent units +3 (8.1.2))": each part
	// is a term of the total, named with its rule (cspartRE).
	csaRE      = regexp.MustCompile(`\bCSA ([+-]\d+) \(((?:[^()]|\([^()]*\))*)\)`)
	cspartRE   = regexp.MustCompile(`^([^()]+?) ([+-]\d+) \(([^()]+)\)$`)
	rollWordRE = regexp.MustCompile(`(?i)\brolls?\b|\brolled\b|\bmakes -?\d`)
)

// rollProblems are what is wrong with the modified rolls an event
// reports: a roll modified but not written as kit.Roll writes it (its
// modifiers unnamed), a term without its value or rule, or terms that do
// not sum to the total less the die.
func rollProblems(text string) []string {
	var out []string
	rolls := rollRE.FindAllStringSubmatch(text, -1)
	if len(rolls) == 0 && rollWordRE.MatchString(text) && modifiedRE.MatchString(text) {
		out = append(out, fmt.Sprintf("a modified roll whose modifiers are not named with their rules: %q", text))
	}
	for _, m := range rolls {
		die, _ := strconv.Atoi(m[1])
		total, _ := strconv.Atoi(m[3])
		sum := 0
		for _, t := range termRE.FindAllStringSubmatch(m[2], -1) {
			v, _ := strconv.Atoi(t[1])
			sum += v
			if v == 0 || strings.TrimSpace(t[2]) == "" || strings.TrimSpace(t[3]) == "" {
				out = append(out, fmt.Sprintf("a term of %q without its value, name or rule: %q", m[0], t[0]))
			}
		}
		if die+sum != total {
			out = append(out, fmt.Sprintf("the terms of %q sum to %+d, but the total less the die is %+d", m[0], sum, total-die))
		}
	}
	for _, m := range csaRE.FindAllStringSubmatch(text, -1) {
		total, _ := strconv.Atoi(m[1])
		if m[2] == "none" && total == 0 {
			continue
		}
		sum := 0
		for _, part := range strings.Split(m[2], ", ") {
			t := cspartRE.FindStringSubmatch(part)
			if t == nil {
				out = append(out, fmt.Sprintf("a part of %q not named with its value and rule: %q", m[0], part))
				continue
			}
			v, _ := strconv.Atoi(t[2])
			sum += v
		}
		if sum != total {
			out = append(out, fmt.Sprintf("the parts of %q sum to %+d", m[0], sum))
		}
	}
	return out
}

// vowelWords begin with a vowel letter and a consonant sound.
var vowelWords = map[string]bool{"one": true, "once": true, "Euro": true, "European": true}

// reportProblems are the lines of a rendered report a player should not
// read, each with what is wrong. The orders a seat sent are echoed as it
// wrote them (its own tokens stay) and the dice log's digests are not
// prose, so neither section is read, nor an order line quoted in prose.
func reportProblems(text string, ids map[string]bool) []string {
	var out []string
	section := ""
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if head, _, _ := strings.Cut(line, " ("); sectionRE.MatchString(head) {
			section = head
			continue
		}
		if strings.Contains(section, "ORDERS") || section == "CHECK THE DICE" {
			continue
		}
		line = quotedRE.ReplaceAllString(line, `"…"`)
		for _, m := range tokenRE.FindAllString(line, -1) {
			if stackOfIDs(line, m, ids) {
				continue
			}
			out = append(out, fmt.Sprintf("raw token %q in %q", m, trimmed))
		}
		for _, m := range doubledWords(line) {
			out = append(out, fmt.Sprintf("%q doubled in %q", m, trimmed))
		}
		for _, m := range articleRE.FindAllStringSubmatch(line, -1) {
			m[1] = strings.TrimRightFunc(m[1], func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
			if !vowelWords[m[1]] && !strings.HasPrefix(strings.ToLower(m[1]), "one") {
				out = append(out, fmt.Sprintf("\"a %s\" in %q", m[1], trimmed))
			}
		}
		for _, m := range agreeRE.FindAllString(line, -1) {
			out = append(out, fmt.Sprintf("a list with a singular verb, %q, in %q", m, trimmed))
		}
	}
	return out
}

// doubledWords are the words line says twice in a row ("the the").
func doubledWords(line string) []string {
	var out []string
	for i := 0; i < len(line); {
		loc := pairRE.FindStringIndex(line[i:])
		if loc == nil {
			break
		}
		first, second, _ := strings.Cut(line[i+loc[0]:i+loc[1]], " ")
		if strings.EqualFold(first, second) && len(first) > 1 {
			out = append(out, first)
		}
		i += loc[0] + len(first) + 1 // the second word may begin the next pair
	}
	return out
}

// stackOfIDs says whether the word of line holding token is units' ids
// joined by "+", as a stack is written in orders (S-ART1+S-AT+S-G1), or
// an id that holds a "+" itself (sms1914's 29/IV+det.29).
func stackOfIDs(line, token string, ids map[string]bool) bool {
	for _, f := range strings.Fields(line) {
		if !strings.Contains(f, token) {
			continue
		}
		f = strings.TrimSuffix(strings.TrimRight(strings.TrimLeft(f, "("), ",.:;)"), "'s")
		if ids[f] {
			return true
		}
		all := true
		for _, part := range strings.Split(f, "+") {
			all = all && ids[part]
		}
		return all
	}
	return false
}

// sectionRE is a section's heading, before its note in brackets: "EVERY
// SEAT'S ORDERS (published: publish_orders)" (the note names the game
// file's setting).
var sectionRE = regexp.MustCompile(`^[A-Z][A-Z' ]{3,}$`)

// quotedRE is a quoted order line ("move N-C1 1507"): the seat's own
// words, read as it wrote them.
var quotedRE = regexp.MustCompile(`"[^"]*"`)

var tagRE = regexp.MustCompile(`(?s)<style.*?</style>|<[^>]+>`)

// htmlText is the text an HTML part shows: tags dropped, each block on
// its own line, entities read.
func htmlText(page string) string {
	page = regexp.MustCompile(`(?i)</?(p|li|tr|h[1-6]|div|br|ol|ul|table|caption|pre)\b[^>]*>`).ReplaceAllString(page, "\n")
	page = regexp.MustCompile(`(?i)</t[dh]>`).ReplaceAllString(page, " | ")
	return html.UnescapeString(tagRE.ReplaceAllString(page, ""))
}

// unitOrderProblems: each side's units together, in natural order.
func unitOrderProblems(units []adjudicator.Unit) []string {
	var out []string
	done := map[string]bool{}
	for i, u := range units {
		if i > 0 && units[i-1].Side != u.Side {
			if done[u.Side] {
				out = append(out, fmt.Sprintf("the units of %s are not together: %s after %s of %s", u.Side, u.ID, units[i-1].ID, units[i-1].Side))
			}
			done[units[i-1].Side] = true
		}
		if i > 0 && units[i-1].Side == u.Side && board.NaturalCompare(u.ID, units[i-1].ID) < 0 {
			out = append(out, fmt.Sprintf("%s listed after %s: not in natural order", u.ID, units[i-1].ID))
		}
	}
	return out
}

// TestRollProblems: the reader of modified rolls accepts a roll written by
// kit.Roll and rejects one whose terms are unnamed or do not add up.
func TestRollProblems(t *testing.T) {
	t.Parallel()
	var mods kit.Modifiers
	mods.Add(2, "card B15", "13.4.4")
	mods.Add(-2, "Bosniak on turn 1", "13.4.4.3")
	for _, ok := range []string{
		"The attacker rolls " + kit.Roll(7, mods) + ": CE x1.5.",
		"The attacker rolls 0: CE x0.25; the defender rolls 5 +3 card B1 (13.4.4) = 8: CE x1.5.",
		"Turn order rolls: R1 16 -10 suppression fire x2 (Kill fire/suppression fire) = 6, R2 1.",
		"The attack on Brčko: attacker CF 13, DRM -4; defender CF 6, DRM +0.",
		"ME on 2212: N-C1 draws chit 1 (NATO, B reads 13) + CSA +4 (MP spent +1 (7.3), adjacent units +3 (8.1.2)) + die 8 = FCR 18.",
	} {
		if p := rollProblems(ok); len(p) > 0 {
			t.Errorf("rollProblems(%q) = %q, want none", ok, p)
		}
	}
	for _, bad := range []string{
		"The attacker rolls 0 (modified 0: CE x0.25), the defender 7 (modified 7: CE x1.5).",
		"SAM fire at IT-FOLGORE (DRM +1) makes 4: no effect.",
		"Turn order rolls: A2 14→9 (suppressed).",
		"The defender rolls 7 +2 card B15 (13.4.4) = 7: CE x1.5.",
		"ME on 2212: N-C1 draws chit 1 (NATO, B reads 13) + CSA +4 (MP spent +1, adjacent units +3) + die 8 = FCR 18.",
		"ME on 2212: N-C1 draws chit 1 (NATO, B reads 13) + CSA +4 (MP spent +1 (7.3), adjacent units +2 (8.1.2)) + die 8 = FCR 18.",
	} {
		if p := rollProblems(bad); len(p) == 0 {
			t.Errorf("rollProblems(%q) = none, want a problem", bad)
		}
	}
}
