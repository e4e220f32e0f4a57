//go:build integration

package main

import (
	"crypto/sha256"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	"github.com/umpire-pbem/umpire/cmd/umpire/demo"
	"github.com/umpire-pbem/umpire/mail/signature"
	"github.com/umpire-pbem/umpire/store"
)

var (
	saltMail    = regexp.MustCompile(`YOUR ORDER SALT, for seat (\S+) alone[^\n]*\n\s*([0-9a-f]{64})`)
	receiptText = regexp.MustCompile(`ACCEPTED: orders of seat (\S+) for step (\d+) of \S+, version (\d+)\.(?s:.*?)Order file digest \(umpire-dice-v3, keyed with your seat's order salt\): ([0-9a-f]{64})`)
)

// checkV3ByMail checks what umpire-dice-v3 promises a game played by real
// mail (issue 28), from what each player received and kept:
//   - each seat's start announcement gave it its own order salt, which
//     umpire verify --salt finds committed to in the running game's log;
//     no other seat, and not the game master, got it;
//   - every receipt's digest is the one umpire digest computes from the
//     file the seat signed, with its salt, step and version; none is the
//     file's unkeyed SHA-256, which is in no mail to anyone and in no log;
//   - every mail the judge sent a seat before its first receipt, in the
//     order it sent them, quotes the commitments and h_1;
//   - replay of the ended game's export checks every salted digest.
func checkV3ByMail(t *testing.T, res fullGameResult, game string, midLog, final []byte) {
	t.Helper()
	var sec adjudicator.DiceSecrets
	var h1 dice.Hash
	db := res.Mail.DB
	db.View(t.Context(), func(tx *store.Tx) error {
		jt := tx.Judge(daemontest.JudgeAddress, time.Now())
		sec, _ = jt.DiceSecrets(game)
		r, err := jt.DiceRecord(game, 1)
		h1 = r.Head
		return err
	})
	if !sec.V3() {
		t.Fatalf("%s is scheme %d, not umpire-dice-v3", game, sec.Scheme)
	}
	var root struct {
		SealedRoot string `json:"sealed_root"`
	}
	if err := json.Unmarshal(final, &root); err != nil {
		t.Fatal(err)
	}
	sealedRoot, err := dice.ParseHash(root.SealedRoot)
	if err != nil {
		t.Fatalf("the final log's sealed root: %v", err)
	}
	midPath := filepath.Join(t.TempDir(), "log-running.json")
	os.WriteFile(midPath, midLog, 0o644)
	salts := map[string]dice.Hash{}
	for _, p := range res.Players {
		salts[p.Seat] = dice.OrderSalt(sealedRoot, p.Seat)
	}
	everyone := append([]*demo.Player{{Name: "the game master", Addr: "gm@players.test", Seat: ""}}, res.Players...)
	var unkeyed []string // the SHA-256 of every order file signed
	for _, p := range res.Players {
		for _, f := range p.Signed {
			signed, ok := signedOrders(f)
			if ok {
				unkeyed = append(unkeyed, dice.Hash(sha256.Sum256(signed)).String())
			}
		}
	}
	for _, p := range everyone {
		got := ""
		var receipts [][]string
		for _, raw := range p.Received {
			text := string(plainPart(t, raw))
			if m := saltMail.FindStringSubmatch(text); m != nil {
				if m[1] != p.Seat || m[2] != salts[p.Seat].String() {
					t.Errorf("%s got seat %s's salt %s", p.Addr, m[1], m[2])
				}
				got = m[2]
			}
			for seat, salt := range salts {
				if seat != p.Seat && strings.Contains(string(raw), salt.String()) {
					t.Errorf("%s's mail holds seat %s's order salt", p.Addr, seat)
				}
			}
			for _, u := range unkeyed {
				if strings.Contains(string(raw), u) {
					t.Errorf("%s's mail holds the unkeyed SHA-256 %s of an order file", p.Addr, u)
				}
			}
			receipts = append(receipts, receiptText.FindAllStringSubmatch(text, -1)...)
		}
		if p.Seat == "" {
			continue
		}
		if got == "" {
			t.Errorf("%s (seat %s) got no order salt", p.Addr, p.Seat)
			continue
		}
		code, out, errOut := run(t, "verify", "--salt", p.Seat+":"+got, midPath)
		if code != exitOK || !strings.Contains(out, "Your salt for seat "+p.Seat+" is the one the start record commits to") {
			t.Errorf("%s's check of its salt: exit %d\n%s%s", p.Seat, code, out, errOut)
		}
		// One salt per seat: a second --salt for the same seat is a usage
		// mistake, not a silent override.
		if code, _, errOut := run(t, "verify", "--salt", p.Seat+":"+got, "--salt", p.Seat+":"+got, midPath); code != exitUsage || !strings.Contains(errOut, "given twice") {
			t.Errorf("two --salt for seat %s: exit %d, want %d and a note that it is given twice\n%s", p.Seat, code, exitUsage, errOut)
		}
		// Each signed order file's digest, computed by the seat itself.
		dir := t.TempDir()
		checked := 0
		for i, f := range p.Signed {
			signed, ok := signedOrders(f)
			if !ok {
				continue
			}
			step := regexp.MustCompile(`step: (\d+)`).FindSubmatch(signed)
			path := filepath.Join(dir, "orders-"+strconv.Itoa(i)+".txt")
			if strings.Contains(string(f), "BEGIN PGP SIGNED MESSAGE") {
				path += ".asc"
			}
			os.WriteFile(path, f, 0o644)
			found := false
			for _, r := range receipts {
				if r[1] != p.Seat || r[2] != string(step[1]) {
					continue
				}
				_, out, _ := run(t, "digest", "--salt", got, "--step", r[2], "--version", r[3], path)
				if strings.HasPrefix(out, r[4]) {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: no receipt quotes the digest umpire digest gives for its orders of step %s", p.Seat, step[1])
			}
			checked++
		}
		if checked == 0 || len(receipts) < checked {
			t.Errorf("%s: %d order files checked, %d receipts", p.Seat, checked, len(receipts))
		}
	}
	for _, u := range unkeyed {
		if strings.Contains(string(midLog), u) || strings.Contains(string(final), u) {
			t.Errorf("a public log holds the unkeyed SHA-256 %s of an order file", u)
		}
	}
	// The judge's sending order: before a seat's first receipt, every mail
	// quotes the commitments and h_1.
	for _, p := range res.Players {
		var mails []store.Mail
		db.View(t.Context(), func(tx *store.Tx) error {
			for id := uint64(1); ; id++ {
				m, err := tx.Mail(id)
				if err != nil {
					return nil
				}
				if m.State == store.MailSent && m.To[0] == p.Addr {
					mails = append(mails, m)
				}
			}
		})
		slices.SortStableFunc(mails, func(a, b store.Mail) int { return a.Sent.Compare(b.Sent) })
		before := 0
		for _, m := range mails {
			if m.Kind == store.MailReceipt {
				break
			}
			before++
			for _, want := range []dice.Hash{sec.Open0, sec.Sealed0, h1} {
				if !strings.Contains(string(m.Body), want.String()) {
					t.Errorf("%s's mail %q, sent before its first receipt, lacks %s", p.Addr, m.Subject, want)
				}
			}
		}
		if before < 2 || before == len(mails) {
			t.Errorf("%s: %d mails before its first receipt of %d: the join answer and the start announcement at least, then a receipt", p.Addr, before, len(mails))
		}
	}
	gamePath := filepath.Join(t.TempDir(), "game.json")
	b, _ := json.Marshal(res.Export)
	os.WriteFile(gamePath, b, 0o644)
	if code, out, errOut := run(t, "replay", gamePath); code != exitOK || !strings.Contains(out, "Every order entry's salted digest is its order file's") {
		t.Errorf("replay of the ended v3 game: exit %d\n%s%s", code, out, errOut)
	}
}

// signedOrders is the order file inside a file a player signed (the text a
// clear-signature covers, or the file itself), when it is one.
func signedOrders(f []byte) ([]byte, bool) {
	signed := f
	if s, ok := signature.ClearSignedBytes(f); ok {
		signed = s
	}
	return signed, strings.HasPrefix(strings.TrimSpace(string(signed)), "game: ")
}
