package adjudicator_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"flag"
	"fmt"
	"html"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
	"github.com/umpire-pbem/umpire/templates"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// reportGame plays step 1 of a duel in which both seats draw hidden cards,
// roll and move.
func reportGame(t *testing.T) *hosted {
	h := host(t, duel)
	h.send("A", 1, "secret", "roll 2", "move A1 0303")
	h.send("B", 1, "move B2 0403", "secret", "pass")
	if h.step(1).Status != "closed" {
		t.Fatal("step 1 was not adjudicated")
	}
	return h
}

func buildReport(t *testing.T, h *hosted, seat string) *adjudicator.Report {
	t.Helper()
	var r *adjudicator.Report
	storetest.MustView(t, h.db, func(tx *store.Tx) (err error) {
		r, err = h.judge.BuildReport(tx.Judge("judge@umpire.test", h.now), "g1", 1, seat)
		return err
	})
	return r
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test ./adjudicator -run %s -update rewrites it):\n%s", name, t.Name(), got)
	}
}

// TestReportHiddenInformation renders step 1's report for seats A and B and
// for the GM: each seat sees its own hidden card and not the other's; the
// sealed draws show no values; the GM of this game with hidden hands sees
// the public view (no card, no seat's orders, the order list) and is told
// so. Golden files hold the text parts and A's HTML part.
func TestReportHiddenInformation(t *testing.T) {
	h := reportGame(t)
	rs, err := templates.NewReports("")
	if err != nil {
		t.Fatal(err)
	}
	cards := map[string]string{}
	for _, seat := range []string{"A", "B"} {
		r := buildReport(t, h, seat)
		if len(r.Hand) != 1 || !strings.HasPrefix(r.Hand[0], "card ") {
			t.Fatalf("%s's hand %v", seat, r.Hand)
		}
		cards[seat] = r.Hand[0]
	}
	for _, seat := range []string{"A", "B", ""} {
		r := buildReport(t, h, seat)
		out, err := rs.Render(r)
		if err != nil {
			t.Fatal(err)
		}
		name := seat
		if seat == "" {
			name = "GM"
		}
		golden(t, "report-step1-"+name+".txt", []byte(out.Text))
		if seat == "A" {
			golden(t, "report-step1-A.html", []byte(out.HTML))
		}
		for _, other := range []string{"A", "B"} {
			secret := other + " draws " + cards[other]
			switch {
			case seat == other:
				if !strings.Contains(out.Text, secret) || !strings.Contains(out.HTML, secret) {
					t.Errorf("report for %q does not say %q", seat, secret)
				}
			default:
				if strings.Contains(out.Text, secret) || strings.Contains(out.HTML, secret) ||
					strings.Contains(out.Text, other+": "+cards[other]) {
					t.Errorf("report for %s shows %s's hidden card: %q", seat, other, secret)
				}
				if !strings.Contains(out.Text, other+" draws a hidden card") {
					t.Errorf("report for %s does not say %s drew a hidden card", seat, other)
				}
			}
		}
		// a seat sees its own orders only; the GM neither (who ordered
		// and the digest are in the order list, which every reader has).
		for _, other := range []string{"A", "B"} {
			shown := strings.Contains(out.Text, "  "+other+":\n")
			if want := seat == other; shown != want {
				t.Errorf("report for %q shows %s's orders: %v", seat, other, shown)
			}
		}
		// sealed draws are not shown before the game ends, but to the
		// seat whose hand they are, with the key to check them.
		for _, d := range r.Dice {
			if d.Spec != "chit 9" {
				continue
			}
			own := seat != "" && d.Stream == "hand-"+strings.ToLower(seat)
			switch {
			case own && (d.Sealed || !d.Yours || len(d.Values) != 1 || fmt.Sprintf("card %d", d.Values[0]+1) != cards[seat]):
				t.Errorf("%s's own hidden draw: %+v, its hand %s", seat, d, cards[seat])
			case !own && (!d.Sealed || d.Values != nil):
				t.Errorf("sealed draw shown to %q: %+v", seat, d)
			}
		}
		if seat != "" && (len(r.Keys) != 1 || r.Keys[0].Stream != "hand-"+strings.ToLower(seat)) {
			t.Errorf("%s is sent the keys %+v, want its own hand's only", seat, r.Keys)
		}
		if seat != "" && !strings.Contains(out.Text, "your orders: version 1, digest") {
			t.Errorf("%s's report does not say which of its orders were included:\n%s", seat, out.Text)
		}
		if len(r.OrderList) != 2 {
			t.Errorf("report for %q has the order list %+v, want both seats' entries", seat, r.OrderList)
		}
		if gm := strings.Contains(out.Text, "Game master: you see the public view until the game ends"); gm != (seat == "") {
			t.Errorf("report for %q says the game master's view: %v", seat, gm)
		}
		checkText(t, out.Text)
		checkHTML(t, out)
		checkFacts(t, out)
	}
}

