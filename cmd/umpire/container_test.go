package main

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/cmd/umpire/daemon"
)

// dockerInstruction is one instruction of a Dockerfile: its keyword in
// upper case and its arguments, continuation lines joined.
type dockerInstruction struct {
	Cmd  string
	Args []string
	Line int
}

// readDockerfile reads a Dockerfile's instructions as docker build does:
// comments and blank lines left out, a line ending in \ continued on the
// next (a comment line inside a continued one left out too).
func readDockerfile(t *testing.T, file string) []dockerInstruction {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []dockerInstruction
	var cur strings.Builder
	start := 0
	for i, line := range strings.Split(string(b), "\n") {
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		if cur.Len() == 0 {
			start = i + 1
		}
		if strings.HasSuffix(trimmed, `\`) {
			cur.WriteString(strings.TrimSuffix(trimmed, `\`) + " ")
			continue
		}
		cur.WriteString(trimmed)
		f := strings.Fields(cur.String())
		out = append(out, dockerInstruction{Cmd: strings.ToUpper(f[0]), Args: f[1:], Line: start})
		cur.Reset()
	}
	if cur.Len() != 0 {
		t.Fatalf("%s ends in a continued line", file)
	}
	return out
}

// TestContainerRecipe checks docs/container/Dockerfile as far as it can be
// without a registry to pull its base images from: it builds the program
// with the Go of go.mod, by the go build command it runs (run here, and
// the program it makes runs); every file it copies from the repository is
// there; it runs as a user that is not root; the store of the
// configuration it ships is on its VOLUME; the health check asks /healthz
// on the port the configuration's web pages listen on, which it exposes;
// and UMPIRE_CONFIG names the configuration it copies.
func TestContainerRecipe(t *testing.T) {
	root := filepath.Join("..", "..")
	ins := readDockerfile(t, filepath.Join(root, "docs", "container", "Dockerfile"))
	gomod, _ := os.ReadFile(filepath.Join(root, "go.mod"))
	var goVersion string
	for _, l := range strings.Split(string(gomod), "\n") {
		if v, ok := strings.CutPrefix(l, "go "); ok {
			goVersion = strings.Join(strings.SplitN(v, ".", 3)[:2], ".")
		}
	}
	var stages []string
	var user, volume, healthcheck, configEnv, goBuild string
	var expose []string
	copied := map[string]string{} // destination in the image: its source in the repository
	for _, in := range ins {
		switch in.Cmd {
		case "FROM":
			stages = append(stages, in.Args[0])
		case "COPY":
			if strings.HasPrefix(in.Args[0], "--from=") {
				continue
			}
			for _, src := range in.Args[:len(in.Args)-1] {
				if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(src))); err != nil {
					t.Errorf("line %d: COPY %s: %v", in.Line, src, err)
				}
				copied[in.Args[len(in.Args)-1]] = src
			}
		case "RUN":
			if cmd := strings.Join(in.Args, " "); strings.Contains(cmd, "go build") {
				goBuild = cmd
			}
		case "USER":
			user = in.Args[0]
		case "VOLUME":
			volume = in.Args[0]
		case "EXPOSE":
			expose = append(expose, in.Args...)
		case "HEALTHCHECK":
			healthcheck = strings.Join(in.Args, " ")
		case "ENV":
			for _, a := range in.Args {
				if v, ok := strings.CutPrefix(a, "UMPIRE_CONFIG="); ok {
					configEnv = v
				}
			}
		}
	}
	if len(stages) != 2 || stages[0] != "golang:"+goVersion+"-bookworm" {
		t.Errorf("stages %q: want a golang:%s-bookworm builder (go.mod's go) and the image", stages, goVersion)
	}
	if user == "" || user == "root" || user == "0" {
		t.Errorf("USER %q: the judge must not run as root", user)
	}

	// the configuration it ships
	src, ok := copied[configEnv]
	if !ok {
		t.Fatalf("UMPIRE_CONFIG=%s is not a file the recipe copies (%v)", configEnv, copied)
	}
	cfg, err := daemon.LoadConfig(filepath.Join(root, filepath.FromSlash(src)))
	if err != nil {
		t.Fatalf("the image's configuration %s: %v", src, err)
	}
	if volume == "" || !strings.HasPrefix(cfg.Store, volume+"/") {
		t.Errorf("store %s is not on the VOLUME %q: it would be lost with the container", cfg.Store, volume)
	}
	if cfg.Web == nil {
		t.Fatalf("%s has no [web]: the health check has no /healthz to ask", src)
	}
	_, port, err := net.SplitHostPort(cfg.Web.Address)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(healthcheck, "http://127.0.0.1:"+port+"/healthz") {
		t.Errorf("HEALTHCHECK %q does not ask /healthz on web.address's port %s", healthcheck, port)
	}
	if len(expose) != 1 || expose[0] != port {
		t.Errorf("EXPOSE %v, want web.address's port %s", expose, port)
	}

	// the build it runs, run here by the shell as RUN runs it, writing
	// the program where the next stage copies it from
	const out = "-o /out/umpire "
	if !strings.Contains(goBuild, "go build ") || !strings.Contains(goBuild, out) || !strings.HasSuffix(goBuild, " ./cmd/umpire") {
		t.Fatalf("the recipe's build %q is not a go build of ./cmd/umpire into /out/umpire", goBuild)
	}
	if !slices.ContainsFunc(ins, func(in dockerInstruction) bool {
		return in.Cmd == "COPY" && strings.Join(in.Args, " ") == "--from=build /out/umpire /usr/local/bin/umpire"
	}) {
		t.Errorf("the image does not copy the program the build stage makes")
	}
	bin := filepath.Join(t.TempDir(), "umpire")
	cmd := strings.Replace(goBuild, out, "-o "+bin+" ", 1)
	if os.Getenv("UMPIRE_CONTAINER_BUILD") == "" {
		// CI's mode: the recipe's build as a dry run (go build -n: its
		// flags and packages resolved, nothing compiled); the whole build
		// with its own flags is a build of everything once, minutes on two
		// cores: UMPIRE_CONTAINER_BUILD=1 runs it (docs/operations.md).
		dry := exec.Command("sh", "-c", strings.Replace(cmd, "go build ", "go build -n ", 1))
		dry.Dir = root
		if out, err := dry.CombinedOutput(); err != nil {
			t.Fatalf("%s (dry run): %v\n%s", goBuild, err, out)
		}
		return
	}
	build := exec.Command("sh", "-c", cmd)
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", goBuild, err, out)
	}
	version, err := exec.Command(bin, "version").CombinedOutput()
	if err != nil || !strings.Contains(string(version), "umpire") {
		t.Errorf("the program the recipe builds: umpire version: %v\n%s", err, version)
	}
}
