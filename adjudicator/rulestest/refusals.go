package rulestest

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Refusals checks that a game's receipts keep their promise: every refusal
// its order parser can produce is produced by some case, and every one
// comes with a hint that says what would be legal. Give it to Config (one
// Refusals may collect from several Runs), then call Check.
//
// The refusal sites are read from the game package's source: every call of
// adjudicator.Refuse (found by the function's identity: its import path and
// name, whatever the file calls the package), and every adjudicator.Problem
// literal. A Refuse whose format is not a string literal, a refusal built as
// an adjudicator.Refusal literal, and a site whose hint argument is the
// literal "" fail at once; a site with no case producing a problem its
// format matches fails with its file and line, so a new refusal cannot be
// added without a case (and so without a hint).
type Refusals struct {
	// Dir is the game package's folder (usually ".").
	Dir  string
	seen []adjudicator.Problem
}

// Add records problems produced by the game's ParseOrders.
func (r *Refusals) Add(ps ...adjudicator.Problem) { r.seen = append(r.seen, ps...) }

// site is one place in the source that makes a refusal.
type site struct {
	pos    token.Position
	format string
	re     *regexp.Regexp
	// literal: a Problem literal, which the game's cases need not
	// produce (the judge's own problems are driven by its intake tests).
	literal bool
}

// Check fails t for every refusal site no recorded problem matched, for a
// literal empty hint, and for a recorded problem without a hint.
func (r *Refusals) Check(t testing.TB) {
	t.Helper()
	if f := flag.Lookup("test.run"); f != nil && strings.Contains(f.Value.String(), "/") {
		t.Logf("the walk of every refusal is skipped: -run %s runs only some cases", f.Value)
		return
	}
	for _, p := range r.seen {
		if strings.TrimSpace(p.Hint) == "" {
			t.Errorf("refusal without a hint: line %d: %s", p.Line, p.Text)
		}
	}
	sites, problems, err := refusalSites(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
	for _, s := range sites {
		if s.literal {
			continue
		}
		if !slices.ContainsFunc(r.seen, func(p adjudicator.Problem) bool { return s.re.MatchString(p.Text) }) {
			t.Errorf("%s: no case produces the refusal %q: add a case that does (want problem, want hint)", s.pos, s.format)
		}
	}
	t.Logf("%d refusal sites, %d refusals produced by the cases", len(sites), len(r.seen))
}

// StaticHints fails t for every refusal in the package in dir whose hint is
// missing or the literal "": a Problem literal without a Hint, or a call of
// adjudicator.Refuse with "" as its hint. It suits packages whose refusals
// are tested elsewhere (the judge's own intake).
func StaticHints(t testing.TB, dir string) {
	t.Helper()
	_, problems, err := refusalSites(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// refuseHint and refuseFormat are the positions of adjudicator.Refuse's
// hint and format arguments.
const (
	refuseHint   = 0
	refuseFormat = 1
)

// adjudicatorPath is the import path of the package that declares Refuse
// and Refusal.
const adjudicatorPath = "github.com/umpire-pbem/umpire/adjudicator"

// refusalSites parses the non-test Go files of dir and returns the refusal
// sites with a literal format, and a description of every site whose hint
// is missing or empty, whose format is not a literal, or that builds a
// Refusal without Refuse.
func refusalSites(dir string) ([]site, []string, error) {
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, nil, err
	}
	var sites []site
	var problems []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			return nil, nil, err
		}
		is := adjudicatorNames(f)
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				// the constructor itself
				return !(n.Recv == nil && is(n.Name, "Refuse"))
			case *ast.CallExpr:
				if !is(n.Fun, "Refuse") {
					return true
				}
				pos := fset.Position(n.Pos())
				if len(n.Args) <= refuseFormat {
					return true // does not compile
				}
				if isEmptyString(n.Args[refuseHint]) {
					problems = append(problems, fmt.Sprintf("%s: adjudicator.Refuse(...) with an empty hint: say what would be legal", pos))
				}
				f, ok := stringLit(n.Args[refuseFormat])
				if !ok {
					problems = append(problems, fmt.Sprintf("%s: adjudicator.Refuse(...) with a format that is not a string literal: the refusal walk cannot read it", pos))
					return true
				}
				sites = append(sites, site{pos: pos, format: f, re: formatPattern(f)})
			case *ast.CompositeLit:
				if is(n.Type, "Refusal") {
					problems = append(problems, fmt.Sprintf("%s: an adjudicator.Refusal literal: make refusals with adjudicator.Refuse", fset.Position(n.Pos())))
				}
				var lits []*ast.CompositeLit
				switch {
				case isProblemType(n.Type):
					lits = append(lits, n)
				case isProblemSlice(n.Type):
					// []Problem{{Text: ...}}: the elements' type is elided
					for _, e := range n.Elts {
						if c, ok := e.(*ast.CompositeLit); ok && c.Type == nil {
							lits = append(lits, c)
						}
					}
				}
				for _, c := range lits {
					pos := fset.Position(c.Pos())
					var hint, text ast.Expr
					for _, e := range c.Elts {
						kv, ok := e.(*ast.KeyValueExpr)
						if !ok {
							continue
						}
						switch k, _ := kv.Key.(*ast.Ident); {
						case k == nil:
						case k.Name == "Hint":
							hint = kv.Value
						case k.Name == "Text":
							text = kv.Value
						}
					}
					if text == nil {
						continue // a Problem built field by field
					}
					if hint == nil || isEmptyString(hint) {
						problems = append(problems, fmt.Sprintf("%s: a Problem without a hint: say what would be legal", pos))
					}
					if f, ok := textFormat(text); ok {
						sites = append(sites, site{pos: pos, format: f, re: formatPattern(f), literal: true})
					}
				}
			}
			return true
		})
	}
	return sites, problems, nil
}

