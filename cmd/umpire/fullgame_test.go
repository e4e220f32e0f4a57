//go:build integration

package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	"github.com/umpire-pbem/umpire/cmd/umpire/demo"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/mail/message"
	"github.com/umpire-pbem/umpire/mail/signature/signtest"
	"github.com/umpire-pbem/umpire/store"
)

// TestFullGameByRealMail is the newcomer test: it plays a whole game of
// every hosted game by mail through the real Dovecot and OpenSMTPD, each
// seat held by a player who knows nothing but the mail it receives. A game
// master creates the game with the scenario and options of the game's
// testdata/fullgame.toml; a player a seat joins (signing with OpenPGP and
// SSH in turn); at every step each player that was mailed a pre-filled
// order file for it (its briefing, or the report that opened the step)
// keeps at random one line under each heading of the file, or none, signs
// the file and sends it, and every receipt must accept it without a
// problem: no refusal for want of what the mail said. The game must end
// (after at least min_steps steps); then `umpire replay` re-runs the
// exported game and `umpire verify` checks its dice log. It reports the
// order mails each seat sent in each game turn. A game's
// max_order_mails_per_turn (fullgame.toml) holds its bots' play: a
// newcomer who keeps "ask" standing orders at random chooses more decision
// steps, and so more mails, of its own will (1995's design aim is also
// checked by its bots in the game's own TestBotPlaysWholeGames).
func TestFullGameByRealMail(t *testing.T) {
	t.Parallel()
	reg := games()
	for _, kind := range slices.Sorted(maps.Keys(reg)) {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			dir := gameDir(t, reg[kind])
			fg, err := readFullGame(repoRoot, dir)
			if err != nil {
				t.Fatalf("%v (TestEveryGameIsComplete says what a hosted game needs)", err)
			}
			playFullGame(t, kind, fg.Scenario, fg.gameFileOptions(), fg.MinSteps, fg.MaxMails, true)
		})
	}
}

// fullGameResult is what a full game by mail leaves for a game's own
// checks: the folder of every mail each player received (saveMail's files,
// one folder a seat and gm/), the exported game and the dice log's file.
type fullGameResult struct {
	MailDir, LogPath string
	Export           *adjudicator.GameExport
	// Mail and Players keep the game's mail going after its end.
	Mail    *demo.Table
	Players []*demo.Player
}

