package message

import (
	"strings"
	"testing"
)

func TestAutomatic(t *testing.T) {
	base := "From: Alice <alice@players.test>\nTo: judge@umpire.test\nSubject: orders\nMessage-ID: <x@players.test>\n"
	for _, c := range []struct {
		name, header string
		auto         bool
		reason       string
	}{
		{"a player's mail", "", false, ""},
		{"Auto-Submitted: no", "Auto-Submitted: no\n", false, ""},
		{"Auto-Submitted: auto-replied", "Auto-Submitted: Auto-Replied; owner-email=x@y\n", true, "Auto-Submitted: auto-replied"},
		{"Auto-Submitted: auto-notified", "Auto-Submitted: auto-notified\n", true, "Auto-Submitted"},
		{"Precedence: bulk", "Precedence: bulk\n", true, "Precedence: bulk"},
		{"Precedence: first-class", "Precedence: first-class\n", false, ""},
		{"List-Id", "List-Id: <pbem.lists.test>\n", true, "List-Id"},
		{"List-Unsubscribe", "List-Unsubscribe: <mailto:x@lists.test>\n", true, "List-Unsubscribe"},
		{"X-Autoreply", "X-Autoreply: yes\n", true, "X-Autoreply"},
		{"X-Autorespond", "X-Autorespond: Thanks\n", true, "X-Autorespond"},
		{"X-Loop naming us", "X-Loop: judge@umpire.test\n", true, "X-Loop"},
		{"X-Loop naming another", "X-Loop: procmail@players.test\n", false, ""},
		{"null Return-Path", "Return-Path: <>\n", true, "null Return-Path"},
		{"Return-Path is ours", "Return-Path: <Judge@Umpire.Test>\n", true, "Return-Path is the judge's own address"},
		{"Exchange generated", "X-MS-Exchange-Generated-Message-Source: Mailbox Rules Agent\n", true, "Exchange"},
		{"out-of-office subject (the first Subject counts)", "Subject: Out of Office: orders\n", true, "out-of-office"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := Parse([]byte(c.header+base+"\nbody\n"), DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			reason, auto := Automatic(m, []string{"judge@umpire.test", ""})
			if auto != c.auto || !strings.Contains(reason, c.reason) {
				t.Errorf("Automatic = %q, %v; want %v with a reason mentioning %q", reason, auto, c.auto, c.reason)
			}
		})
	}
	for _, c := range []struct {
		from, subject string
		auto          bool
	}{
		{"MAILER-DAEMON@mx.players.test", "x", true},
		{"Mail Delivery Subsystem <mailer-daemon@googlemail.test>", "x", true},
		{"MAILER-DAEMON (Mail Delivery System)", "x", true},
		{"postmaster@players.test", "x", true},
		{"No Reply <noreply+news@forum.test>", "x", true},
		{"Judge <JUDGE@umpire.test>", "x", true},
		{"Daemon Fan <daemon@players.test>", "x", false},
		{"alice@players.test", "Automatic reply: orders", true},
		{"alice@players.test", "Re: Automatic reply: orders", false},
		{"alice@players.test", "Abwesenheitsnotiz: Zug 7", true},
	} {
		m, err := Parse([]byte("From: "+c.from+"\nSubject: "+c.subject+"\n\nx\n"), DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		if reason, auto := Automatic(m, []string{"judge@umpire.test"}); auto != c.auto {
			t.Errorf("From %q Subject %q: Automatic = %q, %v; want %v", c.from, c.subject, reason, auto, c.auto)
		}
	}
	if _, auto := Automatic(nil, nil); auto {
		t.Error("Automatic(nil) is true")
	}
}