// adjudicatorNames returns a test of whether an expression of file f names
// the identifier name of package adjudicator: a selector on the name the
// file imports the package as, or in package adjudicator itself (or a file
// that dot-imports it) the plain name not declared in a function.
func adjudicatorNames(f *ast.File) func(e ast.Expr, name string) bool {
	local := map[string]bool{}
	plain := f.Name.Name == "adjudicator"
	for _, imp := range f.Imports {
		if p, err := strconv.Unquote(imp.Path.Value); err != nil || p != adjudicatorPath {
			continue
		}
		switch {
		case imp.Name == nil:
			local["adjudicator"] = true
		case imp.Name.Name == ".":
			plain = true
		default:
			local[imp.Name.Name] = true
		}
	}
	return func(e ast.Expr, name string) bool {
		switch e := e.(type) {
		case *ast.Ident:
			// a plain name resolves to no local declaration (Obj nil: declared
			// in another file or imported) or to the package's own function
			return plain && e.Name == name && (e.Obj == nil || e.Obj.Kind == ast.Fun || e.Obj.Kind == ast.Typ)
		case *ast.SelectorExpr:
			x, ok := e.X.(*ast.Ident)
			return ok && e.Sel.Name == name && local[x.Name] && x.Obj == nil
		}
		return false
	}
}

func isProblemSlice(e ast.Expr) bool {
	a, ok := e.(*ast.ArrayType)
	return ok && isProblemType(a.Elt)
}

func isProblemType(e ast.Expr) bool {
	switch t := e.(type) {
	case *ast.Ident:
		return t.Name == "Problem"
	case *ast.SelectorExpr:
		return t.Sel.Name == "Problem"
	}
	return false
}

func stringLit(e ast.Expr) (string, bool) {
	l, ok := e.(*ast.BasicLit)
	if !ok || l.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(l.Value)
	return s, err == nil
}

func isEmptyString(e ast.Expr) bool {
	s, ok := stringLit(e)
	return ok && strings.TrimSpace(s) == ""
}

// formatPattern turns a fmt format into a pattern its output matches.
var verb = regexp.MustCompile(`%[-+# 0-9.]*[a-zA-Z%]`)

func formatPattern(format string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	last := 0
	for _, m := range verb.FindAllStringIndex(format, -1) {
		b.WriteString(regexp.QuoteMeta(format[last:m[0]]))
		if format[m[1]-1] == '%' {
			b.WriteString("%")
		} else {
			b.WriteString("(?s:.*)")
		}
		last = m[1]
	}
	b.WriteString(regexp.QuoteMeta(format[last:]))
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

// textFormat is the format of a Problem's Text: a string literal, or the
// literal format of fmt.Sprintf.
func textFormat(e ast.Expr) (string, bool) {
	if s, ok := stringLit(e); ok {
		return s, true
	}
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) == 0 {
		return "", false
	}
	if sel, ok := call.Fun.(*ast.SelectorExpr); !ok || sel.Sel.Name != "Sprintf" {
		return "", false
	}
	return stringLit(call.Args[0])
}

// Documented fails t for every refusal of the package in dir (the formats
// of its adjudicator.Refuse calls and of its Problem literals) that the
// document doc does not quote: each must appear in backquotes with its
// verbs written as an ellipsis, "`… is off table`", so that a player who
// meets it finds what it means and what to do. A refusal the walk cannot
// read (a format that is not a literal) fails it too.
func Documented(t testing.TB, doc, dir string) {
	t.Helper()
	text, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	sites, problems, err := refusalSites(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		if strings.Contains(p, "not a string literal") || strings.Contains(p, "Refusal literal") {
			t.Error(p)
		}
	}
	seen := map[string]bool{}
	for _, s := range sites {
		q := "`" + DocForm(s.format) + "`"
		if seen[q] {
			continue
		}
		seen[q] = true
		if !strings.Contains(string(text), q) {
			t.Errorf("%s: %s does not list the refusal %s", s.pos, doc, q)
		}
	}
}

// DocForm is a refusal's format as the documentation quotes it: each verb
// an ellipsis ("%s is off table" is "… is off table").
func DocForm(format string) string {
	return verb.ReplaceAllStringFunc(format, func(v string) string {
		if v == "%%" {
			return "%"
		}
		return "…"
	})
}
