package adjudicator_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
	"github.com/umpire-pbem/umpire/adjudicator/games/fake"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
)

// heldCard matches a fake-game card as its holder is told it: in its hand
// ("card 7", or "A: card 7" in a view with every hand), in its private
// event ("A draws card 7"), or shown ("shows its cards: [7]").
var heldCard = regexp.MustCompile(`card [1-9]|cards: \[`)

// playDuel plays a duel in which both seats draw hidden cards every step
// (and order other things), up to and including step last.
func playDuel(h *hosted, last int) {
	h.t.Helper()
	for k := 1; k <= last; k++ {
		h.send("A", k, "secret", "roll 1", "move A1 0303")
		h.send("B", k, "secret", "pass")
		if st := h.step(uint64(k)); st.Status != "closed" {
			h.t.Fatalf("step %d is %s, not adjudicated", k, st.Status)
		}
	}
}

// reports returns the report mails queued to addr, with their bodies.
func reports(h *hosted, addr string) ([]store.Mail, []store.MailBody) {
	h.t.Helper()
	var ms []store.Mail
	var bs []store.MailBody
	for _, m := range h.mails(addr) {
		var b store.MailBody
		if err := json.Unmarshal(m.Body, &b); err != nil {
			h.t.Fatal(err)
		}
		if b.Report != nil && m.Kind == store.MailKind(adjudicator.MailReport) {
			ms, bs = append(ms, m), append(bs, b)
		}
	}
	return ms, bs
}

// streamKeys are every hidden stream key of steps 1 to last.
func streamKeys(h *hosted, last int) []string {
	h.t.Helper()
	var keys []string
	storetest.MustView(h.t, h.db, func(tx *store.Tx) error {
		sec, err := tx.Judge("judge@umpire.test", h.now).DiceSecrets("g1")
		for k := 1; k <= last; k++ {
			for _, s := range []string{"hand-a", "hand-b"} {
				keys = append(keys, dice.StreamKey(sec.SealedRoot, uint64(k), s).String())
			}
		}
		return err
	})
	return keys
}

// TestGMViewOfHiddenHands: in a game with hidden hands, no mail to the game
// master before the end names a held card, a seat's order text, a
// seat-private event or a hidden stream key, while each seat's own mail
// shows its card (the check can fail); the game master's reports say it is
// the public view and carry the order list. At the end the game master sees
// everything, the reports of earlier steps included.
func TestGMViewOfHiddenHands(t *testing.T) {
	h := host(t, duel)
	playDuel(h, 2)
	keys := streamKeys(h, 2)
	ms, bs := reports(h, "gm@players.test")
	if len(ms) != 2 {
		t.Fatalf("the game master has %d reports, want 2", len(ms))
	}
	for i, m := range ms {
		raw := string(m.Body) + m.Subject
		if loc := heldCard.FindStringIndex(raw); loc != nil {
			t.Errorf("the game master's report %q names a held card: %q", m.Subject, raw[max(loc[0]-60, 0):loc[1]])
		}
		for _, k := range keys {
			if strings.Contains(raw, k) {
				t.Errorf("the game master's report %q holds the stream key %s", m.Subject, k)
			}
		}
		r := bs[i].Report
		if len(r.Hand) > 0 || len(r.Keys) > 0 || len(r.Orders) > 0 || r.GMView != adjudicator.GMViewPublic {
			t.Errorf("the game master's report %q: hand %v, keys %v, orders %v, view %q", m.Subject, r.Hand, r.Keys, r.Orders, r.GMView)
		}
		if len(r.OrderList) != 2 || !strings.Contains(bs[i].Text, "A draws a hidden card") {
			t.Errorf("the game master's report %q lacks the order list or the public events:\n%s", m.Subject, bs[i].Text)
		}
		if !strings.Contains(r.Reader(), "public view") || !strings.Contains(strings.Join(r.Notices, " "), "gm_sees_hands") {
			t.Errorf("the game master's report does not say which view it is: %q, %v", r.Reader(), r.Notices)
		}
	}
	for _, seat := range []string{"A", "B"} {
		ms, bs := reports(h, strings.ToLower(seat)+"@players.test")
		if len(ms) != 2 || !heldCard.MatchString(string(ms[1].Body)) || len(bs[1].Report.Hand) != 2 || len(bs[1].Report.Keys) != 1 {
			t.Errorf("seat %s's own reports do not show its cards and key", seat)
		}
	}
	for _, m := range h.mails("gm@players.test") { // every mail, not only reports
		if heldCard.MatchString(string(m.Body)) {
			t.Errorf("the game master's mail %q names a held card", m.Subject)
		}
	}

	playDuel3 := func() {
		h.send("A", 3, "pass")
		h.send("B", 3, "show")
	}
	playDuel3()
	if g := h.game(); g.Status != adjudicator.Ended {
		t.Fatalf("the duel did not end after step 3: %s", g.Status)
	}
	_, bs = reports(h, "gm@players.test")
	last := bs[len(bs)-1].Report
	if last.GMView != adjudicator.GMViewAll || len(last.Hand) != 4 || !strings.HasPrefix(last.Hand[0], "A: card ") || len(last.Orders) != 2 {
		t.Errorf("the game master's last report, after the end: view %q, hand %v, orders %v", last.GMView, last.Hand, last.Orders)
	}
	r := buildReport(t, h, "")
	if r.GMView != adjudicator.GMViewAll || !strings.Contains(strings.Join(eventTexts(r), "\n"), "A draws card ") || len(r.Orders) != 2 {
		t.Errorf("after the end, the game master's report of step 1 hides something: %+v", r.Events)
	}
}

