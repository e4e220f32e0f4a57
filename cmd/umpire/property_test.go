//go:build integration

package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/mail/signature"
	"github.com/umpire-pbem/umpire/mail/signature/signtest"
	"github.com/umpire-pbem/umpire/store"
)

// TestPropertyHostileMix sends a game's players' and game master's mail
// mixed with replays of it, forgeries, mail by unknown keys, unsigned and
// broken mail and forged "help" spam, in random order, while the judge is
// killed with SIGKILL again and again. Whatever the mix, afterwards:
//
//   - no mail is left unhandled, and each went to processed or rejected;
//   - every order file the judge accepted has exactly one receipt (a
//     receipt sent again after a kill has the same Message-ID);
//   - every step that was adjudicated has its report in the mailbox of
//     every seat and of the game master, exactly one each;
//   - replayed mail changed nothing: no step was adjudicated twice, no
//     order version stored twice;
//   - the store passes bbolt's check.
//
// The CI mode plays one game of four waves of mail on the real Dovecot and
// OpenSMTPD, in a few dozen seconds. UMPIRE_PROPERTY_ROUNDS=N plays N
// games, on the embedded and the real servers in turn, with eight waves
// each; UMPIRE_PROPERTY_SEED repeats a run.
func TestPropertyHostileMix(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("kill -9 runs take half a minute")
	}
	bin := daemontest.UmpireBinary(t)
	rounds, waves := 1, 4
	if s := os.Getenv("UMPIRE_PROPERTY_ROUNDS"); s != "" {
		rounds, _ = strconv.Atoi(s)
		waves = 8
	}
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("UMPIRE_PROPERTY_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("seed %d (UMPIRE_PROPERTY_SEED=%d repeats it)", seed, seed)
	rng := rand.New(rand.NewPCG(seed, 2))
	for r := range rounds {
		mk := mailtest.Real
		if rounds > 1 && r%2 == 0 {
			mk = mailtest.Embedded
		}
		t.Run(fmt.Sprintf("round%02d", r), func(t *testing.T) { hostileMix(t, bin, mk(t), waves, rng) })
		if t.Failed() {
			return
		}
	}
}

// mixTable is the judge, its players and the mail sent so far.
type mixTable struct {
	t       *testing.T
	st      mailtest.Stack
	gpg     *signtest.GPG
	ssh     *signtest.SSH
	gm      string // fingerprints
	alice   string
	mallory string
	bob     signtest.SSHKey
	rng     *rand.Rand
	n       int
	signed  [][]byte // every signed mail sent, for replays
}

func (m *mixTable) id() string {
	m.n++
	return fmt.Sprintf("<mix-%d-%d@players.test>", m.n, m.rng.Uint32())
}

// mail is a plain text mail.
func (m *mixTable) mail(from, subject, body string) []byte {
	return []byte(fmt.Sprintf("From: %s\r\nTo: %s\r\nMessage-ID: %s\r\nSubject: %s\r\nDate: %s\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s",
		from, daemontest.JudgeAddress, m.id(), subject, time.Now().Format(time.RFC1123Z), daemontest.CRLF(body)))
}

// clearsigned is text clear-signed by an OpenPGP key.
func (m *mixTable) clearsigned(from, fpr, text string) []byte {
	raw := m.mail(from, "umpire", string(m.gpg.ClearSign(fpr, []byte(text))))
	m.signed = append(m.signed, raw)
	return raw
}

