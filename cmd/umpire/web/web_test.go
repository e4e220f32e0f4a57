package web

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"

	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/store"
)

// get asks the server's handler for target (a request line's target, as
// a client sends it) with method.
func get(t testing.TB, s *Server, method, target string) *httptest.ResponseRecorder {
	t.Helper()
	req, err := http.ReadRequest(bufio.NewReader(strings.NewReader(method + " " + target + " HTTP/1.1\r\nHost: judge.test\r\n\r\n")))
	if err != nil {
		t.Fatalf("%s %s: %v", method, target, err)
	}
	req.RemoteAddr = "192.0.2.1:1234"
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, req)
	return rec
}

// secrets are what a game in progress holds that no public page may
// show.
type secrets struct {
	texts  []string // strings that must appear nowhere
	sealed map[string]map[uint64]bool
}

// playedWorld is a store with a Per Rote game and a fake game (hidden
// cards) in progress: steps adjudicated, and orders sent for the open step
// that is not adjudicated yet.
func playedWorld(t testing.TB) (*world, secrets) {
	w := newWorld(t)
	sec := secrets{sealed: map[string]map[uint64]bool{}}
	// orders from every seat owing close the step at once; one seat's
	// leave it open.
	w.create(perRoteGame)
	for range 2 {
		w.bot("pr-1", "Russia")
		w.bot("pr-1", "USA")
	}
	text, digest := w.orders("pr-1", "Russia", "# plan-lynx-99", "R1 move 0707")
	sec.texts = append(sec.texts, "plan-lynx-99", digest.String(), text)

	w.create(fakeGame)
	w.orders("fk-1", "A", "secret", "secret", "roll 1")
	w.orders("fk-1", "B", "secret", "roll 2")
	w.orders("fk-1", "A", "secret", "roll 1")
	w.process("fk-1") // B sent none: it passes
	_, da := w.orders("fk-1", "A", "# plan-zebra-42", "secret", "move A1 0404")
	sec.texts = append(sec.texts, "plan-zebra-42", "move A1 0404", "A1 0404", da.String())

	// what each seat alone was told, the hands, the dice secrets and the
	// keys' material.
	err := w.db.View(context.Background(), func(stx *store.Tx) error {
		tx := stx.Judge(judgeFrom, w.now)
		for _, game := range []string{"pr-1", "fk-1"} {
			g, err := tx.Game(game)
			if err != nil {
				return err
			}
			seats, err := tx.Seats(game)
			if err != nil {
				return err
			}
			for k := uint64(1); k < g.Step; k++ {
				public, err := w.j.BuildReport(tx, game, k, adjudicator.Spectator)
				if err != nil {
					return err
				}
				seen := map[string]bool{}
				for _, e := range public.Events {
					seen[e.Text] = true
				}
				for _, seat := range append(seats, adjudicator.Seat{}) {
					r, err := w.j.BuildReport(tx, game, k, seat.Name)
					if err != nil {
						return err
					}
					for _, e := range r.Events {
						if !seen[e.Text] {
							sec.texts = append(sec.texts, e.Text)
						}
					}
					for _, h := range r.Hand {
						sec.texts = append(sec.texts, "Hand: "+h, h+",", seat.Name+": "+h)
					}
					for _, key := range r.Keys {
						sec.texts = append(sec.texts, key.Key)
					}
				}
				_, draws, err := tx.StepDice(game, k)
				if err != nil {
					return err
				}
				for _, d := range draws {
					if d.Draw.Sealed() {
						if sec.sealed[game] == nil {
							sec.sealed[game] = map[uint64]bool{}
						}
						sec.sealed[game][d.Draw.Seq] = true
					}
				}
			}
			ds, err := tx.DiceSecrets(game)
			if err != nil {
				return err
			}
			sec.texts = append(sec.texts, ds.OpenRoot.String(), ds.SealedRoot.String())
			for k := uint64(1); k <= g.Step; k++ {
				for _, n := range ds.Streams {
					sec.texts = append(sec.texts, dice.StreamKey(ds.SealedRoot, k, n).String())
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sec.texts = append(sec.texts, "@players.test", "@umpire.test", "AAAAC3NzaC1lZDI1NTE5", "PublicKeyMaterial")
	return w, sec
}

var linkRE = regexp.MustCompile(`(?:href|src|data-log)="([^"]+)"`)

// crawl fetches every page and file the site links from its front page,
// every API answer and the logs, and returns them by path.
func crawl(t *testing.T, s *Server) map[string]*httptest.ResponseRecorder {
	t.Helper()
	seen := map[string]*httptest.ResponseRecorder{}
	queue := []string{"/", "/api/games", "/verify"}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if _, ok := seen[p]; ok || !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") {
			continue
		}
		rec := get(t, s, "GET", p)
		seen[p] = rec
		if rec.Code != http.StatusOK {
			t.Errorf("GET %s: %d", p, rec.Code)
			continue
		}
		body := rec.Body.String()
		for _, m := range linkRE.FindAllStringSubmatch(body, -1) {
			queue = append(queue, strings.ReplaceAll(m[1], "&amp;", "&"))
		}
		if strings.HasPrefix(p, "/api/") {
			var v any
			if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
				t.Errorf("GET %s: not JSON: %v", p, err)
			}
			for _, m := range regexp.MustCompile(`"(?:url|map_url|log_url|verify_url)": "([^"]+)"`).FindAllStringSubmatch(body, -1) {
				queue = append(queue, m[1])
				if strings.HasPrefix(m[1], "/games/") && !strings.Contains(m[1], ".") && !strings.HasSuffix(m[1], "verify") {
					queue = append(queue, "/api"+strings.TrimSuffix(m[1], "/"))
				}
			}
		}
	}
	return seen
}

// TestNothingPrivateIsServed crawls every page, file and API answer of a
// judge with a Per Rote game and a fake game with hidden cards in progress:
// none holds a hand card, what one seat alone was told, a sealed value, an
// order not yet adjudicated (its text or digest), a mail address, a dice
// secret or a key's material.
func TestNothingPrivateIsServed(t *testing.T) {
	w, sec := playedWorld(t)
	s := w.server(nil)
	pages := crawl(t, s)
	for _, want := range []string{"/games/pr-1/", "/games/fk-1/", "/games/fk-1/steps/2", "/api/games/fk-1/steps/1", "/games/fk-1/log.json",
		"/games/pr-1/steps/2/map.svg", "/api/games/pr-1"} {
		if _, ok := pages[want]; !ok {
			t.Errorf("the crawl did not reach %s", want)
		}
	}
	if len(sec.sealed["fk-1"]) == 0 || len(sec.texts) < 20 {
		t.Fatalf("the fake game drew no hidden card (%d sealed draws, %d secrets)", len(sec.sealed["fk-1"]), len(sec.texts))
	}
	for p, rec := range pages {
		body := rec.Body.String()
		for _, x := range sec.texts {
			if x != "" && strings.Contains(body, x) {
				t.Errorf("%s shows %q", p, x)
			}
		}
	}
	// sealed draws: sealed and without values, in the step's JSON and in
	// the log.
	for game, seqs := range sec.sealed {
		for k := 1; k <= 2; k++ {
			rec := pages[fmt.Sprintf("/api/games/%s/steps/%d", game, k)]
			if rec == nil {
				continue
			}
			var st StepView
			if err := json.Unmarshal(rec.Body.Bytes(), &st); err != nil {
				t.Fatal(err)
			}
			for _, d := range st.Dice {
				if seqs[d.Seq] && (!d.Sealed || len(d.Values) > 0) {
					t.Errorf("%s step %d: sealed draw %d shows %v", game, k, d.Seq, d.Values)
				}
			}
		}
		log := pages["/games/"+game+"/log.json"].Body.String()
		for seq := range seqs {
			if !regexp.MustCompile(fmt.Sprintf(`"type": ?"draw", ?"seq": ?%d,[^}]*"values": ?null`, seq)).MatchString(log) {
				t.Errorf("%s's log shows the values of sealed draw %d", game, seq)
			}
		}
	}
}

// TestPublicLogIsTheMailedOne: the log the page offers is the export the
// mail command log GAME sends, byte for byte.
func TestPublicLogIsTheMailedOne(t *testing.T) {
	w, _ := playedWorld(t)
	s := w.server(nil)
	for _, game := range []string{"pr-1", "fk-1"} {
		var want strings.Builder
		err := w.db.View(context.Background(), func(tx *store.Tx) error {
			_, err := adjudicator.WritePublicLog(tx.Judge(judgeFrom, w.now), game, &want)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"/games/" + game + "/log.json", "/api/games/" + game + "/log"} {
			rec := get(t, s, "GET", p)
			if rec.Code != 200 || rec.Body.String() != want.String() {
				t.Errorf("%s: %d, %d bytes; the export is %d bytes", p, rec.Code, rec.Body.Len(), want.Len())
			}
			if cd := rec.Header().Get("Content-Disposition"); !strings.Contains(cd, game+"-log.json") {
				t.Errorf("%s: Content-Disposition %q", p, cd)
			}
		}
		res, err := dice.VerifyStream(strings.NewReader(want.String()), dice.VerifyOptions{})
		if err != nil || !res.OK() {
			t.Errorf("%s's public log does not verify: %v %v", game, err, res)
		}
	}
}

// TestHeadersAndNoInlineScript: every answer carries the security headers;
// the pages hold no inline script, handler or style, which the CSP would
// block anyway, so that they work with it.
func TestHeadersAndNoInlineScript(t *testing.T) {
	w, _ := playedWorld(t)
	s := w.server(nil)
	pages := crawl(t, s)
	pages["/nowhere"] = get(t, s, "GET", "/nowhere")
	pages["POST /"] = get(t, s, "POST", "/")
	scripts := regexp.MustCompile(`<script([^>]*)>([^<]*)</script>`)
	handlers := regexp.MustCompile(`\son[a-z]+="|\sstyle="|javascript:`)
	for p, rec := range pages {
		h := rec.Header()
		csp := h.Get("Content-Security-Policy")
		if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe") || !strings.Contains(csp, "default-src 'none'") {
			t.Errorf("%s: CSP %q", p, csp)
		}
		if h.Get("Referrer-Policy") != "no-referrer" || h.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: Referrer-Policy %q, X-Content-Type-Options %q", p, h.Get("Referrer-Policy"), h.Get("X-Content-Type-Options"))
		}
		if strings.HasPrefix(h.Get("Content-Type"), "text/html") {
			body := rec.Body.String()
			if m := handlers.FindString(body); m != "" {
				t.Errorf("%s holds an inline handler or style: %q", p, m)
			}
			if n := strings.Count(body, "<script"); n != len(scripts.FindAllString(body, -1)) {
				t.Errorf("%s: a script element the test cannot read", p)
			}
			for _, m := range scripts.FindAllStringSubmatch(body, -1) {
				if !strings.Contains(m[1], " src=") || strings.TrimSpace(m[2]) != "" {
					t.Errorf("%s holds an inline script: %q", p, m[0])
				}
			}
		}
	}
}

// TestOnlyGetAndHead: other methods, bodies and long addresses are refused
// with the status that says why.
func TestOnlyGetAndHead(t *testing.T) {
	w, _ := playedWorld(t)
	s := w.server(nil)
	for _, m := range []string{"POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "PROPFIND"} {
		rec := get(t, s, m, "/games/pr-1/")
		if rec.Code != http.StatusMethodNotAllowed || rec.Header().Get("Allow") != "GET, HEAD" {
			t.Errorf("%s: %d, Allow %q", m, rec.Code, rec.Header().Get("Allow"))
		}
	}
	if rec := get(t, s, "HEAD", "/games/pr-1/"); rec.Code != 200 {
		t.Errorf("HEAD: %d", rec.Code)
	}
	req := httptest.NewRequest("GET", "/", strings.NewReader("x=1"))
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, req)
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("GET with a body: %d", rec.Code)
	}
	if rec := get(t, s, "GET", "/games/pr-1/?q="+strings.Repeat("a", 5000)); rec.Code != http.StatusRequestURITooLong {
		t.Errorf("a 5000-byte query: %d", rec.Code)
	}
	if rec := get(t, s, "GET", "/api/nowhere"); rec.Code != 404 || !strings.Contains(rec.Header().Get("Content-Type"), "json") {
		t.Errorf("an unknown API path: %d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
}

// TestRateLimit: a client past its burst waits; another client does not.
func TestRateLimit(t *testing.T) {
	w := newWorld(t)
	now := w.now
	s, err := New(Config{DB: w.db, Judge: w.j, Rate: 2, Burst: 5, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	code := func(ip string) int {
		req := httptest.NewRequest("GET", "/healthz", nil)
		req.RemoteAddr = ip + ":5555"
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, req)
		return rec.Code
	}
	for i := range 5 {
		if c := code("198.51.100.7"); c != 200 {
			t.Fatalf("request %d within the burst: %d", i+1, c)
		}
	}
	if c := code("198.51.100.7"); c != http.StatusTooManyRequests {
		t.Errorf("past the burst: %d", c)
	}
	if c := code("198.51.100.8"); c != 200 {
		t.Errorf("another client: %d", c)
	}
	now = now.Add(time.Second)
	if c := code("198.51.100.7"); c != 200 {
		t.Errorf("a second later (2 a second): %d", c)
	}
}

// routeSeeds are addresses a prober tries: bad ids, steps out of range,
// traversal in every spelling, huge and odd queries.
var routeSeeds = []string{
	"/", "/games/", "/games/pr-1", "/games/pr-1/", "/games/PR-1/", "/games/pr-1/steps/0", "/games/pr-1/steps/-1",
	"/games/pr-1/steps/18446744073709551616", "/games/pr-1/steps/99999999", "/games/pr-1/steps/1x", "/games/pr-1/steps/3",
	"/games/pr-1/steps/2/map.svg", "/games/pr-1/steps/3/map.svg", "/games/fk-1/steps/99/map.svg", "/games/nope/map.svg",
	"/games/../../etc/passwd", "/games/%2e%2e/%2e%2e/etc/passwd", "/assets/../site.go", "/assets/%2e%2e/site.go",
	"/assets/vendor/../../site.go", "/assets/..%2fsite.go", "/assets/", "/assets/site.css?v=../../x", "/games/pr-1/log.json/..",
	"/api/games/pr-1/steps/", "/api/games/a%00b", "/games/a%00b/", "/games/%ff%fe/", "/games/" + strings.Repeat("a", 41) + "/",
	"/games/pr-1/?" + strings.Repeat("a=b&", 900), "/verify?x=%zz", "/api/games/fk-1/steps/2?%", "//games//pr-1//", "/.git/config",
	"/metrics/../healthz", "/games/pr-1/verify?head=" + strings.Repeat("f", 64), "/games/\u00e9/", "/games/pr-1/steps/2/map.svg/x",
}

// TestRoutesNever5xx asks for each seed and variations of it: the answer
// is never a server error.
func TestRoutesNever5xx(t *testing.T) {
	w, _ := playedWorld(t)
	s := w.server(nil)
	n := 0
	for _, seed := range routeSeeds {
		for _, v := range []string{seed, strings.ToUpper(seed), seed + "/", seed + "%", strings.ReplaceAll(seed, "/", "//"), seed + "?" + strings.Repeat("%41", 1500)} {
			for _, m := range []string{"GET", "HEAD", "POST"} {
				req, err := http.ReadRequest(bufio.NewReader(strings.NewReader(m + " " + v + " HTTP/1.1\r\nHost: judge.test\r\n\r\n")))
				if err != nil {
					continue // the server would answer 400 itself
				}
				req.RemoteAddr = "192.0.2.1:1"
				rec := httptest.NewRecorder()
				s.Handler().ServeHTTP(rec, req)
				n++
				if rec.Code >= 500 {
					t.Errorf("%s %s: %d %s", m, v, rec.Code, rec.Body.String())
				}
			}
		}
	}
	t.Logf("%d requests, none answered 5xx", n)
}

// FuzzRoutes: no request target makes the server fail (go test
// ./cmd/umpire/web -fuzz FuzzRoutes for the long run; the seeds run with
// every test run).
func FuzzRoutes(f *testing.F) {
	for _, s := range routeSeeds {
		f.Add("GET", s)
	}
	f.Add("HEAD", "/api/games")
	w, _ := playedWorld(f)
	s := w.server(nil)
	f.Fuzz(func(t *testing.T, method, target string) {
		req, err := http.ReadRequest(bufio.NewReader(strings.NewReader(method + " " + target + " HTTP/1.1\r\nHost: judge.test\r\n\r\n")))
		if err != nil {
			return
		}
		req.RemoteAddr = "192.0.2.1:1"
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Errorf("%q %q: %d", method, target, rec.Code)
		}
	})
}

type fakeOutbox struct {
	depth  int
	oldest time.Time
}

func (o fakeOutbox) Outbox(context.Context) (int, time.Time, error) { return o.depth, o.oldest, nil }

// TestMetrics: /metrics is the Prometheus text format with the judge's
// figures.
func TestMetrics(t *testing.T) {
	w := newWorld(t)
	m := NewMetrics(fakeOutbox{depth: 3, oldest: w.now.Add(-90 * time.Second)}, func() time.Time { return w.now }, nil)
	m.MailTaken("processed")
	m.MailTaken("processed")
	m.MailTaken("rejected")
	m.MailSent("receipt")
	m.MailSent("report")
	m.MailSent("report")
	m.Adjudicated(30 * time.Millisecond)
	m.Rendered("report", 80*time.Millisecond)
	m.VerifyFailed("signature")
	s := w.server(m)
	get(t, s, "GET", "/")
	rec := get(t, s, "GET", "/metrics")
	if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/plain") {
		t.Fatalf("/metrics: %d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
	body := rec.Body.String()
	for _, want := range []string{
		`umpire_mails_taken_total{disposition="processed"} 2`,
		`umpire_mails_taken_total{disposition="rejected"} 1`,
		`umpire_mails_sent_total{kind="receipt"} 1`,
		`umpire_mails_sent_total{kind="report"} 2`,
		`umpire_outbox_depth 3`,
		`umpire_outbox_oldest_age_seconds 90`,
		`umpire_steps_adjudicated_total 1`,
		`umpire_adjudication_duration_seconds_count 1`,
		`umpire_render_duration_seconds_count{what="report"} 1`,
		`umpire_render_duration_seconds_count{what="page"} 1`,
		`umpire_verify_failures_total{what="signature"} 1`,
		`umpire_http_requests_total{class="2xx"}`,
		"# TYPE umpire_mails_taken_total counter",
		"go_goroutines",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}

func TestHealthz(t *testing.T) {
	w := newWorld(t)
	s := w.server(nil)
	if rec := get(t, s, "GET", "/healthz"); rec.Code != 200 || rec.Body.String() != "ok\n" {
		t.Errorf("/healthz: %d %q", rec.Code, rec.Body.String())
	}
	w.db.Close()
	if rec := get(t, s, "GET", "/healthz"); rec.Code != http.StatusServiceUnavailable {
		t.Errorf("/healthz with the store closed: %d", rec.Code)
	}
}

// TestBaseURLPath: with a base URL that has a path, the pages live under
// it and link under it.
func TestBaseURLPath(t *testing.T) {
	w, _ := playedWorld(t)
	s, err := New(Config{DB: w.db, Judge: w.j, BaseURL: "https://example.org/umpire/", Rate: 1e6, Burst: 1e6})
	if err != nil {
		t.Fatal(err)
	}
	rec := get(t, s, "GET", "/umpire/games/pr-1/")
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `href="/umpire/games/pr-1/log.json"`) {
		t.Errorf("/umpire/games/pr-1/: %d", rec.Code)
	}
	if rec := get(t, s, "GET", "/games/pr-1/"); rec.Code != 404 {
		t.Errorf("outside the base path: %d", rec.Code)
	}
}

// TestGamePages: what the pages say of a game in progress: whose orders are
// due and who is ready, the map, the history, the dice.
func TestGamePages(t *testing.T) {
	w, _ := playedWorld(t)
	w.update(func(tx adjudicator.Tx) error { _, err := w.j.Ready(tx, "fk-1", "A", true); return err })
	s := w.server(nil)
	body := get(t, s, "GET", "/").Body.String()
	for _, want := range []string{`href="/games/pr-1/"`, `href="/games/fk-1/"`, "Per Rote", "Fake (a test game)", `<span class="ready">ready</span>`} {
		if !strings.Contains(body, want) {
			t.Errorf("the list of games lacks %q", want)
		}
	}
	body = get(t, s, "GET", "/games/fk-1/").Body.String()
	for _, want := range []string{"<svg", "Step 3", "orders are due from A, B", "umpire-dice-v3", `href="/games/fk-1/steps/2"`, "Score A", "A draws a hidden card"} {
		if !strings.Contains(body, want) {
			t.Errorf("fk-1's page lacks %q", want)
		}
	}
	body = get(t, s, "GET", "/games/fk-1/steps/1").Body.String()
	for _, want := range []string{"sealed until its key is public", "Order list", "A draws a hidden card", `rel="next"`} {
		if !strings.Contains(body, want) {
			t.Errorf("fk-1's step 1 lacks %q", want)
		}
	}
	var g GameView
	if err := json.Unmarshal(get(t, s, "GET", "/api/games/fk-1").Body.Bytes(), &g); err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(g.Seats, func(s SeatView) bool { return s.Name == "A" })
	if g.Step != 3 || len(g.Steps) != 3 || i < 0 || !g.Seats[i].Ready || !g.Seats[i].Owing || g.Dice.Head == "" {
		t.Errorf("fk-1's JSON: %+v", g)
	}
	if rec := get(t, s, "GET", "/games/fk-1/map.svg"); rec.Code != 200 || rec.Header().Get("Content-Type") != "image/svg+xml" {
		t.Errorf("map.svg: %d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
}

// gamePage60x40 is a store with War by Television on a 60x40 map after a
// step, and its server.
func gamePage60x40(t testing.TB) *Server {
	w := newWorld(t)
	w.create(wbtGame60x40(t))
	for _, seat := range []string{"NATO", "Serbia"} {
		w.bot("wbt-1", seat)
	}
	w.process("wbt-1")
	return w.server(nil)
}

// TestGamePage60x40Size: the game page of a 60x40 War by Television map,
// with its SVG inline, stays under 500 KB.
func TestGamePage60x40Size(t *testing.T) {
	s := gamePage60x40(t)
	rec := get(t, s, "GET", "/games/wbt-1/")
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "<svg") {
		t.Fatalf("the page: %d", rec.Code)
	}
	t.Logf("the game page of a 60x40 map: %d bytes", rec.Body.Len())
	if rec.Body.Len() > 500_000 {
		t.Errorf("the game page of a 60x40 map is %d bytes, over 500 KB", rec.Body.Len())
	}
}

// BenchmarkGamePage60x40 renders the game page of a 60x40 War by
// Television map server-side, SVG included: go test ./cmd/umpire/web -run
// XXX -bench GamePage.
func BenchmarkGamePage60x40(b *testing.B) {
	s := gamePage60x40(b)
	var n int
	for b.Loop() {
		rec := get(b, s, "GET", "/games/wbt-1/")
		if rec.Code != 200 {
			b.Fatal(rec.Code)
		}
		n = rec.Body.Len()
	}
	b.ReportMetric(float64(n), "page-bytes")
}

// TestUnlistedGames: a game whose file says unlisted = true is in no list
// of games, on the page or in the JSON, as the games answer by mail leaves
// it out; its own page is there for whoever knows its id.
func TestUnlistedGames(t *testing.T) {
	w := newWorld(t)
	w.create("id = \"open-1\"\ngame = \"fake\"\nscenario = \"duel\"\n[schedule]\nevery = \"48h\"\n")
	w.create("id = \"quiet-1\"\ngame = \"fake\"\nscenario = \"duel\"\nunlisted = true\n[schedule]\nevery = \"48h\"\n")
	s := w.server(nil)
	for _, path := range []string{"/", "/api/games"} {
		body := get(t, s, "GET", path).Body.String()
		if !strings.Contains(body, "open-1") || strings.Contains(body, "quiet-1") {
			t.Errorf("%s lists the unlisted game, or not the listed one:\n%s", path, body)
		}
	}
	if rec := get(t, s, "GET", "/games/quiet-1/"); rec.Code != 200 {
		t.Errorf("the unlisted game's page: %d", rec.Code)
	}
}
