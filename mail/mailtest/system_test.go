package mailtest

import (
	"fmt"
	"strings"
	"testing"
)

// recorder is a testing.TB that records how a test would have ended.
type recorder struct {
	testing.TB
	fatal, skip string
}

func (r *recorder) Fatal(args ...any) { r.fatal = fmt.Sprint(args...) }
func (r *recorder) Skip(args ...any)  { r.skip = fmt.Sprint(args...) }

func TestUnavailableFailsOnlyInCI(t *testing.T) {
	const want = "real mail servers not installed: apt-get install dovecot-imapd dovecot-lmtpd opensmtpd (bash .ci/run does this)"
	for _, tc := range []struct {
		ci   string
		fail bool
	}{{"true", true}, {"", false}, {"1", false}} {
		t.Setenv("CI", tc.ci)
		r := &recorder{TB: t}
		unavailable(r, "real mail servers not installed: %s", installHint)
		got := r.skip
		if tc.fail {
			got = r.fatal
		}
		if !strings.HasPrefix(got, want) || (r.fatal != "" && r.skip != "") {
			t.Errorf("CI=%q: fatal %q, skip %q; want %s %q", tc.ci, r.fatal, r.skip, map[bool]string{true: "fatal", false: "skip"}[tc.fail], want)
		}
	}
}