// playFullGame plays a game to its end by real mail (maxMails > 0: at most
// so many order mails a seat a game turn), its players newcomers who
// answer the order files they are mailed (newcomer) or the game's bots;
// after, when given, is called after each step's round of mail with the
// step just played.
func playFullGame(t *testing.T, kind, scenario, options string, minSteps, maxMails int, newcomer bool, after ...func(tb *demo.Table, step uint64, players []*demo.Player)) fullGameResult {
	st := mailtest.Real(t)
	reg := games()
	game := struct {
		kind, scenario, options string
		minSteps                int
	}{kind, scenario, options, minSteps}
	rules, err := reg.Get(game.kind)
	if err != nil {
		t.Fatal(err)
	}
	seats, err := rules.Seats(game.scenario)
	if err != nil || len(seats) < 2 {
		t.Fatalf("seats of %s/%s: %v %v", game.kind, game.scenario, seats, err)
	}
	dir := t.TempDir()
	cfg := daemon.DefaultConfig()
	cfg.Games = games()
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg.Store, cfg.Address = filepath.Join(dir, "umpire.db"), daemontest.JudgeAddress
	cfg.IMAP.Address, cfg.IMAP.Security, cfg.IMAP.Username, cfg.IMAP.Password = st.IMAPAddr(), "none", daemontest.JudgeAddress, daemontest.JudgePassword
	cfg.SMTP.Address, cfg.SMTP.Security = st.SMTPAddr(), "none"
	cfg.Limits.RepliesPerHour = 1000
	cfg.NewRoot = pinnedDice(t)
	st.AddUser(t, daemontest.JudgeAddress, daemontest.JudgePassword)
	db, err := store.Open(cfg.Store, store.Options{Host: "umpire.test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	d, err := daemon.New(t.Context(), cfg, db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	// the players sign with the real gpg and ssh-keygen
	g, sk := signtest.NewGPG(t), signtest.NewSSH(t)
	gpgPlayer := func(name, addr string) *demo.Player {
		fpr := g.GenKey(name + " <" + addr + ">")
		return &demo.Player{Name: name, Addr: addr, Public: g.Export(fpr),
			ClearSign: func(text []byte) ([]byte, error) { return g.ClearSign(fpr, text), nil }}
	}
	sshPlayer := func(name, addr string) *demo.Player {
		key := sk.GenKey(name, "ed25519")
		return &demo.Player{Name: name, Addr: addr, Public: key.Public,
			SSHSign: func(content []byte) ([]byte, error) { return sk.Sign(key, "umpire", content), nil }}
	}
	// one player a seat, signing with gpg and ssh-keygen in turn
	gm := gpgPlayer("Grace", "gm@players.test")
	var players []*demo.Player
	for i, seat := range seats {
		name := []string{"Olga", "Sam", "Ivo", "Mira", "Ana", "Luka"}[i%6] + strconv.Itoa(i/6+1)
		addr := strings.ToLower(name) + "@players.test"
		p := gpgPlayer(name, addr)
		if i%2 == 1 {
			p = sshPlayer(strings.ToLower(name), addr)
		}
		p.Seat = seat
		players = append(players, p)
	}
	everyone := append([]*demo.Player{gm}, players...)
	for _, p := range everyone {
		st.AddUser(t, p.Addr, "pw")
	}
	judgeSeen := 0
	tb := &demo.Table{Now: time.Now, DB: db, Judge: d, Address: daemontest.JudgeAddress, Out: filepath.Join(dir, "mail"),
		Submit: func(ctx context.Context, from string, raw []byte) error {
			// wait until the MTA has delivered it, so the judge's pass sees it
			judgeSeen = len(st.Mailbox(t, daemontest.JudgeAddress, daemontest.JudgePassword, "INBOX"))
			st.Submit(t, from, []string{daemontest.JudgeAddress}, raw)
			st.WaitFor(t, daemontest.JudgeAddress, daemontest.JudgePassword, "INBOX", judgeSeen+1, 30*time.Second)
			return nil
		},
		Fetch: func(ctx context.Context, addr string) ([][]byte, error) {
			// wait for every mail the judge has sent to addr
			want := sentTo(t, db, addr)
			return st.WaitFor(t, addr, "pw", "INBOX", want, 30*time.Second), nil
		}}
	ctx := t.Context()
	id := "full-1"
	if err := tb.Send(ctx, gm, "create", fmt.Sprintf("create\nid = %q\ngame = %q\nscenario = %q\n%s[schedule]\nevery = \"72h\"\n", id, game.kind, game.scenario, game.options)); err != nil {
		t.Fatal(err)
	}
	mustRound(t, tb, everyone)
	for _, p := range players {
		if err := tb.Send(ctx, p, "join", fmt.Sprintf("join %s %s\n", id, p.Seat)); err != nil {
			t.Fatal(err)
		}
	}
	mustRound(t, tb, everyone)
	if err := tb.Send(ctx, gm, "start", "start "+id+"\n"); err != nil {
		t.Fatal(err)
	}
	mustRound(t, tb, everyone)
	bot := rules.(adjudicator.Bot)
	answered := map[*demo.Player]uint64{}
	rng := rand.New(rand.NewPCG(uint64(len(kind)), 7))
	steps := 0
	// mails counts each seat's order mails in each game turn (the step's
	// phase names its turn: "turn 3: ...").
	mails := map[int]map[string]int{}
	for ; steps < 400; steps++ {
		step, over, err := tb.State(ctx, id)
		if errors.Is(err, adjudicator.ErrNotFound) || over {
			break
		}
		if err != nil {
			t.Fatalf("after %d steps: %v", steps, err)
		}
		var sent []*demo.Player
		for _, p := range players {
			var text string
			if newcomer {
				// the player knows only its mail: the newest order file
				// it was sent, if it has not answered it yet
				form, k := newestForm(t, p)
				if form == "" || k <= answered[p] {
					continue
				}
				answered[p] = k
				text = keepLines(form, rng)
			} else {
				if !slices.Contains(step.Owing, p.Seat) {
					continue
				}
				lines, err := bot.Bot(step.State, p.Seat)
				if err != nil {
					t.Fatal(err)
				}
				text = fmt.Sprintf("game: %s\nstep: %d\nseat: %s\n%s\nend\n", id, step.Number, p.Seat, strings.Join(lines, "\n"))
			}
			sent = append(sent, p)
			turn := 0
			if m := turnOf.FindStringSubmatch(step.Phase); m != nil {
				turn, _ = strconv.Atoi(m[1])
			}
			if mails[turn] == nil {
				mails[turn] = map[string]int{}
			}
			mails[turn][p.Seat]++
			if err := tb.Send(ctx, p, "orders", text); err != nil {
				t.Fatal(err)
			}
		}
		if len(sent) == 0 {
			t.Fatalf("step %d (%s): no player was mailed an order file for it; owing %v", step.Number, step.Phase, step.Owing)
		}
		got := mustRound(t, tb, everyone)
		for _, p := range sent {
			if !anyContains(got[p], "ACCEPTED") || anyContains(got[p], "\nProblems:") {
				t.Fatalf("step %d: %s's orders were not accepted without a problem:\n%s", step.Number, p.Seat, strings.Join(texts(got[p]), "\n----\n"))
			}
		}
		for _, f := range after {
			f(tb, step.Number, players)
		}
	}
	_, over, err := tb.State(ctx, id)
	if err != nil || !over {
		t.Fatalf("the game did not end after %d steps: %v", steps, err)
	}
	if steps < game.minSteps {
		t.Errorf("the game ended after %d steps, want at least %d", steps, game.minSteps)
	}
	// every seat and the GM got a report of every step
	for _, p := range everyone {
		reports := 0
		for _, raw := range p.Received {
			if strings.Contains(string(raw), "report") && strings.Contains(string(raw), "image/png") {
				reports++
			}
		}
		if reports < steps {
			t.Errorf("%s received %d reports with a picture for %d steps", p.Addr, reports, steps)
		}
	}
	// for every step, each seat's receipt was sent before its report (the
	// MTA may deliver two mails out of order, so the judge's sending order
	// is checked), and each joiner had one mail about its seat
	for _, p := range everyone {
		mails := readReceived(t, st.Mailbox(t, p.Addr, "pw", "INBOX"))
		checkMailOrder(t, p.Addr, mails, false)
		if p.Seat != "" {
			checkOneJoinMail(t, p.Addr, p.Seat, mails)
		}
	}
	// the reports' text parts keep to 72 columns
	reports, _ := filepath.Glob(filepath.Join(dir, "mail", "*", "*report.txt"))
	if len(reports) < steps {
		t.Errorf("%d report texts saved for %d steps", len(reports), steps)
	}
	for _, f := range reports {
		text, _ := os.ReadFile(f)
		for i, line := range strings.Split(strings.ReplaceAll(string(text), "\r\n", "\n"), "\n") {
			if n := utf8.RuneCountInString(line); n > 72 {
				t.Errorf("%s line %d is %d columns: %q", filepath.Base(f), i+1, n, line)
			}
		}
	}
	// fog of war: no seat's mail names what it may not see (the games that
	// say so: FogLeaks)
	if fog, ok := rules.(fogChecker); ok {
		checkFog(t, db, dir, id, gm, players, fog)
	}
	// replay and verify the exports
	var exp *adjudicator.GameExport
	if err := db.View(ctx, func(tx *store.Tx) (err error) {
		exp, err = (&adjudicator.Judge{Games: reg}).ExportGame(tx.Judge(daemontest.JudgeAddress, time.Now()), id)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	gamePath := filepath.Join(dir, "game.json")
	b, _ := json.Marshal(exp)
	os.WriteFile(gamePath, b, 0o644)
	if code, out, errOut := run(t, "replay", gamePath); code != exitOK {
		t.Errorf("replay: exit %d\n%s%s", code, out, errOut)
	}
	logPath := filepath.Join(dir, "log.json")
	var x bytes.Buffer
	db.View(ctx, func(tx *store.Tx) error {
		_, err := tx.WriteDiceLog(id, &x)
		return err
	})
	os.WriteFile(logPath, x.Bytes(), 0o644)
	if code, out, errOut := run(t, "verify", logPath); code != exitOK || !strings.Contains(out, "OK") {
		t.Errorf("verify: exit %d\n%s%s", code, out, errOut)
	}
	t.Logf("%s played %d steps by real mail (newcomers: %v)", game.kind, steps, newcomer)
	for _, turn := range slices.Sorted(maps.Keys(mails)) {
		var per []string
		for _, p := range players {
			n := mails[turn][p.Seat]
			per = append(per, fmt.Sprintf("%s %d", p.Seat, n))
			if maxMails > 0 && n > maxMails && !newcomer {
				t.Errorf("game turn %d: %s sent %d order mails, more than the %d the game's design aims at", turn, p.Seat, n, maxMails)
			}
		}
		t.Logf("%s game turn %d (0: before the first): order mails %s", game.kind, turn, strings.Join(per, ", "))
	}
	return fullGameResult{MailDir: filepath.Join(dir, "mail"), LogPath: logPath, Export: exp, Mail: tb, Players: players}
}

// pinnedDice draws a game's dice chain roots from a seed: a fresh one
// each run, so the long plays meet new positions, or UMPIRE_DICE_SEED's,
// to play a game a run met again. The seed is logged first, so a failure
// says how to see it again.
func pinnedDice(t *testing.T) func() (dice.Hash, error) {
	seed := rand.Uint64()
	if v := os.Getenv("UMPIRE_DICE_SEED"); v != "" {
		var err error
		if seed, err = strconv.ParseUint(v, 10, 64); err != nil {
			t.Fatalf("UMPIRE_DICE_SEED=%q: want a decimal number: %v", v, err)
		}
	}
	t.Logf("dice seed %d: UMPIRE_DICE_SEED=%d plays this game again with the same dice", seed, seed)
	n := uint64(0)
	return func() (dice.Hash, error) {
		n++
		return sha256.Sum256(binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(nil, seed), n)), nil
	}
}

// newestForm is the pre-filled order file attached to the newest mail p
// received that has one, and the step it is for (0: none).
func newestForm(t *testing.T, p *demo.Player) (string, uint64) {
	t.Helper()
	for i := len(p.Received) - 1; i >= 0; i-- {
		if !bytes.Contains(p.Received[i], []byte("-orders.txt")) {
			continue
		}
		m, err := message.Parse(p.Received[i], message.Limits{MaxMessage: 64 << 20, MaxAttachment: 32 << 20})
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range m.Attachments {
			if !strings.HasSuffix(a.Filename, "-orders.txt") {
				continue
			}
			header, _ := adjudicator.FormChoices(string(a.Data))
			for _, h := range header {
				if v, ok := strings.CutPrefix(h, "step: "); ok {
					k, _ := strconv.ParseUint(v, 10, 64)
					return string(a.Data), k
				}
			}
			t.Fatalf("%s's order file has no step line:\n%s", p.Seat, a.Data)
		}
	}
	return "", 0
}

// keepLines is the order file form as a newcomer fills it in: under each
// heading it keeps one line at random (three times in four), deleting its
// "# ", or none; a heading with needs only when it kept one of them; at
// least one line in all.
func keepLines(form string, rng *rand.Rand) string {
	_, choices := adjudicator.FormChoices(form)
	var keep, free []string
	for _, c := range choices {
		if len(c.Needs) > 0 && !slices.ContainsFunc(c.Needs, func(l string) bool { return slices.Contains(keep, l) }) {
			continue
		}
		if len(c.Needs) == 0 {
			free = append(free, c.Lines...)
		}
		if rng.IntN(4) > 0 {
			keep = append(keep, c.Lines[rng.IntN(len(c.Lines))])
		}
	}
	if len(keep) == 0 && len(free) > 0 {
		keep = append(keep, free[rng.IntN(len(free))])
	}
	lines := strings.Split(form, "\n")
	for _, k := range keep {
		for i, l := range lines {
			if l == adjudicator.FormMark+k {
				lines[i] = k
				break
			}
		}
	}
	return strings.Join(lines, "\n")
}

// fogChecker is implemented by games whose seats may not see everything
// (1914's fog of war): FogLeaks says what a text meant for a seat after a
// step shows that the seat may not see.
type fogChecker interface {
	FogLeaks(state []byte, seat, text string) ([]string, error)
}

var reportFileName = regexp.MustCompile(`-step-(\d+)-report\.(txt|html)$`)

// checkFog reads every report each seat received (text and HTML parts) and
// checks it against the state after its step; the game master's reports,
// which show everything, must fail the same check (the control).
func checkFog(t *testing.T, db *store.DB, dir, game string, gm *demo.Player, seats []*demo.Player, fog fogChecker) {
	t.Helper()
	checked, control := 0, 0
	for _, p := range append([]*demo.Player{gm}, seats...) {
		files, _ := filepath.Glob(filepath.Join(dir, "mail", p.Dir(), "*"))
		for _, f := range files {
			m := reportFileName.FindStringSubmatch(f)
			if m == nil {
				continue
			}
			k, _ := strconv.ParseUint(m[1], 10, 64)
			var state []byte
			db.View(t.Context(), func(tx *store.Tx) error {
				st, err := tx.Judge(daemontest.JudgeAddress, time.Now()).Step(game, k+1)
				state = st.State
				return err
			})
			text, _ := os.ReadFile(f)
			if p == gm {
				if found, _ := fog.FogLeaks(state, seats[0].Seat, string(text)); len(found) > 0 {
					control++
				}
				continue
			}
			found, err := fog.FogLeaks(state, p.Seat, string(text))
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range found {
				t.Errorf("%s's mail %s shows %s:\n%s", p.Seat, filepath.Base(f), l, linesNaming(strings.ReplaceAll(string(text), "\r\n", "\n"), leakWord(l)))
			}
			checked++
		}
	}
	if checked < 10 || control == 0 {
		t.Errorf("fog of war: %d report parts checked; the game master's would have leaked in %d", checked, control)
	}
	t.Logf("fog of war: %d report parts checked; the game master's would have leaked in %d", checked, control)
}

// leakWord is the word a fog leak names: the unit of "hidden unit X",
// the values of "the values of X: S".
func leakWord(leak string) string {
	if i := strings.LastIndex(leak, ": "); i >= 0 {
		return leak[i+2:]
	}
	return leak[strings.LastIndex(leak, " ")+1:]
}

// turnOf finds the game turn in a step's phase: "turn 3: ..." (WbT,
// 1995, B&U), "turn-3" (Per Rote, fake), "GT 5, ..." (1914).
var turnOf = regexp.MustCompile(`\b(?:turn[ -]|GT )(\d+)\b`)

func mustRound(t *testing.T, tb *demo.Table, ps []*demo.Player) map[*demo.Player][][]byte {
	t.Helper()
	got, err := tb.Round(t.Context(), ps...)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// sentTo counts the mails the judge has sent to addr.
func sentTo(t *testing.T, db *store.DB, addr string) int {
	n := 0
	db.View(t.Context(), func(tx *store.Tx) error {
		for id := uint64(1); ; id++ {
			m, err := tx.Mail(id)
			if err != nil {
				return nil
			}
			if m.State == store.MailSent && len(m.To) > 0 && m.To[0] == addr {
				n++
			}
		}
	})
	return n
}

func texts(raws [][]byte) []string {
	out := make([]string, len(raws))
	for i, r := range raws {
		out[i] = string(r)
	}
	return out
}

func anyContains(raws [][]byte, s string) bool {
	for _, r := range raws {
		if strings.Contains(string(r), s) {
			return true
		}
	}
	return false
}

// gameFileOptions writes options as the lines of a game file.
func (fg fullGame) gameFileOptions() string {
	if len(fg.Options) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("[options]\n")
	for _, k := range slices.Sorted(maps.Keys(fg.Options)) {
		fmt.Fprintf(&b, "%s = %s\n", k, strconv.Quote(fg.Options[k]))
	}
	return b.String()
}
