package sms1914

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// numberedRules are the numbered rules of sections 3 to 27 of the rule
// text (headings and lettered rules), blank ones included.
var numberedRules = strings.Fields(`
3.0 3.1 3.1.1 3.1.2 3.1.2a 3.1.3 3.1.5 3.1.6 3.1.6a 3.2 3.2.1 3.3 3.3.1 3.3.2 3.3.3 3.4 3.4.1 3.5 3.5.1 3.5.2 3.5.3
3.5.4 3.5.5 3.5.6 3.6 3.6.1
4.0 4.1 4.2 4.2.1 4.2.1a 4.2.2 4.2.3 4.2.4 4.2.5 4.2.6 4.2.7 4.2.8 4.2.9 4.3 4.3.1 4.3.2
5.0 5.1 5.1.1 5.1.1a 5.1.2 5.1.3 5.2 5.2.1 5.2.2 5.2.3 5.2.4 5.3 5.3.1 5.3.2 5.3.3 5.4 5.5 5.5.1 5.5.2 5.5.3
6.0 6.1 6.1.1 6.1.2 6.1.3 6.1.4 6.2 6.2.1 6.2.2 6.3 6.4 6.5
7.0 7.1 7.1.1 7.1.2 7.1.3 7.1.3a 7.1.4a 7.1.4b 7.1.5 7.1.5a 7.1.6 7.1.6a 7.1.7 7.2 7.2.1 7.2.2 7.2.2a 7.2.3 7.2.3a
7.3 7.3.1 7.3.2 7.3.3 7.3.4 7.4 7.4.1 7.4.2 7.4.3 7.4.4 7.4.5 7.4.6 7.4.7 7.5 7.5.1 7.5.1a 7.5.2 7.6 7.7 7.7.1
7.8 7.8.1 7.8.2 7.8.3 7.9 7.10
8.0 8.1 8.2 8.2.1 8.2.2 8.2.3 8.2.4 8.2.4a 8.3 8.3.1 8.3.2 8.5 8.5.1 8.5.2 8.5.3 8.6 8.6.2 8.6.3 8.6.4 8.6.5 8.7
8.8 8.8.1
9.0 9.1 9.1.1 9.2 9.2.1 9.2.2 9.2.3 9.2.4 9.2.5 9.3 9.3.1 9.3.2 9.3.3 9.4 9.4.1 9.4.2 9.5 9.5.1 9.5.2 9.5.3 9.5.4
9.6 9.6.1 9.6.2 9.7 9.8 9.8.1 9.8.2 9.9 9.9.1 9.9.2 9.10 9.10.1 9.10.2 9.10.3 9.10.4
10.0 10.1 10.1.1 10.1.1a 10.1.2 10.2 10.3
11.0 11.1 11.1.1 11.1.1a 11.1.2 11.1.3 11.1.4 11.1.5 11.1.6 11.2 11.2.1 11.2.2
12.0 13.0
14.0 14.1 14.2 14.3 14.3.1 14.3.2 14.3.3 14.3.4 14.4
15.0 15.1 15.1.1 15.1.2 15.1.3 15.1.4 15.1.5 15.2 15.2.1 15.2.2 15.3 15.3.1 15.3.2 15.4 15.5 15.5.1 15.6 15.6.1
15.6.2 15.6.2a 15.6.2b 15.6.3 15.6.3a 15.7
16.0 16.1 16.2 16.2.1 16.2.2 16.3 16.3.1 16.3.2 16.4 16.4.1 16.4.2 16.5 16.6 16.6.1 16.6.2 16.6.3 16.6.4
17.0 18.0 18.1 18.1.1 18.2
19.0 19.1 19.1.1 19.1.2 19.1.3 19.1.4 19.1.5 19.1.6 19.1.7
20.0 21.0 21.1 21.2 21.2.1 21.2.2 21.2.3 21.2.4 22.0
23.0 23.1 23.1.1 23.2 23.2.1 23.2.2 23.3
24.0 24.1 24.2 24.2.2 24.3 24.4.1
25.0 25.1 25.1.1 25.1.2 25.1.3 25.1.4 25.1.5 25.2 25.3 25.4 25.5
26.0 26.1 26.1.1 26.1.2 26.2 26.2.1 26.3 26.3.1
27.0 27.1 27.2 27.3 27.4 27.5 27.6 27.7`)

var ruleNumber = regexp.MustCompile(`\b[0-9]{1,2}\.[0-9]{1,2}(\.[0-9]{1,2})?[a-z]?\b`)

