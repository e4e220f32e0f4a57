//go:build integration

package main

import (
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/games/bu"
	"github.com/umpire-pbem/umpire/mail/mailtest"
)

// TestHelpGameByRealMail: a player who knows only the judge's address asks
// for a game's orders by mail and gets every verb of the table its parser
// looks verbs up in, with its form and example; a misspelt topic gets the
// nearest; a seat's holder asks for its units, signed, and gets its own.
func TestHelpGameByRealMail(t *testing.T) {
	t.Parallel()
	c := newClub(t, mailtest.Real(t), "")
	c.setup(clubGame)
	before := len(c.inbox("alice", 0))
	c.send("alice", c.mail("alice", "<help-bu@players.test>", "help bu", "", "help bu\n", false))
	c.send("alice", c.mail("alice", "<help-typo@players.test>", "help bu atack", "", "\n", false))
	c.send("alice", c.signed("alice", "units club-1\n", false, ""))
	c.send("alice", c.signed("alice", "status club-1\n", false, ""))
	c.serve()
	mails := c.inbox("alice", before+4)[before:]
	find := func(subject string) string {
		for _, m := range mails {
			if strings.Contains(m, "Subject: umpire: "+subject+" (re: ") {
				return m
			}
		}
		t.Fatalf("no answer %q among:\n%s", subject, strings.Join(mails, "\n-----\n"))
		return ""
	}
	help := find("help bu")
	for _, v := range bu.Game.(adjudicator.Grammar).Verbs() {
		if !strings.Contains(help, v.Form) || !strings.Contains(help, "example: "+v.Example) {
			t.Errorf("help bu lacks %s (%s, example %s)", v.Name, v.Form, v.Example)
		}
	}
	if typo := find("help: no such topic"); !strings.Contains(typo, "Did you mean attack?") {
		t.Errorf("help bu atack:\n%s", typo)
	}
	if units := find("units club-1"); !strings.Contains(units, "Your units (A):") || !strings.Contains(units, "A1") {
		t.Errorf("units club-1, signed by alice:\n%s", units)
	}
	if status := find("status club-1"); !strings.Contains(status, "You (A) owe orders for step 1") {
		t.Errorf("status club-1, signed by alice:\n%s", status)
	}
}
