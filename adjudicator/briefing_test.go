package adjudicator_test

import (
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/templates"
)

// briefed is every mail queued to name's address whose report briefs it,
// with its attached order file.
func (m *mailJudge) briefed(name string) (bodies []store.MailBody) {
	m.t.Helper()
	for _, b := range m.queued(name, "") {
		if b.Report != nil && b.Report.Brief != nil {
			bodies = append(bodies, b)
		}
	}
	return bodies
}

// TestBriefings: a player learns what to order from the judge's mail
// alone. Its join answer shows the game's set-up (the map and its own
// units) before the start; the start mail and every report that opens a
// step it owes orders for carry its brief: what the step asks, the
// deadline in the game's time zone and in UTC, what no orders mean, and a
// pre-filled order file, attached, that the judge accepts once a line of
// it is kept.
func TestBriefings(t *testing.T) {
	m := newMailJudge(t)
	if _, r := m.sign("GM", "gm@players.test", "create\nid = \"club-1\"\ngame = \"fake\"\nscenario = \"duel\"\n"+
		"[schedule]\ncron = \"CRON_TZ=Europe/Belgrade 0 20 * * MON,THU\"\n"); !strings.Contains(r, "is created") {
		t.Fatalf("create: %s", r)
	}
	m.sign("ALICE", "alice@players.test", "join club-1 a")
	var join *store.MailBody
	for _, b := range m.queued("alice", "joined club-1") {
		join = &b
	}
	if join == nil || join.Report == nil {
		t.Fatal("the join answer is no briefing")
	}
	r := join.Report
	if !strings.Contains(r.Lead, "now holds seat A of club-1") || r.Brief != nil || len(r.Units) == 0 || r.Phase != "set-up, before the start" {
		t.Errorf("join briefing: lead %q, brief %v, units %v, phase %q", r.Lead, r.Brief, r.Units, r.Phase)
	}
	m.sign("BOB", "bob@players.test", "join club-1 B")
	m.sign("GM", "gm@players.test", "start club-1")
	bs := m.briefed("alice")
	if len(bs) != 1 {
		t.Fatalf("alice has %d briefs after the start, want 1", len(bs))
	}
	start := bs[0]
	sb := start.Report.Brief
	// start (judge_test.go) is in November: Belgrade keeps CET
	if sb.Step != 1 || !strings.Contains(sb.Local, "CET") || !strings.Contains(sb.When(), "UTC)") || sb.Default == "" || sb.Asks == "" {
		t.Errorf("start brief: %+v (when %q)", sb, sb.When())
	}
	if len(start.Files) != 1 || start.Files[0].Name != "club-1-step1-a-orders.txt" || string(start.Files[0].Data) != sb.Form {
		t.Fatalf("the start mail attaches %v, want the order file", start.Files)
	}
	header, choices := adjudicator.FormChoices(sb.Form)
	if strings.Join(header, "|") != "game: club-1|step: 1|seat: A" || len(choices) < 3 {
		t.Fatalf("order file header %q, %d choices:\n%s", header, len(choices), sb.Form)
	}
	// the rendered mail says it all in words
	rs, err := templates.NewReports("")
	if err != nil {
		t.Fatal(err)
	}
	out, err := rs.Render(start.Report)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"YOUR ORDERS FOR STEP 1", "CET", "UTC)", "club-1-step1-a-orders.txt", "unit A1 at 0101", "Without orders A passes"} {
		if !strings.Contains(strings.Join(strings.Fields(out.Text), " "), want) || !strings.Contains(out.HTML, want) {
			t.Errorf("the start briefing's text or HTML lacks %q:\n%s", want, out.Text)
		}
	}
	// the player keeps the second line of the first choice and sends the file
	kept := strings.Replace(sb.Form, "\n# "+choices[0].Lines[1]+"\n", "\n"+choices[0].Lines[1]+"\n", 1)
	if a := m.signAs("alice", kept); !strings.Contains(a, "ACCEPTED") || !strings.Contains(a, choices[0].Lines[1]) {
		t.Fatalf("the order file kept from the brief:\n%s\nanswer:\n%s", kept, a)
	}
	// a file sent back untouched orders nothing: the receipt says what
	// that means, as for any empty order file (docs/order-file.md)
	if a := m.signAs("bob", string(m.briefed("bob")[0].Files[0].Data)); !strings.Contains(a, "B passes") {
		t.Errorf("the answer to an untouched order file does not say what it means:\n%s", a)
	}
	m.now = m.now.Add(72 * time.Hour)
	m.signAs("bob", "game: club-1\nstep: 1\nseat: B\nroll 1\nend\n")
	reports := m.briefed("alice")
	last := reports[len(reports)-1].Report
	if last.Snapshot || last.Brief == nil || last.Brief.Step != 2 {
		t.Fatalf("the step 1 report does not brief step 2: %+v", last.Brief)
	}
}