// checkText: the text part fits 72 columns.
func checkText(t *testing.T, text string) {
	t.Helper()
	for i, line := range strings.Split(text, "\n") {
		if n := utf8.RuneCountInString(line); n > 72 {
			t.Errorf("text line %d is %d columns: %q", i+1, n, line)
		}
	}
}

// checkHTML: the HTML part is well-formed (every element closed and nested,
// as a strict XML reader demands), and every cid: it references is a part
// of the mail.
func checkHTML(t *testing.T, out *templates.Rendered) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(out.HTML))
	d.Strict = true
	d.Entity = xml.HTMLEntity
	var stack []string
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("HTML is not well-formed: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			stack = append(stack, e.Name.Local)
			for _, a := range e.Attr {
				if cid, ok := strings.CutPrefix(a.Value, "cid:"); ok && (cid != out.MapCID || len(out.Map) == 0) {
					t.Errorf("HTML references %s, which is not a part", a.Value)
				}
			}
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) != 0 {
		t.Errorf("unclosed elements %v", stack)
	}
	if out.MapCID == "" || !strings.Contains(out.HTML, `src="cid:`+out.MapCID+`"`) {
		t.Errorf("the HTML part does not show the map (cid %q)", out.MapCID)
	}
}

var tagRE = regexp.MustCompile(`(?s)<style.*?</style>|<title>.*?</title>|<[^>]*>`)

// facts splits text into words with the punctuation around them removed.
func facts(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(s) {
		w = strings.Trim(w, `.,:;()[]"'`)
		if w != "" {
			out[w] = true
		}
	}
	return out
}

// checkFacts: every word of the HTML part's text is in the text part, so
// the text part says everything the HTML part does.
func checkFacts(t *testing.T, out *templates.Rendered) {
	t.Helper()
	htmlText := html.UnescapeString(tagRE.ReplaceAllString(out.HTML, " "))
	inText := facts(out.Text)
	var missing []string
	for w := range facts(htmlText) {
		if !inText[w] {
			missing = append(missing, w)
		}
	}
	if len(missing) > 0 {
		t.Errorf("the HTML part says %q, which the text part does not", missing)
	}
}

// TestReportQueuedWithData checks that the reports queued after a step carry
// their data, so the outbox renders them with the map picture.
func TestReportQueuedWithData(t *testing.T) {
	h := reportGame(t)
	for _, to := range []string{"a@players.test", "b@players.test", "gm@players.test"} {
		var found bool
		for _, m := range h.mails(to) {
			if !strings.Contains(m.Subject, "step 1 report") {
				continue
			}
			found = true
			var body store.MailBody
			if err := json.Unmarshal(m.Body, &body); err != nil {
				t.Fatal(err)
			}
			if body.Report == nil || body.Report.Picture == nil || body.Report.Picture.Grid == nil || body.Text == "" {
				t.Errorf("report to %s queued without its data or picture", to)
			}
		}
		if !found {
			t.Errorf("no report to %s", to)
		}
	}
}

// TestMapCommand: "map GAME" answers anyone with the public view of the
// game now: the map and units, no seat's hidden cards, no orders.
func TestMapCommand(t *testing.T) {
	h := reportGame(t)
	h.update(func(tx adjudicator.Tx) error {
		_, err := h.intake.Handle(t.Context(), tx, &adjudicator.Envelope{MessageID: "m1@kibitzer.test", From: "kibitzer@elsewhere.test",
			Subject: "map g1", Received: h.now})
		return err
	})
	ms := h.mails("kibitzer@elsewhere.test")
	if len(ms) != 1 || !strings.Contains(ms[0].Subject, "umpire: map g1") {
		t.Fatalf("answer to map: %d mails", len(ms))
	}
	var body store.MailBody
	if err := json.Unmarshal(ms[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	r := body.Report
	if r == nil || !r.Snapshot || r.Picture == nil || len(r.Hand) != 0 || len(r.Orders) != 0 || len(r.Units) != 4 {
		t.Fatalf("map report %+v", r)
	}
	rs, err := templates.NewReports("")
	if err != nil {
		t.Fatal(err)
	}
	out, err := rs.Render(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.Text, "g1: map at step 2") || strings.Contains(out.Text, "card") || strings.Contains(out.Text, "DICE") {
		t.Errorf("map text:\n%s", out.Text)
	}
	checkText(t, out.Text)
	checkHTML(t, out)
	checkFacts(t, out)
	h.update(func(tx adjudicator.Tx) error {
		_, err := h.intake.Handle(t.Context(), tx, &adjudicator.Envelope{MessageID: "m2@kibitzer.test", From: "kibitzer@elsewhere.test",
			Subject: "map nosuch", Received: h.now})
		return err
	})
	if ms := h.mails("kibitzer@elsewhere.test"); len(ms) != 2 || !strings.Contains(ms[1].Subject, "no such game") {
		t.Errorf("map of a game that does not exist: %d mails", len(ms))
	}
}