// sshMail is bob's mail: the text attached with its SSH signature.
func (m *mixTable) sshMail(text string) []byte {
	sig := m.ssh.Sign(m.bob, "umpire", []byte(text))
	var b strings.Builder
	fmt.Fprintf(&b, "From: bob@players.test\r\nTo: %s\r\nMessage-ID: %s\r\nSubject: orders\r\nMIME-Version: 1.0\r\n", daemontest.JudgeAddress, m.id())
	b.WriteString("Content-Type: multipart/mixed; boundary=\"XyZ\"\r\n\r\n--XyZ\r\nContent-Type: text/plain\r\n\r\nOrders attached.\r\n")
	b.WriteString("--XyZ\r\nContent-Type: text/plain; name=orders.txt\r\nContent-Disposition: attachment; filename=orders.txt\r\nContent-Transfer-Encoding: base64\r\n\r\n")
	b.WriteString(base64Lines([]byte(text)))
	b.WriteString("--XyZ\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=orders.txt.sig\r\n\r\n")
	b.WriteString(daemontest.CRLF(string(sig)))
	b.WriteString("--XyZ--\r\n")
	raw := []byte(b.String())
	m.signed = append(m.signed, raw)
	return raw
}

// wave is the mail of one wave, for step k (the one open when it is
// made), in random order: the senders' names are for the envelope only.
func (m *mixTable) wave(k int) (mails [][]byte, from []string) {
	add := func(who string, raw []byte) { mails, from = append(mails, raw), append(from, who) }
	orders := func(seat string, v int) string {
		return fmt.Sprintf("game: club-1\nstep: %d\nseat: %s\n# version %d of wave %d\nroll %d\nend\n", k, seat, v, k, 1+m.rng.IntN(3))
	}
	for v := range 1 + m.rng.IntN(2) {
		add("alice", m.clearsigned("alice@players.test", m.alice, orders("A", v)))
	}
	if m.rng.IntN(4) > 0 {
		add("bob", m.sshMail(orders("B", 0)))
	}
	if m.rng.IntN(2) == 0 {
		add("grace", m.clearsigned("grace@players.test", m.gm, fmt.Sprintf("process club-1 %d\n", k)))
	}
	// Replays of signed mail sent before, under new Message-IDs.
	for range 1 + m.rng.IntN(3) {
		old := m.signed[m.rng.IntN(len(m.signed))]
		add("replay", []byte(strings.Replace(string(old), "Message-ID: <mix-", "Message-ID: <replay-"+strconv.Itoa(m.rng.IntN(1e6))+"-", 1)))
	}
	// A forgery: alice's signed orders with a line changed after signing.
	body := string(m.gpg.ClearSign(m.alice, []byte(orders("A", 9))))
	add("forged", m.mail("alice@players.test", "orders", strings.Replace(body, "# version 9", "# version 8", 1)))
	add("unknown", m.mail("mallory@players.test", "orders", string(m.gpg.ClearSign(m.mallory, []byte(orders("A", 7))))))
	add("unsigned", m.mail("alice@players.test", "orders", orders("A", 6)))
	add("broken", []byte("From: carol@players.test\r\nMessage-ID: "+m.id()+"\r\nContent-Type: multipart/mixed\r\n\r\n--x\r\nnot a part\r\n"))
	for range m.rng.IntN(4) {
		add("spam", m.mail("grace@players.test", "help", "help\n"))
	}
	m.rng.Shuffle(len(mails), func(i, j int) { mails[i], mails[j] = mails[j], mails[i]; from[i], from[j] = from[j], from[i] })
	return mails, from
}

