package sms1914

import "github.com/umpire-pbem/umpire/adjudicator/dice"

// ecRoll is one Effectiveness Check (6.2.1): 2d6 plus DRMs against the
// Force's current CEL; it passes when the total is at most the CEL.
type ecRoll struct {
	Dice     int // the 2d6 sum
	Total    int // with the DRMs
	Passed   bool
	FailedBy int // total minus CEL when failed, else 0 (6.2.2 play note)
}

// rollEC rolls 2d6 for an EC against cel with a net DRM (6.2.1). One roll
// serves every Force in a hex (10.0).
func rollEC(r dice.Roller, cel, drm int, purpose string) ecRoll {
	d := dice.Roll(r, 2, 6, "1914 SmS 6.2 Effectiveness Check, "+purpose)
	return checkEC(d[0]+d[1], cel, drm)
}

// checkEC compares a 2d6 sum plus DRM with a CEL (6.2.1).
func checkEC(sum, cel, drm int) ecRoll {
	e := ecRoll{Dice: sum, Total: sum + drm}
	e.Passed = e.Total <= cel
	if !e.Passed {
		e.FailedBy = e.Total - cel
	}
	return e
}

// ecFailure is the 10.3 result of failing a post-combat EC.
type ecFailure struct {
	CELReductions int  // 1 for 1-3, 2 for 4-6, 3 for 7 or more
	SR            bool // failing by 7 or more
	Retreat       int  // 1 hex for failing by 7 or more
}

// postCombatFailure is the 10.3 EC Failure Results entry for a margin; a
// margin of 0 (a pass) has no effect.
func postCombatFailure(failedBy int) ecFailure {
	switch {
	case failedBy <= 0:
		return ecFailure{}
	case failedBy <= 3:
		return ecFailure{CELReductions: 1}
	case failedBy <= 6:
		return ecFailure{CELReductions: 2}
	}
	return ecFailure{CELReductions: 3, SR: true, Retreat: 1}
}

// repulseFailure is the result of failing a Repulse EC (7.4.4, 7.4.5):
// the repulsed Force (EC at +1) or the Force whose Repulse failed
// (unmodified EC) suffers one CEL reduction, whatever the margin; the 10.3
// table does not apply.
func repulseFailure(failedBy int) ecFailure {
	if failedBy <= 0 {
		return ecFailure{}
	}
	return ecFailure{CELReductions: 1}
}

// status is a Formation's CE Status (6.1.4): 0 (none), -1, -2, -3, CI, D1,
// D2, as the number of status reductions taken, 0 to 6.
type status int

// The CE Status levels of 6.1.4.
const (
	statusNone status = iota
	statusMinus1
	statusMinus2
	statusMinus3
	statusCI
	statusD1
	statusD2
)

var statusNames = [...]string{"none", "-1", "-2", "-3", "CI", "D1", "D2"}

// StatusNames lists the status words, none first.
func StatusNames() []string { return statusNames[:] }

// parseStatus reads a status word.
func parseStatus(s string) (status, bool) {
	for i, n := range statusNames {
		if n == s {
			return status(i), true
		}
	}
	return 0, false
}

func (s status) String() string { return statusNames[s] }

// CELPenalty is how far the status lowers the CEL below the Base CE: CI,
// D1 and D2 all count -3 (6.1.2, 6.1.4).
func (s status) CELPenalty() int { return min(int(s), 3) }

// Demoralized reports D1 or D2 (6.1.3).
func (s status) Demoralized() bool { return s >= statusD1 }

// Reduce lowers the status by n levels; reductions past D2 cannot be
// allocated and become SRs (6.1.3, 10.3).
func (s status) Reduce(n int) (status, int) {
	t := int(s) + n
	if t > int(statusD2) {
		return statusD2, t - int(statusD2)
	}
	return status(t), 0
}

// statusRetreat is the 10.3 retreat for a Formation's status after its
// post-combat EC: 1 hex if it is now CI (already CI or just become so), 2
// hexes if the EC made it Demoralized. A Formation already Demoralized
// before the EC does not "become" Demoralized again.
func statusRetreat(before, after status) int {
	switch {
	case after == statusCI:
		return 1
	case after.Demoralized() && !before.Demoralized():
		return 2
	}
	return 0
}
