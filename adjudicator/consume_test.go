package adjudicator

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// grammarFiles are the files that read what players and game masters
// write: each game's orders*.go, and the judge's own grammars.
func grammarFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("games", "*", "orders*.go"))
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, "orderfile.go", "command.go", "signed.go", filepath.Join("kit", "lines.go"))
	var out []string
	for _, f := range files {
		if !strings.HasSuffix(f, "_test.go") {
			out = append(out, f)
		}
	}
	if len(out) < 8 {
		t.Fatalf("only %d grammar files found: %v", len(out), out)
	}
	return out
}

// TestGrammarLoopsConsume: every loop of an order grammar consumes input on
// every pass, by construction. A loop is a range loop; or a counted loop
// (its post statement i++ or i += N, and nothing in its body moving i
// but increments); or guarded by Consuming, whose more() panics when a
// pass took nothing. Anything else is a loop that one player's line could
// keep spinning, as "pa N-C1 2212 gs" once did.
func TestGrammarLoopsConsume(t *testing.T) {
	for _, path := range grammarFiles(t) {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			loop, ok := n.(*ast.ForStmt)
			if !ok {
				return true
			}
			if why := loopConsumes(loop); why != "" {
				t.Errorf("%s: %s: use a counted loop or adjudicator.Consuming", fset.Position(loop.Pos()), why)
			}
			return true
		})
	}
}

// loopConsumes says why loop is not known to consume its input ("" when
// it is).
func loopConsumes(loop *ast.ForStmt) string {
	if guard := consumingGuard(loop.Init); guard != "" {
		called := false
		if loop.Cond != nil {
			ast.Inspect(loop.Cond, func(n ast.Node) bool {
				if c, ok := n.(*ast.CallExpr); ok {
					if id, ok := c.Fun.(*ast.Ident); ok && id.Name == guard {
						called = true
					}
				}
				return true
			})
		}
		if !called {
			return "the loop's condition does not call " + guard + "()"
		}
		return ""
	}
	index := increment(loop.Post)
	if index == "" {
		return "the loop is neither counted nor guarded"
	}
	moved := ""
	ast.Inspect(loop.Body, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.IncDecStmt:
			if id, ok := s.X.(*ast.Ident); ok && id.Name == index && s.Tok == token.DEC {
				moved = index + "-- in its body"
			}
		case *ast.AssignStmt:
			if increment(s) != "" {
				return true
			}
			for _, l := range s.Lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name == index {
					moved = index + " assigned in its body"
				}
			}
		}
		return true
	})
	return moved
}

// consumingGuard returns the name given to a Consuming guard by init
// ("more := Consuming(&w)"), or "".
func consumingGuard(init ast.Stmt) string {
	as, ok := init.(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return ""
	}
	call, ok := as.Rhs[0].(*ast.CallExpr)
	if !ok {
		return ""
	}
	fun := call.Fun
	if ix, ok := fun.(*ast.IndexExpr); ok {
		fun = ix.X
	}
	name := ""
	switch f := fun.(type) {
	case *ast.Ident:
		name = f.Name
	case *ast.SelectorExpr:
		name = f.Sel.Name
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	if name != "Consuming" || !ok {
		return ""
	}
	return id.Name
}

// increment returns the variable s increases (i++, i += 2), or "".
func increment(s ast.Stmt) string {
	switch s := s.(type) {
	case *ast.IncDecStmt:
		if id, ok := s.X.(*ast.Ident); ok && s.Tok == token.INC {
			return id.Name
		}
	case *ast.AssignStmt:
		if s.Tok != token.ADD_ASSIGN || len(s.Lhs) != 1 {
			return ""
		}
		id, ok := s.Lhs[0].(*ast.Ident)
		lit, isLit := s.Rhs[0].(*ast.BasicLit)
		if ok && isLit && lit.Kind == token.INT && lit.Value != "0" {
			return id.Name
		}
	}
	return ""
}

// TestConsumingStopsAStall: a loop whose pass takes nothing panics with
// Stalled instead of spinning; one that takes a word a pass runs out.
func TestConsumingStopsAStall(t *testing.T) {
	stall := func(words []string) (passes int, stalled error) {
		defer func() {
			if r := recover(); r != nil {
				stalled, _ = r.(error)
			}
		}()
		for more := Consuming(&words); more(); {
			passes++
			if words[0] != "gs" {
				words = words[1:]
			}
			if passes > 10 {
				break
			}
		}
		return passes, nil
	}
	var s Stalled
	if passes, err := stall([]string{"pa", "N-C1", "2212", "gs"}); !errors.As(err, &s) || s.Left != 1 || passes != 4 {
		t.Errorf("a pass that took nothing: %d passes, %v; want Stalled with 1 left after 4", passes, err)
	}
	if passes, err := stall([]string{"pa", "N-C1", "2212"}); err != nil || passes != 3 {
		t.Errorf("a loop that consumes: %d passes, %v", passes, err)
	}
	subject := "Re: Fwd: orders"
	for more := Consuming(&subject); more(); {
		if i := strings.Index(subject, ": "); i >= 0 {
			subject = subject[i+2:]
			continue
		}
		break
	}
	if subject != "orders" {
		t.Errorf("a string read from its front: %q", subject)
	}
}