func eventTexts(r *adjudicator.Report) []string {
	out := make([]string, len(r.Events))
	for i, e := range r.Events {
		out[i] = e.Text
	}
	return out
}

// TestGMSeesHandsOptIn: with gm_sees_hands = true in the game file, the
// game master's reports show every seat's hand, private events and
// orders before the end, and say so.
func TestGMSeesHandsOptIn(t *testing.T) {
	h := host(t, strings.Replace(duel, "gm = \"GMKEY\"\n", "gm = \"GMKEY\"\ngm_sees_hands = true\n", 1))
	playDuel(h, 1)
	_, bs := reports(h, "gm@players.test")
	if len(bs) != 1 {
		t.Fatalf("the game master has %d reports", len(bs))
	}
	r := bs[0].Report
	if r.GMView != adjudicator.GMViewHands || len(r.Hand) != 2 || !strings.HasPrefix(r.Hand[0], "A: card ") || !strings.HasPrefix(r.Hand[1], "B: card ") {
		t.Errorf("the game master who opted in: view %q, hand %v", r.GMView, r.Hand)
	}
	if len(r.Orders) != 2 || !strings.Contains(strings.Join(eventTexts(r), "\n"), "B draws card ") {
		t.Errorf("the game master who opted in lacks orders or private events: %v %v", r.Orders, eventTexts(r))
	}
	if !strings.Contains(strings.Join(r.Notices, " "), "gm_sees_hands = true") || !strings.Contains(r.Reader(), "gm_sees_hands") {
		t.Errorf("the report does not say the game master sees hands: %q %v", r.Reader(), r.Notices)
	}
	if len(r.Keys) > 0 {
		t.Errorf("the game master is sent stream keys: %v", r.Keys)
	}
}

// openFake is the fake game without hidden streams: a game whose game
// master sees through the fog (as in Per Rote or 1914).
type openFake struct {
	adjudicator.Rules
	adjudicator.Reporter
}

// TestGMViewWithoutHiddenStreams: a game whose rules declare no hidden
// streams keeps the game master's full view (every seat's orders), and
// its game file may not ask for gm_sees_hands.
func TestGMViewWithoutHiddenStreams(t *testing.T) {
	games := adjudicator.NewRegistry(openFake{fake.Game, fake.Game.(adjudicator.Reporter)})
	if _, err := adjudicator.ParseGameFile([]byte(strings.Replace(duel, "gm = \"GMKEY\"\n", "gm = \"GMKEY\"\ngm_sees_hands = true\n", 1)), games); err == nil ||
		!strings.Contains(err.Error(), "gm_sees_hands: fake has no hidden hands") {
		t.Errorf("gm_sees_hands in a game without hidden hands: %v", err)
	}
	hostGames = games
	defer func() { hostGames = nil }()
	h := host(t, duel)
	h.send("A", 1, "roll 1", "move A1 0303")
	h.send("B", 1, "move B2 0403")
	r := buildReport(t, h, "")
	if r.GMView != adjudicator.GMViewAll || len(r.Orders) != 2 || r.Reader() != "the game master" || len(r.Notices) != 1 {
		t.Errorf("the game master's view of a game without hidden streams changed: view %q, orders %v, reader %q, notices %v", r.GMView, r.Orders, r.Reader(), r.Notices)
	}
}

// TestGMViewOfHiddenHandsScheme1: a game created under umpire-dice-v1 has no
// order list in its dice log; the game master's public view lists who
// ordered, which version and its digest all the same, and no hand.
func TestGMViewOfHiddenHandsScheme1(t *testing.T) {
	h := hostWith(t, duel, true)
	playDuel(h, 1)
	r := buildReport(t, h, "")
	if r.Scheme != legacy.Hashed.Name() || r.GMView != adjudicator.GMViewPublic || len(r.Hand) > 0 || len(r.Orders) > 0 {
		t.Fatalf("the v1 game master's report: scheme %s, view %q, hand %v, orders %v", r.Scheme, r.GMView, r.Hand, r.Orders)
	}
	if len(r.OrderList) != 2 || r.OrderList[0].Seat != "A" || r.OrderList[1].Seat != "B" || r.OrderList[0].Version != 1 || len(r.OrderList[0].Digest) != 64 {
		t.Errorf("the v1 game master's order list: %+v", r.OrderList)
	}
	if a := buildReport(t, h, "A"); len(a.OrderList) != 0 || len(a.Orders) != 1 {
		t.Errorf("seat A's v1 report changed: order list %+v, orders %v", a.OrderList, a.Orders)
	}
}
