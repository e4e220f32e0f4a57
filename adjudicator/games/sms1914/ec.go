package sms1914

import "github.com/umpire-pbem/umpire/adjudicator/dice"

// ECRoll is one Effectiveness Check (6.2.1): 2d6 plus DRMs against the
// Force's current CEL; it passes when the total is at most the CEL.
type ECRoll struct {
	Dice     int // the 2d6 sum
	Total    int // with the DRMs
	Passed   bool
	FailedBy int // total minus CEL when failed, else 0 (6.2.2 play note)
}

// RollEC rolls 2d6 for an EC against cel with a net DRM (6.2.1). One roll
// serves every Force in a hex (10.0).
func RollEC(r dice.Roller, cel, drm int, purpose string) ECRoll {
	d := dice.Roll(r, 2, 6, "1914 SmS 6.2 Effectiveness Check, "+purpose)
	return CheckEC(d[0]+d[1], cel, drm)
}

// CheckEC compares a 2d6 sum plus DRM with a CEL (6.2.1).
func CheckEC(sum, cel, drm int) ECRoll {
	e := ECRoll{Dice: sum, Total: sum + drm}
	e.Passed = e.Total <= cel
	if !e.Passed {
		e.FailedBy = e.Total - cel
	}
	return e
}

// ECFailure is the 10.3 result of failing a post-combat EC.
type ECFailure struct {
	CELReductions int  // 1 for 1-3, 2 for 4-6, 3 for 7 or more
	SR            bool // failing by 7 or more
	Retreat       int  // 1 hex for failing by 7 or more
}

// PostCombatFailure is the 10.3 EC Failure Results entry for a margin; a
// margin of 0 (a pass) has no effect.
func PostCombatFailure(failedBy int) ECFailure {
	switch {
	case failedBy <= 0:
		return ECFailure{}
	case failedBy <= 3:
		return ECFailure{CELReductions: 1}
	case failedBy <= 6:
		return ECFailure{CELReductions: 2}
	}
	return ECFailure{CELReductions: 3, SR: true, Retreat: 1}
}

// RepulseFailure is the result of failing a Repulse EC (7.4.4, 7.4.5):
// the repulsed Force (EC at +1) or the Force whose Repulse failed
// (unmodified EC) suffers one CEL reduction, whatever the margin; the 10.3
// table does not apply.
func RepulseFailure(failedBy int) ECFailure {
	if failedBy <= 0 {
		return ECFailure{}
	}
	return ECFailure{CELReductions: 1}
}

// Status is a Formation's CE Status (6.1.4): 0 (none), -1, -2, -3, CI, D1,
// D2, as the number of status reductions taken, 0 to 6.
type Status int

// The CE Status levels of 6.1.4.
const (
	StatusNone Status = iota
	StatusMinus1
	StatusMinus2
	StatusMinus3
	StatusCI
	StatusD1
	StatusD2
)

var statusNames = [...]string{"none", "-1", "-2", "-3", "CI", "D1", "D2"}

// StatusNames lists the status words, none first.
func StatusNames() []string { return statusNames[:] }

// ParseStatus reads a status word.
func ParseStatus(s string) (Status, bool) {
	for i, n := range statusNames {
		if n == s {
			return Status(i), true
		}
	}
	return 0, false
}

func (s Status) String() string { return statusNames[s] }

// CELPenalty is how far the status lowers the CEL below the Base CE: CI,
// D1 and D2 all count -3 (6.1.2, 6.1.4).
func (s Status) CELPenalty() int { return min(int(s), 3) }

// Demoralized reports D1 or D2 (6.1.3).
func (s Status) Demoralized() bool { return s >= StatusD1 }

// Reduce lowers the status by n levels; reductions past D2 cannot be
// allocated and become SRs (6.1.3, 10.3).
func (s Status) Reduce(n int) (Status, int) {
	t := int(s) + n
	if t > int(StatusD2) {
		return StatusD2, t - int(StatusD2)
	}
	return Status(t), 0
}

// StatusRetreat is the 10.3 retreat for a Formation's status after its
// post-combat EC: 1 hex if it is now CI (already CI or just become so), 2
// hexes if the EC made it Demoralized. A Formation already Demoralized
// before the EC does not "become" Demoralized again.
func StatusRetreat(before, after Status) int {
	switch {
	case after == StatusCI:
		return 1
	case after.Demoralized() && !before.Demoralized():
		return 2
	}
	return 0
}
