package kit

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// root is the repository, from this package's folder.
var root = filepath.Join("..", "..")

// TestGuideNamesTheHostedGames: docs/adding-a-game.md names every game
// the judge hosts, no more: each folder of adjudicator/games, and each
// game the registry lists.
func TestGuideNamesTheHostedGames(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(root, "docs", "adding-a-game.md"))
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, l := range strings.Split(string(doc), "\n\n") {
		if rest, ok := strings.CutPrefix(l, "The hosted games are "); ok {
			rest, _, _ = strings.Cut(rest, ";")
			for _, m := range regexp.MustCompile("`([a-z0-9]+)`").FindAllStringSubmatch(rest, -1) {
				listed = append(listed, m[1])
			}
		}
	}
	if len(listed) == 0 {
		t.Fatal("docs/adding-a-game.md has no paragraph starting \"The hosted games are\"")
	}
	slices.Sort(listed)
	dirs, err := filepath.Glob(filepath.Join(root, "adjudicator", "games", "*", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var folders []string
	for _, d := range dirs {
		if g := filepath.Base(filepath.Dir(d)); !slices.Contains(folders, g) {
			folders = append(folders, g)
		}
	}
	slices.Sort(folders)
	if !slices.Equal(listed, folders) {
		t.Errorf("docs/adding-a-game.md names the hosted games %v; adjudicator/games holds %v", listed, folders)
	}
	registered := registeredGames(t)
	slices.Sort(registered)
	if !slices.Equal(listed, registered) {
		t.Errorf("docs/adding-a-game.md names the hosted games %v; the registry lists %v", listed, registered)
	}
}

// registeredGames are the packages whose Game the registry, the call of
// adjudicator.NewRegistry in cmd/, lists.
func registeredGames(t *testing.T) []string {
	t.Helper()
	var games []string
	err := filepath.WalkDir(filepath.Join(root, "cmd"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if s, ok := c.Fun.(*ast.SelectorExpr); !ok || s.Sel.Name != "NewRegistry" || !isIdent(s.X, "adjudicator") {
				return true
			}
			for _, a := range c.Args {
				if s, ok := a.(*ast.SelectorExpr); ok && s.Sel.Name == "Game" {
					if x, ok := s.X.(*ast.Ident); ok {
						games = append(games, x.Name)
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(games) == 0 {
		t.Fatal("no call of adjudicator.NewRegistry under cmd/ lists a game")
	}
	return games
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

// TestGuideNamesWhatExists: every identifier of the kit the guide names
// (kit.File, File.Decode, adjudicator.Refuse, rulestest.Documented, ...)
// is declared, exported, where the guide says.
func TestGuideNamesWhatExists(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(root, "docs", "adding-a-game.md"))
	if err != nil {
		t.Fatal(err)
	}
	pkgs := map[string]string{
		"kit":         ".",
		"adjudicator": "..",
		"rulestest":   filepath.Join("..", "rulestest"),
		"datafile":    filepath.Join("..", "datafile"),
	}
	names := map[string]map[string]bool{}
	for p, dir := range pkgs {
		names[p] = exported(t, dir)
	}
	n := 0
	// pkg.Name, pkg.Type.Method, and Type.Method of a type of kit
	for _, m := range regexp.MustCompile(`\b(kit|adjudicator|rulestest|datafile)\.([A-Z]\w*)(?:\.([A-Z]\w*))?`).FindAllStringSubmatch(string(doc), -1) {
		name := m[2]
		if m[3] != "" {
			name += "." + m[3]
		}
		if !names[m[1]][name] {
			t.Errorf("docs/adding-a-game.md names %s.%s: package %s has no %s", m[1], name, m[1], name)
		}
		n++
	}
	for _, m := range regexp.MustCompile("`(File|Preamble|Refusal)\\.([A-Z]\\w*)").FindAllStringSubmatch(string(doc), -1) {
		p := "kit"
		if m[1] == "Refusal" {
			p = "adjudicator"
		}
		if !names[p][m[1]+"."+m[2]] {
			t.Errorf("docs/adding-a-game.md names %s.%s: package %s has no such method", m[1], m[2], p)
		}
		n++
	}
	if n < 10 {
		t.Errorf("docs/adding-a-game.md names only %d identifiers of the kit", n)
	}
}

// exported lists the exported names of the package in dir: its
// declarations, and its methods as Type.Method.
func exported(t *testing.T, dir string) map[string]bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					out[d.Name.Name] = true
					continue
				}
				recv := d.Recv.List[0].Type
				if s, ok := recv.(*ast.StarExpr); ok {
					recv = s.X
				}
				if id, ok := recv.(*ast.Ident); ok {
					out[id.Name+"."+d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						out[s.Name.Name] = true
						if st, ok := s.Type.(*ast.StructType); ok {
							for _, f := range st.Fields.List {
								for _, n := range f.Names {
									out[s.Name.Name+"."+n.Name] = true
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							out[n.Name] = true
						}
					}
				}
			}
		}
	}
	return out
}