func hostileMix(t *testing.T, bin string, st mailtest.Stack, waves int, rng *rand.Rand) {
	dir := shortTempDir(t)
	m := &mixTable{t: t, st: st, gpg: signtest.NewGPG(t), ssh: signtest.NewSSH(t), rng: rng}
	st.AddUser(t, daemontest.JudgeAddress, daemontest.JudgePassword)
	for _, who := range []string{"grace", "alice", "bob", "mallory", "carol"} {
		st.AddUser(t, who+"@players.test", "pw")
	}
	m.gm = m.gpg.GenKey("Grace <grace@players.test>")
	m.alice = m.gpg.GenKey("Alice <alice@players.test>")
	m.mallory = m.gpg.GenKey("Mallory <mallory@players.test>")
	m.bob = m.ssh.GenKey("bob", "ed25519")

	// The game, created and started in the store: grace is its game
	// master, alice holds A, bob B.
	dbPath := filepath.Join(dir, "umpire.db")
	db, err := store.Open(dbPath, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	j := &adjudicator.Judge{Games: games()}
	err = db.Update(t.Context(), func(tx *store.Tx) error {
		for who, fpr := range map[string]string{"grace": m.gm, "alice": m.alice} {
			k, err := signature.ParseKey(m.gpg.Export(fpr))
			if err != nil {
				return err
			}
			if err := tx.PutKey(store.Key{Fingerprint: k.Fingerprint, Kind: "openpgp", Public: k.Public, Address: who + "@players.test", Added: now}); err != nil {
				return err
			}
		}
		if err := tx.PutKey(store.Key{Fingerprint: m.bob.Fingerprint, Kind: "ssh", Public: m.bob.Public, Address: "bob@players.test", Added: now}); err != nil {
			return err
		}
		file := fmt.Sprintf("id = \"club-1\"\ngame = \"fake\"\nscenario = \"duel\"\ngm = %q\n[options]\nturns = \"%d\"\n[schedule]\nevery = \"72h\"\n", m.gm, waves+2)
		f, err := adjudicator.ParseGameFile([]byte(file), j.Games)
		if err != nil {
			return err
		}
		jt := tx.Judge(daemontest.JudgeAddress, now)
		if err := j.Create(jt, f, []byte(file), now); err != nil {
			return err
		}
		if err := j.Join(jt, "club-1", "A", m.alice); err != nil {
			return err
		}
		if err := j.Join(jt, "club-1", "B", m.bob.Fingerprint); err != nil {
			return err
		}
		return j.Start(jt, "club-1", now)
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	start, cfg, logf := killableJudge(t, bin, dir, dbPath, st, "retry = \"200ms\"\n")
	inboxEmpty := func() bool {
		return len(st.Mailbox(t, daemontest.JudgeAddress, daemontest.JudgePassword, "INBOX")) == 0
	}

	// step is the step open for orders, as the store says between waves.
	step := func() int {
		s, err := store.Open(dbPath, store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		var g store.Game
		if err := s.View(t.Context(), func(tx *store.Tx) (err error) { g, err = tx.Game("club-1"); return err }); err != nil {
			t.Fatal(err)
		}
		return int(g.Step)
	}
	kills, sent := 0, 0
	for range waves {
		mails, from := m.wave(step())
		for i, raw := range mails {
			st.Submit(t, from[i]+"@players.test", []string{daemontest.JudgeAddress}, raw)
		}
		sent += len(mails)
		// Killed at random while it works through the wave, then left to
		// finish it.
		for range 1 + rng.IntN(3) {
			cmd := start()
			time.Sleep(time.Duration(50+rng.IntN(600)) * time.Millisecond)
			cmd.Process.Signal(syscall.SIGKILL)
			cmd.Wait()
			kills++
		}
		cmd := start()
		for deadline := time.Now().Add(30 * time.Second); !inboxEmpty() && time.Now().Before(deadline); {
			time.Sleep(100 * time.Millisecond)
		}
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		kills++
	}
	// A last judge sends what is queued, and stops.
	cmd := start()
	time.Sleep(2 * time.Second)
	cmd.Process.Signal(syscall.SIGTERM)
	cmd.Wait()
	if code, out, errOut := runWith(t, func(mm *Main) { mm.Now = time.Now }, "serve", "--once", "--config", cfg); code != exitOK {
		t.Fatalf("serve --once: exit %d: %s%s", code, out, errOut)
	}
	logf.Seek(0, io.SeekStart)
	logText, _ := io.ReadAll(logf)
	defer func() {
		if t.Failed() {
			t.Logf("after %d kills; daemon log:\n%s", kills, daemontest.Tail(string(logText), 60))
		}
	}()

	// Nothing left unhandled.
	inbox := st.Mailbox(t, daemontest.JudgeAddress, daemontest.JudgePassword, "INBOX")
	processed := st.Mailbox(t, daemontest.JudgeAddress, daemontest.JudgePassword, "processed")
	rejected := st.Mailbox(t, daemontest.JudgeAddress, daemontest.JudgePassword, "rejected")
	if len(inbox) != 0 || len(distinct(append(processed, rejected...), "Message-ID")) != sent {
		t.Errorf("INBOX %d, processed %d, rejected %d (distinct %d); want 0 and all %d handled", len(inbox), len(processed), len(rejected),
			len(distinct(append(processed, rejected...), "Message-ID")), sent)
	}

	// What the store says happened.
	s, err := store.Open(dbPath, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Check(); err != nil {
		t.Errorf("store check: %v", err)
	}
	var accepted []store.OrderFile
	var closed []uint64
	sentMails := 0
	err = s.View(t.Context(), func(tx *store.Tx) error {
		steps, err := tx.Steps("club-1")
		if err != nil {
			return err
		}
		for _, st := range steps {
			if st.Status == "closed" {
				closed = append(closed, st.Number)
			}
			for _, seat := range []string{"A", "B"} {
				vs, err := tx.OrderVersions("club-1", st.Number, seat)
				if err != nil {
					return err
				}
				digests := map[string]bool{}
				for _, v := range vs {
					if digests[v.Digest.String()] {
						t.Errorf("step %d seat %s: the same order file stored twice (version %d)", st.Number, seat, v.Version)
					}
					digests[v.Digest.String()] = true
				}
				accepted = append(accepted, vs...)
			}
		}
		for id := uint64(1); ; id++ {
			mm, err := tx.Mail(id)
			if err != nil {
				break
			}
			if mm.State == store.MailSent {
				sentMails++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Wait for the MTA to deliver everything the judge sent.
	boxes := []string{"grace", "alice", "bob", "mallory", "carol"}
	mailboxes := map[string][][]byte{}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		total := 0
		for _, who := range boxes {
			mailboxes[who] = st.Mailbox(t, who+"@players.test", "pw", "INBOX")
			total += len(distinct(mailboxes[who], "Message-ID"))
		}
		if total >= sentMails || time.Now().After(deadline) {
			break
		}
	}

	// Every accepted order file has exactly one receipt.
	holder := map[string]string{"A": "alice", "B": "bob"}
	for _, o := range accepted {
		want := fmt.Sprintf("ACCEPTED: orders of seat %s for step %d of club-1, version %d.", o.Seat, o.Step, o.Version)
		ids := map[string]bool{}
		for _, raw := range mailboxes[holder[o.Seat]] {
			if daemontest.HeaderOf(raw, "In-Reply-To") == "<"+strings.Trim(o.MessageID, "<>")+">" && strings.Contains(readable(raw), want) {
				ids[daemontest.HeaderOf(raw, "Message-Id")+daemontest.HeaderOf(raw, "Message-ID")] = true
			}
		}
		if len(ids) != 1 {
			t.Errorf("order file %s step %d v%d (%s) has %d receipts, want 1", o.Seat, o.Step, o.Version, o.MessageID, len(ids))
		}
	}
	// Every adjudicated step's report reached every seat and the game
	// master, once.
	for _, k := range closed {
		for _, who := range []string{"grace", "alice", "bob"} {
			ids := map[string]bool{}
			for _, raw := range mailboxes[who] {
				if strings.Contains(readable(raw), fmt.Sprintf("club-1: step %d report", k)) {
					ids[daemontest.HeaderOf(raw, "Message-Id")+daemontest.HeaderOf(raw, "Message-ID")] = true
				}
			}
			if len(ids) != 1 {
				t.Errorf("%s has %d reports of step %d, want 1", who, len(ids), k)
			}
		}
	}
	if len(closed) == 0 {
		t.Errorf("no step was adjudicated in %d waves", waves)
	}
	t.Logf("%d mails in %d waves, %d kills: %d order files accepted, %d steps adjudicated, %d mails sent by the judge",
		sent, waves, kills, len(accepted), len(closed), sentMails)
}
