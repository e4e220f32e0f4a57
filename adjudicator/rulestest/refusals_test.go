package rulestest

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// toyGame is a game file that makes refusals in every way the walk must
// tell apart.
const toyGame = `package toy

import (
	"fmt"
	"fmt"

	adj "github.com/umpire-pbem/umpire/adjudicator"
)

func a(u string) error { return adj.Refuse("bring it on first", "%s is off table", u) }
func b(f string) error { return adj.Refuse("a hint", f) }
func c() error         { return adj.Refuse("", "no hint") }
func d() error         { return &adj.Refusal{Text: "built", Hint: "by hand"} }
func e() error {
	bad := func(hint, format string) error { return fmt.Errorf(format) }
	return bad("a hint", "not a refusal")
}

type other struct{}

func (other) Refuse(hint, format string) error { return nil }

func g() error {
	var adj other
	return adj.Refuse("a hint", "not one either")
}

func h() adj.Problem { return adj.Problem{Text: "a literal", Hint: "its hint"} }
`

// TestRefusalSites: the walk finds adjudicator.Refuse by its identity,
// whatever the file names the package, and nothing else of that name; it
// refuses what it cannot read.
func TestRefusalSites(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "toy.go"), []byte(toyGame), 0o644); err != nil {
		t.Fatal(err)
	}
	sites, problems, err := refusalSites(dir)
	if err != nil {
		t.Fatal(err)
	}
	var formats []string
	for _, s := range sites {
		formats = append(formats, s.format)
	}
	if want := []string{"%s is off table", "no hint", "a literal"}; !slices.Equal(formats, want) {
		t.Errorf("sites %q, want %q", formats, want)
	}
	for _, want := range []string{"toy.go:11:33: adjudicator.Refuse(...) with a format that is not a string literal", "toy.go:12:33: adjudicator.Refuse(...) with an empty hint", "toy.go:13:34: an adjudicator.Refusal literal"} {
		if !strings.Contains(strings.Join(problems, "\n"), want) {
			t.Errorf("problems %q: none says %q", problems, want)
		}
	}
	if len(problems) != 3 {
		t.Errorf("%d problems, want 3: %q", len(problems), problems)
	}
}

// recorder is a testing.TB that keeps its errors.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Error(args ...any) {
	r.errs = append(r.errs, strings.TrimSpace(fmt.Sprintln(args...)))
}
func (r *recorder) Errorf(f string, args ...any) { r.errs = append(r.errs, fmt.Sprintf(f, args...)) }

// TestDocumentedFailsOnAMissingRefusal: a refusal the document does not
// quote fails the check, and so does one the walk cannot read.
func TestDocumentedFailsOnAMissingRefusal(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "toy.go"), []byte(toyGame), 0o644); err != nil {
		t.Fatal(err)
	}
	doc := filepath.Join(dir, "troubleshooting.md")
	if err := os.WriteFile(doc, []byte("`… is off table` and `no hint`\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &recorder{TB: t}
	Documented(r, doc, dir)
	all := strings.Join(r.errs, "\n")
	for _, want := range []string{"does not list the refusal `a literal`", "not a string literal", "Refusal literal"} {
		if !strings.Contains(all, want) {
			t.Errorf("errors %q: none says %q", r.errs, want)
		}
	}
	if strings.Contains(all, "is off table") {
		t.Errorf("errors %q: a listed refusal reported", r.errs)
	}
}
