package main

// The tests of the repository's documentation as a whole: the file maps of
// the package comments, README's list of docs/, and the packages
// docs/architecture.md names. Each works from the repository's root.

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// fileMapLine is a line of a file map in a package comment: a tab, a Go
// file's name, and what it holds.
var fileMapLine = regexp.MustCompile(`^//\t([a-z0-9_]+\.go)(\s|$)`)

// fileListLine is a line of a short file map that only names files: a
// tab and Go files' names.
var fileListLine = regexp.MustCompile(`^//\t[a-z0-9_]+\.go( +[a-z0-9_]+\.go)*$`)

// TestFileMaps checks that every package whose doc.go has a file map (a
// line "//<tab>name.go  what it holds" per file, or lines that only name
// files) lists exactly its non-test Go files, doc.go aside.
func TestFileMaps(t *testing.T) {
	t.Chdir(filepath.Join("..", ".."))
	maps := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || d.Name() != "doc.go" {
			return nil
		}
		doc, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var listed []string
		for line := range strings.Lines(string(doc)) {
			line = strings.TrimRight(line, "\n")
			if fileListLine.MatchString(line) {
				listed = append(listed, strings.Fields(strings.TrimPrefix(line, "//"))...)
			} else if m := fileMapLine.FindStringSubmatch(line); m != nil {
				listed = append(listed, m[1])
			}
		}
		if len(listed) == 0 {
			return nil
		}
		maps++
		dir := filepath.Dir(path)
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			return err
		}
		var have []string
		for _, f := range files {
			if name := filepath.Base(f); name != "doc.go" && !strings.HasSuffix(name, "_test.go") {
				have = append(have, name)
			}
		}
		for _, f := range have {
			if !slices.Contains(listed, f) {
				t.Errorf("%s: the file map does not list %s", path, f)
			}
		}
		for i, f := range listed {
			if !slices.Contains(have, f) {
				t.Errorf("%s: the file map lists %s, which is not a file of %s", path, f, dir)
			}
			if slices.Contains(listed[:i], f) {
				t.Errorf("%s: the file map lists %s twice", path, f)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if maps == 0 {
		t.Fatal("no package comment with a file map found")
	}
}

// docPath is a path into docs/ as README names it, in backquotes or a link;
// it may end in a * that stands for any name.
var docPath = regexp.MustCompile(`docs/[A-Za-z0-9_./*-]*[A-Za-z0-9_*]`)

// TestReadmeListsDocs checks that README's documentation list names every
// page in docs/, and that every path into docs/ README names is there.
func TestReadmeListsDocs(t *testing.T) {
	t.Chdir(filepath.Join("..", ".."))
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, list, ok := strings.Cut(string(readme), "\n## Documentation\n")
	if !ok {
		t.Fatal(`README.md has no "## Documentation" section`)
	}
	list, _, _ = strings.Cut(list, "\n## ")
	listed := docPath.FindAllString(list, -1)

	pages, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		if !slices.Contains(listed, filepath.ToSlash(p)) {
			t.Errorf("README's documentation list does not name %s", p)
		}
	}
	for _, p := range docPath.FindAllString(string(readme), -1) {
		if m, err := filepath.Glob(filepath.FromSlash(p)); err != nil || len(m) == 0 {
			t.Errorf("README names %s, which is not in the repository", p)
		}
	}
}

// TestArchitectureNamesEveryPackage checks that docs/architecture.md names
// every package of the module (a game's package by its id, in the row of
// adjudicator/games/<game>).
func TestArchitectureNamesEveryPackage(t *testing.T) {
	t.Chdir(filepath.Join("..", ".."))
	b, err := os.ReadFile("docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() || path == "." {
			return err
		}
		if strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" {
			return filepath.SkipDir
		}
		files, err := filepath.Glob(filepath.Join(path, "*.go"))
		if err != nil {
			return err
		}
		if !slices.ContainsFunc(files, func(f string) bool { return !strings.HasSuffix(f, "_test.go") }) {
			return nil
		}
		pkg := filepath.ToSlash(path)
		if strings.Contains(doc, "`"+pkg+"`") {
			return nil
		}
		if game, ok := strings.CutPrefix(pkg, "adjudicator/games/"); ok &&
			strings.Contains(doc, "`adjudicator/games/<game>`") && strings.Contains(doc, "`"+game+"`") {
			return nil
		}
		t.Errorf("docs/architecture.md does not name package %s", pkg)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
