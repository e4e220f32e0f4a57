package legacy

import "fmt"

// Scheme is a dice scheme older than umpire-dice-v3, which the games
// created under it keep; its number is the version of its export format.
type Scheme int

// The older schemes (docs/dice-log.md, section 11 and the appendix).
const (
	// Hashed is umpire-dice-v1: one hash chain of log entries, each step's
	// dice from one open and one sealed link (Log, StepRoller, Export,
	// Verify).
	Hashed Scheme = 1
	// Records is umpire-dice-v2: typed records in one hash chain, which
	// umpire-dice-v3 extends. Package dice reads, writes and verifies
	// them beside v3's, told apart by the header (dice.Header.Scheme "");
	// the dice service still writes them.
	Records Scheme = 2
)

// Name is the scheme's name, as exports and reports give it.
func (s Scheme) Name() string { return fmt.Sprintf("umpire-dice-v%d", int(s)) }

// String is Name.
func (s Scheme) String() string { return s.Name() }
