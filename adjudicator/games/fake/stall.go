package fake

import (
	"slices"
	"strings"
	"sync"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// Stall is a test game for the judge's budgets and quarantine (issue 27):
// the fake game under the id "stall", whose rules misbehave on cue. In
// its order steps a seat may also give, each alone on a line:
//
//	stall        ParseOrders blocks until Release (a grammar loop that
//	             never ends, as a 1995 pa line once made one)
//	spin         ParseOrders spins on the CPU until Release
//	hoard        ParseOrders holds memory, 16 MiB at a time up to 1 GiB,
//	             until Release
//	crash        ParseOrders panics
//	stall-step   accepted; Adjudicate blocks until Release
//
// It is in no registry the judge serves: tests add it (and the test binary,
// re-run as a judge, hosts it).
type Stall struct {
	rules
	// Fixed plays the umpire with the fix: cue lines are read as any
	// other line (and refused, as no order of the fake game).
	Fixed bool
	// Began, if set, is told of each cue as ParseOrders begins to
	// misbehave (a test started as a process of its own logs it).
	Began func(cue string)

	once    sync.Once
	release chan struct{}
}

// NewStall returns a stall game whose blocked computations go on until
// Release.
func NewStall() *Stall { return &Stall{release: make(chan struct{})} }

// Release ends every computation the game blocked or spun.
func (s *Stall) Release() { s.once.Do(func() { close(s.release) }) }

func (*Stall) ID() string    { return "stall" }
func (*Stall) Title() string { return "Stall (a test game whose rules misbehave on cue)" }

// ParseOrders misbehaves on a cue line, and otherwise reads the fake
// game's orders; "stall-step" is accepted as it is.
func (s *Stall) ParseOrders(state []byte, seat string, lines []adjudicator.OrderLine) ([]string, []adjudicator.Problem) {
	var rest []adjudicator.OrderLine
	var cued []string
	for _, l := range lines {
		cue := strings.TrimSpace(strings.ToLower(l.Text))
		if s.Fixed && cue != "stall-step" {
			cue = ""
		}
		if s.Began != nil && cue != "" && cue != "stall-step" {
			s.Began(cue)
		}
		switch cue {
		case "stall":
			<-s.release
		case "spin":
			for n := 0; ; n++ {
				if n%1_000_000 == 0 && s.released() {
					break
				}
			}
		case "hoard":
			var held [][]byte
			for len(held) < 64 && !s.released() {
				held = append(held, make([]byte, 16<<20))
				for i := 0; i < len(held[len(held)-1]); i += 4096 {
					held[len(held)-1][i] = 1 // touched: resident, not only reserved
				}
			}
			<-s.release
		case "crash":
			panic("the stall game crashes on cue")
		case "stall-step":
			cued = append(cued, "stall-step")
		default:
			rest = append(rest, l)
		}
	}
	out, problems := s.rules.ParseOrders(state, seat, rest)
	return append(out, cued...), problems
}

// Adjudicate blocks when any seat ordered "stall-step", and otherwise
// adjudicates as the fake game.
func (s *Stall) Adjudicate(state []byte, orders map[string][]string, r dice.Roller) ([]byte, []adjudicator.Event, error) {
	for _, o := range orders {
		if slices.Contains(o, "stall-step") {
			<-s.release
		}
	}
	return s.rules.Adjudicate(state, orders, r)
}

func (s *Stall) released() bool {
	select {
	case <-s.release:
		return true
	default:
		return false
	}
}