// TestEveryRuleHasACase: every numbered rule of sections 3 to 27 is cited
// by an adjudication case (its rule line), or listed in docs/rulings.md
// among the rules the umpire cannot enforce on its own, with why.
func TestEveryRuleHasACase(t *testing.T) {
	t.Parallel()
	cited := map[string]bool{}
	files, _ := filepath.Glob(filepath.Join("testdata", "game", "*.case"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		for _, l := range strings.Split(string(b), "\n") {
			if rest, ok := strings.CutPrefix(strings.TrimSpace(l), "rule "); ok {
				for _, r := range ruleNumber.FindAllString(rest, -1) {
					cited[r] = true
				}
			}
		}
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "rulings.md"))
	if err != nil {
		t.Fatal(err)
	}
	// the list under "#### 1914: rules the umpire cannot enforce on its own"
	text := string(doc)
	i := strings.Index(text, "#### 1914: rules the umpire cannot enforce on its own")
	if i < 0 {
		t.Fatal("docs/rulings.md has no list of the 1914 rules the umpire cannot enforce")
	}
	section := text[i:]
	if j := strings.Index(section[5:], "\n#"); j >= 0 {
		section = section[:j+5]
	}
	listed := map[string]bool{}
	for _, l := range strings.Split(section, "\n") {
		if strings.HasPrefix(l, "- **") {
			head, _, _ := strings.Cut(strings.TrimPrefix(l, "- **"), "**")
			for _, r := range ruleNumber.FindAllString(head, -1) {
				listed[r] = true
			}
		}
	}
	var missing []string
	for _, r := range numberedRules {
		if !cited[r] && !listed[r] {
			missing = append(missing, r)
		}
	}
	if len(missing) > 0 {
		t.Errorf("%d numbered rules have no case and are not listed in docs/rulings.md as not enforceable: %s", len(missing), strings.Join(missing, " "))
	}
	for r := range listed {
		if !slices.Contains(numberedRules, r) {
			t.Errorf("docs/rulings.md lists %s, which is not a numbered rule of sections 3-27", r)
		}
	}
}

// workedExamples are the rules whose text carries a worked example
// (EXAMPLE, PLAY NOTE with numbers, or a combat example).
var workedExamples = strings.Fields(`3.5.4 5.5.2 6.1.2 6.1.3 7.1.6a 7.2.1 7.2.2 7.2.3 7.3 7.3.3 7.4 7.8.2 8.2.2 8.2.4a
8.5.3 9.2.5 9.3.1 9.4.1 9.4.2 9.6 9.6.2 9.7 9.10.1 10.3 11.1.3 11.2 15.3.1 15.5 15.6.3a 16.2.1 19.1.5 19.1.7
23.1 25.1 25.1.1 25.1.2 27.1 27.2`)

// TestEveryWorkedExampleHasACase: each rule with a worked example has a
// case whose comment says it plays that example ("9.7 example", "11.2
// COMPREHENSIVE COMBAT EXAMPLE") and whose rule line cites the rule.
func TestEveryWorkedExampleHasACase(t *testing.T) {
	t.Parallel()
	found := map[string]bool{}
	files, _ := filepath.Glob(filepath.Join("testdata", "game", "*.case"))
	example := regexp.MustCompile(`(?i)\b([0-9]{1,2}\.[0-9]{1,2}(?:\.[0-9]{1,2})?[a-z]?)\b[^.]*?\bexample`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var said []string // rules whose example the comments above the case name
		inCase := false
		for _, l := range strings.Split(string(b), "\n") {
			l = strings.TrimSpace(l)
			switch {
			case strings.HasPrefix(l, "#"):
				if inCase {
					said, inCase = nil, false
				}
				for _, m := range example.FindAllStringSubmatch(l, -1) {
					said = append(said, m[1])
				}
			case strings.HasPrefix(l, "case "):
				inCase = true
			case strings.HasPrefix(l, "rule ") && inCase:
				for _, r := range ruleNumber.FindAllString(l, -1) {
					if slices.Contains(said, r) {
						found[r] = true
					}
				}
			}
		}
	}
	var missing []string
	for _, r := range workedExamples {
		if !found[r] {
			missing = append(missing, r)
		}
	}
	if len(missing) > 0 {
		t.Errorf("worked examples with no case saying it plays them: %s", strings.Join(missing, " "))
	}
}
