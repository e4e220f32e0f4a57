package mailtest

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// ClientMessage is one message of the clients corpus (mail/testdata/clients,
// whose README says which client, version and settings each models).
type ClientMessage struct {
	Name string
	// Expect is "orders" (the judge must read the order file) or "refused"
	// (it must refuse the message with an answer holding Hint).
	Expect string
	// Game, Step and Seat are the header the judge must read ("orders").
	Game, Step, Seat string
	// Orders are the order lines, exactly as the judge must read them.
	Orders []string
	// Hint is what the refusal must say ("refused").
	Hint string
	Note string
	Raw  []byte
}

// ClientsDir is the folder of the clients corpus, its MANIFEST.tsv and keys/.
func ClientsDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "testdata", "clients")
}

// Clients reads every message of the clients corpus's MANIFEST.tsv:
// file<TAB>orders<TAB>game/step/seat ORDER | ORDER ...<TAB>note, or
// file<TAB>refused<TAB>hint<TAB>note.
func Clients(tb testing.TB) []ClientMessage {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(ClientsDir(), "MANIFEST.tsv"))
	if err != nil {
		tb.Fatal(err)
	}
	var out []ClientMessage
	for i, line := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 4 || f[0] == "" || f[3] == "" {
			tb.Fatalf("MANIFEST.tsv line %d: want file<TAB>expect<TAB>what<TAB>note, got %q", i+1, line)
		}
		m := ClientMessage{Name: f[0], Expect: f[1], Note: f[3]}
		switch m.Expect {
		case "orders":
			hdr, orders, _ := strings.Cut(f[2], " ")
			h := strings.SplitN(hdr, "/", 3)
			if len(h) != 3 {
				tb.Fatalf("MANIFEST.tsv line %d: want game/step/seat, got %q", i+1, hdr)
			}
			m.Game, m.Step, m.Seat = h[0], h[1], h[2]
			m.Orders = strings.Split(orders, " | ")
		case "refused":
			m.Hint = f[2]
		default:
			tb.Fatalf("MANIFEST.tsv line %d: unknown expectation %q", i+1, m.Expect)
		}
		if m.Raw, err = os.ReadFile(filepath.Join(ClientsDir(), m.Name)); err != nil {
			tb.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}
