package datafile

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// nestedTables is "a = {a = {a = ... 1 ...}}": depth+1 tables deep.
func nestedTables(depth int) string {
	return "a = " + strings.Repeat("{a = ", depth) + "1" + strings.Repeat("}", depth) + "\n"
}

func TestCheckRefusesDeepNests(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		line       int
	}{
		{"inline tables", "title = \"x\"\n" + nestedTables(4000), 2},
		{"arrays", "a = " + strings.Repeat("[", 5000) + strings.Repeat("]", 5000), 1},
		{"dotted keys", "x = 1\n\n" + strings.Repeat("a.", 3000) + "b = 1\n", 3},
		{"table header", "[" + strings.Repeat("a.", 100) + "b]\n", 1},
		{"array of tables", "[[" + strings.Repeat("a.", 40) + "b]]\n", 1},
		{"arrays over lines", "a = [\n" + strings.Repeat("[\n", 40) + strings.Repeat("]\n", 40) + "]\n", 12},
		{"dotted keys under a header", "[a.b.c.d.e.f.g.h]\n" + strings.Repeat("k.", 10) + "z = 1\n", 2},
	} {
		err := Check("evil.toml", []byte(tt.text))
		var fe *FileError
		if !errors.As(err, &fe) || fe.File != "evil.toml" || fe.Line != tt.line || !strings.Contains(fe.Err, "nested more than 12") {
			t.Errorf("%s: %v, want a refusal at evil.toml:%d", tt.name, err, tt.line)
		}
	}
}

func TestCheckPassesWhatIsNotNesting(t *testing.T) {
	for _, text := range []string{
		nestedTables(MaxDepth - 1),
		"a = \"" + strings.Repeat("{[", 3000) + "\"\n",
		"a = '" + strings.Repeat("{[", 3000) + "'\n",
		"a = \"\"\"\n" + strings.Repeat("{{[[\n", 3000) + "\"\"\"\nb = 1\n",
		"a = '''" + strings.Repeat("[", 3000) + "'''\n",
		"# " + strings.Repeat("{", 3000) + "\nb = 1\n",
		"\"" + strings.Repeat("a.", 3000) + "\" = 1\n",
		"a = \"esc \\\" " + strings.Repeat("[", 100) + "\"\n",
		"[[unit]]\nid = \"A\"\nat = { hex = \"0101\", facing = 3 }\n[[unit]]\nid = \"B\"\npath = [[1, 2], [3, 4]]\n",
		"pi = 3.14159\nwhen = 1979-05-27T07:32:00.999Z\n" + strings.Repeat("x = [1.5, 2.5]\n", 2),
		strings.Repeat("a = {}\n", 100),
	} {
		if err := Check("ok.toml", []byte(text)); err != nil {
			t.Errorf("%.60q: %v", text, err)
		}
	}
}

func TestCheckRefusesTooMany(t *testing.T) {
	for _, text := range []string{
		strings.Repeat("[[u]]\n", MaxEntries+1),
		strings.Repeat("[[u]]\nid = 1\n", MaxEntries/4+1),
		strings.Repeat("a.b.c.d.e.f.g.h.i.j = 1\n", MaxEntries/10+1),
		"a = [" + strings.Repeat("1,", MaxEntries+1) + "]",
		"a = [\n" + strings.Repeat("[],\n", MaxEntries/2+1) + "]",
	} {
		err := Check("many.toml", []byte(text))
		if err == nil || !strings.Contains(err.Error(), "more than 50000 entries") {
			t.Errorf("%.40q: %v", text, err)
		}
	}
	var b strings.Builder
	for i := range MaxEntries / 4 { // [[u]] 1, id 3 deep
		fmt.Fprintf(&b, "[[u]]\nid = %d\n", i)
	}
	if err := Check("many.toml", []byte(b.String())); err != nil {
		t.Errorf("%d entries: %v", MaxEntries, err)
	}
}

func TestCheckRefusesTooLarge(t *testing.T) {
	err := Check("big.toml", []byte(strings.Repeat("#\n", MaxSize/2+1)))
	if err == nil || !strings.Contains(err.Error(), "big.toml: the file is 2097154 bytes; a data file may have up to 2097152") {
		t.Errorf("got %v", err)
	}
}

func TestDecodeNamesFileAndLine(t *testing.T) {
	var v struct {
		Title string `toml:"title"`
		Unit  []struct {
			ID string `toml:"id"`
		} `toml:"unit"`
	}
	_, err := Decode("mine.toml", []byte("title = \"x\"\n\n[[unit]]\nid = \"A\"\nhp = 3\n"), &v)
	if err == nil || err.Error() != "mine.toml:5: field unit.hp: unknown field" {
		t.Errorf("unknown field: %v", err)
	}
	_, err = Decode("mine.toml", []byte("title = \"x\"\ntitle = \"y\"\n"), &v)
	var fe *FileError
	if !errors.As(err, &fe) || fe.File != "mine.toml" || fe.Line != 2 {
		t.Errorf("syntax: %v", err)
	}
	if _, err := Decode("mine.toml", []byte("title = \"x\"\n[[unit]]\nid = \"A\"\n"), &v); err != nil || v.Title != "x" || v.Unit[0].ID != "A" {
		t.Errorf("a good file: %v %+v", err, v)
	}
}

