package bu

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// numberedRules are the numbered rules of the rule text, sections 1 to 15
// (the text has lost 7.0-7.2.4; 16 is history and notes). The numbers only,
// to check that the cases cite each one.
var numberedRules = strings.Fields(`
1.2.1 1.2.2 1.2.3 1.2.4 1.2.5 1.2.6 1.2.7 1.2.8 1.2.9 1.2.10 1.2.11
1.3.1 1.3.2 1.3.3 1.3.4 1.3.5
1.4.1 1.4.2 1.4.3 1.4.4 1.4.5 1.4.6
1.5.1 1.5.2 1.5.3 1.5.4 1.5.5 1.5.6 1.5.7 1.5.8
2.1.1 2.1.2 2.2.1 2.2.2 2.2.3 2.2.4 2.3.1 2.3.2
2.4.1 2.4.2 2.4.3 2.4.4 2.4.5 2.4.6 2.4.7 2.4.8 2.4.9 2.5.1 2.5.2
3.1.1 3.1.2 3.1.3 3.1.4
4.1.1 4.1.2 4.1.3 4.1.4 4.1.5 4.1.6
5.1.1 5.1.2
6.1.1 6.1.2 6.2.1 6.2.2 6.2.3 6.2.4 6.3.1
7.2.5 7.3.1 7.3.2 7.4.1
8.1.1 8.2.1
9.1.1 9.1.2 9.1.3 9.1.4 9.1.5
10.1.1 10.1.2 10.1.3 10.1.4 10.1.5 10.1.6 10.1.7
11.1.1 12.1.1 12.1.2
13.1.1 13.1.2 13.1.3 13.1.4 13.1.5 13.1.6 13.1.7 13.1.8
13.2.1 13.2.2 13.2.3 13.2.4 13.2.5 13.2.6 13.2.7 13.2.8
13.3.1 13.3.2 13.3.3 13.3.4 13.3.5 13.3.6 13.3.7
13.4.1 13.4.1.1 13.4.1.2 13.4.1.3 13.4.1.4 13.4.2 13.4.3 13.4.4 13.4.4.1 13.4.4.2 13.4.4.3
13.4.5 13.4.6 13.4.6.1 13.4.6.2 13.4.6.3 13.4.6.4 13.4.7
13.4.8 13.4.8.1 13.4.8.2 13.4.8.3 13.4.8.4 13.4.8.5 13.4.8.6 13.4.9 13.4.9.1 13.4.9.2 13.4.10
13.5.1 13.5.2 13.5.3 13.5.4 13.5.5 13.5.6
14.1.1 14.1.2 14.2.1 14.2.2 14.2.3 14.2.4 14.2.5 14.2.6 14.3.1 14.3.2 14.3.3 14.4.1 14.4.2
14.5.1 14.5.2 14.5.3 14.5.4 14.5.5 14.6.1 14.6.2 14.6.3 14.6.4 14.6.5 14.6.6
15.1.1 15.2.1`)

// TestCasesCiteEveryRule: every numbered rule of the text is the rule (or
// one of the rules) of at least one adjudication case.
func TestCasesCiteEveryRule(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join("testdata", "game", "*.case"))
	cited := map[string]bool{}
	ruleLine := regexp.MustCompile(`(?m)^rule (.+)$`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ruleLine.FindAllStringSubmatch(string(b), -1) {
			for _, r := range strings.Split(m[1], ",") {
				cited[strings.TrimSpace(r)] = true
			}
		}
	}
	var missing []string
	for _, r := range numberedRules {
		if !cited[r] {
			missing = append(missing, r)
		}
	}
	if len(missing) > 0 {
		t.Errorf("%d numbered rules have no case: %s", len(missing), strings.Join(missing, " "))
	}
}