// TestUnknownIsShort: a file of many unknown keys, nested, is refused in a
// line, not with every key and prefix (a 4 kB file once gave a 1 MB error).
func TestUnknownIsShort(t *testing.T) {
	var b strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&b, "k%d.a.b.c = 1\n", i)
	}
	b.WriteString(nestedTables(10))
	var v struct{}
	_, err := Decode("game.toml", []byte(b.String()), &v)
	if err == nil || len(err.Error()) > 200 || !strings.Contains(err.Error(), "game.toml:1: field k0.a.b.c: unknown field (also unknown: k1.a.b.c, k2.a.b.c, k3.a.b.c, k4.a.b.c and 1996 more)") {
		t.Errorf("%d bytes: %.300v", len(fmt.Sprint(err)), err)
	}
}

func TestCacheKeepsTheRecent(t *testing.T) {
	c := Cache[int]{Max: 3}
	for i := range 10 {
		c.Put(Key([]byte(fmt.Sprint(i))), i)
		if i == 5 {
			c.Get(Key([]byte("3"))) // 3 is used: it stays past 6 and 7
		}
	}
	if c.Len() != 3 {
		t.Fatalf("%d kept, want 3", c.Len())
	}
	for i, want := range map[int]bool{9: true, 8: true, 7: true, 3: false, 0: false} {
		if _, ok := c.Get(Key([]byte(fmt.Sprint(i)))); ok != want {
			t.Errorf("%d kept: %v, want %v", i, ok, want)
		}
	}
	if Key([]byte("ab"), []byte("c")) == Key([]byte("a"), []byte("bc")) {
		t.Error("texts split differently share a key")
	}
}

func FuzzCheck(f *testing.F) {
	f.Add("a = {b = [1, {c = 2}]}\n[t.u]\nx.y = 'z'\n")
	f.Add(nestedTables(20))
	f.Add("a = \"\"\"\n[[\n\"\"\"")
	f.Fuzz(func(t *testing.T, text string) {
		err := Check("f.toml", []byte(text))
		if err == nil {
			var v map[string]any
			_, _ = DecodeLoose("f.toml", []byte(text), &v)
		}
	})
}

// TestFieldLineMultiLineArrays: the rows of a multi-line array are not
// table headers; a key after them is still found under its table.
func TestFieldLineMultiLineArrays(t *testing.T) {
	text := []byte("[crt]\ncolumns = [\"1:1\"]\n\n[crt.cells]\n\"1:1\" = [\n  [\"a\", \"b\"], # row\n  [\"c\", \"d\"],\n]\n\"2:1\" = [\n  [\"e\"],\n]\n[[unit]]\nid = \"x\"\n")
	if got := FieldLine(text, "crt.cells", -1, "2:1"); got != 9 {
		t.Errorf("crt.cells.\"2:1\" at line %d, want 9", got)
	}
	if got := FieldLine(text, "unit", 0, "id"); got != 13 {
		t.Errorf("unit[0].id at line %d, want 13", got)
	}
	if got := FieldLine(text, "crt", -1, "columns"); got != 2 {
		t.Errorf("crt.columns at line %d, want 2", got)
	}
}

// TestOnlyDatafileDecodes: every TOML file the judge reads goes through
// Check before the decoder sees it, because no other package calls the
// decoder (tests aside).
func TestOnlyDatafileDecodes(t *testing.T) {
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		if filepath.Dir(path) == filepath.Join(root, "adjudicator", "datafile") {
			return nil // this package
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, im := range f.Imports {
			if im.Path.Value != `"github.com/BurntSushi/toml"` {
				continue
			}
			full, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
			if err != nil {
				return err
			}
			ast.Inspect(full, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok {
					if x, ok := sel.X.(*ast.Ident); ok && x.Name == "toml" && strings.HasPrefix(sel.Sel.Name, "Decode") || ok && x.Name == "toml" && (sel.Sel.Name == "NewDecoder" || sel.Sel.Name == "Unmarshal") {
						t.Errorf("%s calls toml.%s: decode through datafile.Decode", path, sel.Sel.Name)
					}
				}
				return true
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestTypeErrorsNameTheEntry: a value of the wrong type in an array of
// tables is refused at its own line and entry, not at the file's last line
// (the decoder names only the key).
func TestTypeErrorsNameTheEntry(t *testing.T) {
	type unit struct {
		ID   string `toml:"id"`
		Move int    `toml:"move"`
	}
	var f struct {
		Title string `toml:"title"`
		Grid  struct {
			Cols int `toml:"cols"`
		} `toml:"grid"`
		Side []struct {
			Name string `toml:"name"`
			Unit []unit `toml:"unit"`
		} `toml:"side"`
		Unit []unit `toml:"unit"`
	}
	text := "title = \"t\"\n[grid]\ncols = 4\n[[side]]\nname = \"a\"\n[[side.unit]]\nid = \"A1\"\nmove = 3\n[[side.unit]]\nid = \"A2\"\nmove = 4\n" +
		"[[side]]\nname = \"b\"\n[[side.unit]]\nid = \"B1\"\nmove = 5\n[[side.unit]]\nid = \"B2\"\nmove = 6\n[[unit]]\nid = \"U\"\nmove = 1\n"
	for _, tt := range []struct{ old, new, want string }{
		{"move = 6", "move = \"six\"", "f.toml:19: field side[1].unit[1].move: incompatible types"},
		{"move = 3", "move = [3]", "f.toml:8: field side[0].unit[0].move: incompatible types"},
		{"cols = 4", "cols = \"4\"", "f.toml:3: field grid.cols: incompatible types"},
		{"title = \"t\"", "title = 1", "f.toml:1: field title: incompatible types"},
		{"move = 1", "move = true", "f.toml:22: field unit[0].move: incompatible types"},
	} {
		bad := strings.Replace(text, tt.old, tt.new, 1)
		_, err := Decode("f.toml", []byte(bad), &f)
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.new, err, tt.want)
		}
	}
}
