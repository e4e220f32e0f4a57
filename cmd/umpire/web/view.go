package web

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"io"
	"slices"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/templates"
)

// The views are what a page and its JSON show: built only from what every
// seat may see. Fields are listed one by one (never a store record passed
// through), so that nothing private reaches a page by accident: no seat's
// hand, no sealed value before its key is public, no order file, no mail
// address, no key but its public fingerprint.

// GameSummary is a game as the list of games shows it.
type GameSummary struct {
	ID      string `json:"id"`
	Title   string `json:"title"` // the rules' title
	Rules   string `json:"rules"` // the rules' id: perrote, wbt...
	Status  string `json:"status"`
	Started bool   `json:"started"`
	Ended   bool   `json:"ended"`
	// Step is the step open for orders, Phase its phase and Deadline when
	// it closes; when the game has ended, the last step played (the judge's
	// "over after step N": the over record after it is no step), and its
	// phase.
	Step     uint64     `json:"step"`
	Phase    string     `json:"phase,omitempty"`
	Deadline time.Time  `json:"deadline,omitzero"`
	Owing    []string   `json:"owing,omitempty"`
	Seats    []SeatView `json:"seats"`
	URL      string     `json:"url"`
}

// SeatView is a seat: who holds it (the key's fingerprint) and where it
// stands in the open step. Never its orders.
type SeatView struct {
	Name string `json:"name"`
	Held bool   `json:"held"`
	// Key is the fingerprint of the holder's public key, or for a seat
	// held by a mail address (DKIM) adjudicator.PublicHolder's
	// "dkim:…@example.org", which gives no address away.
	Key string `json:"key,omitempty"`
	// DKIM is set when a mail address holds the seat, without a key.
	DKIM  bool `json:"dkim,omitempty"`
	Owing bool `json:"owing"` // orders are due from it in the open step
	Ready bool `json:"ready"` // it said it is ready
	// NoOrders is what no orders from it means in the open step.
	NoOrders string `json:"no_orders,omitempty"`
}

// GameView is a game's page.
type GameView struct {
	GameSummary
	Scenario string             `json:"scenario"`
	Notices  []string           `json:"notices,omitempty"`
	Tracks   []board.Track      `json:"tracks,omitempty"`
	Units    []adjudicator.Unit `json:"units,omitempty"`
	MapURL   string             `json:"map_url,omitempty"`
	Map      template.HTML      `json:"-"`
	Stacks   []StackView        `json:"-"` // the map's stacks, listed under it
	Steps    []StepLink         `json:"steps"`
	Latest   *StepView          `json:"-"`
	Dice     DiceView           `json:"dice"`
	picture  *board.Picture     // the map, for map.svg
}

// StepLink is one step of a game's history.
type StepLink struct {
	N       uint64    `json:"step"`
	Phase   string    `json:"phase"`
	Status  string    `json:"status"` // open, waiting, closed, rolled-back (the over record that ends a game is not listed)
	Closed  time.Time `json:"closed,omitzero"`
	Current bool      `json:"-"`
	URL     string    `json:"url"`
}

// DiceView says how a game's dice can be checked.
type DiceView struct {
	Scheme string `json:"scheme"`
	// Head is the log head after the last adjudicated step (as its
	// reports quote it).
	Head         string `json:"head,omitempty"`
	CommitOpen   string `json:"open_commitment,omitempty"`
	CommitSealed string `json:"sealed_commitment,omitempty"`
	Beacon       string `json:"beacon,omitempty"`
	LogURL       string `json:"log_url"`
	VerifyURL    string `json:"verify_url"`
}

// StepView is an adjudicated step as every seat sees it.
type StepView struct {
	N           uint64                    `json:"step"`
	Phase       string                    `json:"phase"`
	Status      string                    `json:"status"`
	Closed      time.Time                 `json:"closed,omitzero"`
	Adjudicated bool                      `json:"adjudicated"`
	Notices     []string                  `json:"notices,omitempty"`
	Events      []EventView               `json:"events"`
	Dice        []DieView                 `json:"dice"`
	OrderList   []adjudicator.ReportOrder `json:"order_list,omitempty"`
	// Orders are every seat's orders of the step, in seat order, in the
	// form the game publishes them, when its game file sets
	// publish_orders; OrdersNote says why a game with the setting shows
	// none (adjudicator.NotPublished).
	Orders     []OrdersView       `json:"orders,omitempty"`
	OrdersNote string             `json:"orders_note,omitempty"`
	OpenLink   string             `json:"open_link,omitempty"`
	Head       string             `json:"head,omitempty"`
	Beacon     string             `json:"beacon,omitempty"`
	Rollbacks  []string           `json:"rollbacks,omitempty"`
	Tracks     []board.Track      `json:"tracks,omitempty"`
	Units      []adjudicator.Unit `json:"units,omitempty"`
	MapURL     string             `json:"map_url,omitempty"`
	Map        template.HTML      `json:"-"`
	Stacks     []StackView        `json:"-"`
	picture    *board.Picture
}

// OrdersView is one seat's published orders of a step.
type OrdersView struct {
	Seat  string   `json:"seat"`
	Lines []string `json:"lines"`
}

// EventView is one public event of a step.
type EventView struct {
	Rule string `json:"rule,omitempty"`
	Text string `json:"text"`
	// Places and Units are what of the step's map the text names (hex
	// or space ids, unit ids): the page marks them when the line is
	// hovered.
	Places []string `json:"places,omitempty"`
	Units  []string `json:"units,omitempty"`
}

// DieView is one draw: its values, or none while it is sealed.
type DieView struct {
	Seq     uint64 `json:"seq"`
	Spec    string `json:"spec"`
	Stream  string `json:"stream,omitempty"`
	Values  []int  `json:"values"`
	Sealed  bool   `json:"sealed,omitempty"`
	Purpose string `json:"purpose"`
}

// errNoGame is a game id that names no game here.
var errNoGame = errors.New("no such game")

// validID reports whether id could be a game id (docs/game-file.md): 1 to
// 40 lowercase letters, digits and '-'. Anything else is not looked up.
func validID(id string) bool {
	if len(id) < 1 || len(id) > 40 {
		return false
	}
	for _, c := range []byte(id) {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

func (s *Server) jt(tx *store.Tx) adjudicator.Tx { return tx.Judge(s.cfg.From, s.now()) }

// summary is the list's view of g.
func (s *Server) summary(tx adjudicator.Tx, g adjudicator.Game) (GameSummary, []adjudicator.Seat, error) {
	sum := GameSummary{ID: g.ID, Rules: g.Kind, Status: g.Status, Step: g.Step, URL: s.root + "games/" + g.ID + "/",
		Started: g.Step > 0, Ended: g.Status == adjudicator.Ended, Title: g.Kind}
	if rules, err := s.cfg.Judge.Games.Get(g.Kind); err == nil {
		sum.Title = rules.Title()
	}
	seats, err := tx.Seats(g.ID)
	if err != nil {
		return sum, nil, err
	}
	var st adjudicator.StepRecord
	if sum.Ended && sum.Step > 0 {
		sum.Step-- // g.Step is the over record, one past the last step played
	}
	if sum.Step > 0 {
		if st, err = tx.Step(g.ID, sum.Step); err != nil && !errors.Is(err, store.ErrNotFound) {
			return sum, nil, err
		}
		sum.Phase = st.Phase
		if st.Status == adjudicator.StepOpen && g.Status == adjudicator.Running {
			sum.Deadline, sum.Owing = st.Deadline, st.Owing
		}
	}
	for _, seat := range seats {
		_, dkim := adjudicator.DKIMAddress(seat.Holder)
		v := SeatView{Name: seat.Name, Held: seat.Holder != "", Key: adjudicator.PublicHolder(seat.Holder), DKIM: dkim}
		if st.Status == adjudicator.StepOpen && g.Status == adjudicator.Running {
			v.Owing = slices.Contains(st.Owing, seat.Name)
			v.Ready = slices.Contains(st.Ready, seat.Name)
			if v.Owing {
				v.NoOrders = st.NoOrders[seat.Name]
			}
		}
		sum.Seats = append(sum.Seats, v)
	}
	return sum, seats, nil
}

func (s *Server) games(stx *store.Tx) ([]GameSummary, error) {
	tx := s.jt(stx)
	gs, err := tx.Games()
	if err != nil {
		return nil, err
	}
	out := make([]GameSummary, 0, len(gs))
	for _, g := range gs {
		if adjudicator.Unlisted(g) {
			continue // found by its id only, as by mail
		}
		sum, _, err := s.summary(tx, g)
		if err != nil {
			return nil, err
		}
		out = append(out, sum)
	}
	return out, nil
}

// game builds a game's view; withMap renders its map as SVG.
func (s *Server) game(stx *store.Tx, id string, withMap bool) (*GameView, error) {
	if !validID(id) {
		return nil, errNoGame
	}
	tx := s.jt(stx)
	g, err := tx.Game(id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errNoGame
	}
	if err != nil {
		return nil, err
	}
	sum, _, err := s.summary(tx, g)
	if err != nil {
		return nil, err
	}
	v := &GameView{GameSummary: sum, Scenario: g.Scenario}
	base := s.root + "games/" + id + "/"
	v.Dice = DiceView{LogURL: base + "log.json", VerifyURL: base + "verify"}
	if sec, err := tx.DiceSecrets(id); err == nil {
		v.Dice.CommitOpen, v.Dice.CommitSealed = sec.Open0.String(), sec.Sealed0.String()
		v.Dice.Scheme = sec.SchemeName()
		if sec.V2() {
			if sec.Beacon != nil {
				v.Dice.Beacon = sec.Beacon.Network()
				if v.Dice.Beacon == "" {
					v.Dice.Beacon = "a beacon of no known network"
				}
			}
		}
	} else if !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	steps, err := stx.Steps(id)
	if err != nil {
		return nil, err
	}
	var last uint64
	for _, st := range steps {
		if st.Status == adjudicator.StepOver {
			continue // the end of the game, told by the last step: no step of its own
		}
		v.Steps = append(v.Steps, StepLink{N: st.Number, Phase: st.Phase, Status: st.Status, Closed: st.Closed,
			URL: base + "steps/" + fmt.Sprint(st.Number)})
		if st.Status == adjudicator.StepClosed {
			last = st.Number
			if st.Dice != nil && !st.Dice.Head.IsZero() {
				v.Dice.Head = st.Dice.Head.String()
			}
		}
	}
	if v.Dice.Head == "" && v.Dice.Scheme == legacy.Hashed.Name() {
		if h, n, err := tx.DiceHead(id); err == nil && n > 0 {
			v.Dice.Head = h.String()
		}
	}
	if g.Step == 0 {
		return v, nil
	}
	rep, err := s.cfg.Judge.Snapshot(tx, id)
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", id, err)
	}
	private(rep)
	v.Notices, v.Tracks, v.Units, v.picture = rep.Notices, rep.Tracks, rep.Units, rep.Picture
	v.Stacks = stacksOf(rep.Picture)
	if rep.Picture != nil {
		v.MapURL = base + "map.svg"
		if withMap {
			if v.Map, err = s.svg(*rep.Picture); err != nil {
				return nil, err
			}
		}
	}
	if last > 0 {
		if v.Latest, err = s.step(stx, id, last, false); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// private drops from a public report anything a seat alone may see; the
// Spectator view has none of it already, and this makes sure. Orders stay
// only when they are the ones the game publishes (publish_orders).
func private(r *adjudicator.Report) {
	r.Hand, r.Keys, r.YourOrders = nil, nil, ""
	if !r.OrdersPublished {
		r.Orders = nil
	}
}

// step builds the view of step k of game id; withMap renders the map after
// it as SVG.
func (s *Server) step(stx *store.Tx, id string, k uint64, withMap bool) (*StepView, error) {
	tx := s.jt(stx)
	st, err := tx.Step(id, k)
	if errors.Is(err, store.ErrNotFound) || err == nil && st.Status == adjudicator.StepOver {
		return nil, errNoGame // the over record is the game's end, not a step
	}
	if err != nil {
		return nil, err
	}
	v := &StepView{N: k, Phase: st.Phase, Status: st.Status, Events: []EventView{}, Dice: []DieView{}}
	if st.Status != adjudicator.StepOpen {
		v.Closed = st.Closed
	}
	if st.Status != adjudicator.StepClosed {
		return v, nil
	}
	rep, err := s.cfg.Judge.BuildReport(tx, id, k, adjudicator.Spectator)
	if err != nil {
		return nil, fmt.Errorf("game %s step %d: %w", id, k, err)
	}
	private(rep)
	v.Adjudicated = true
	v.Notices, v.Tracks, v.Units, v.picture = rep.Notices, rep.Tracks, rep.Units, rep.Picture
	v.Stacks = stacksOf(rep.Picture)
	for _, e := range rep.Events {
		ev := EventView{Rule: e.Rule, Text: e.Text}
		ev.Places, ev.Units = mentions(rep.Picture, e.Text)
		v.Events = append(v.Events, ev)
	}
	for _, d := range rep.Dice {
		dv := DieView{Seq: d.Seq, Spec: d.Spec, Stream: d.Stream, Purpose: d.Purpose, Sealed: d.Sealed, Values: []int{}}
		if !d.Sealed {
			dv.Values = append(dv.Values, d.Values...)
		}
		v.Dice = append(v.Dice, dv)
	}
	v.OrderList, v.OpenLink, v.Head, v.Beacon = rep.OrderList, rep.OpenLink, rep.Head, rep.Beacon
	for _, o := range rep.Orders {
		v.Orders = append(v.Orders, OrdersView{Seat: o.Seat, Lines: append([]string{}, o.Lines...)})
	}
	v.OrdersNote = rep.OrdersNote
	for _, rb := range rep.Rollbacks {
		v.Rollbacks = append(v.Rollbacks, rb.Text())
	}
	if rep.Picture != nil {
		v.MapURL = s.root + "games/" + id + "/steps/" + fmt.Sprint(k) + "/map.svg"
		if withMap {
			if v.Map, err = s.svg(*rep.Picture); err != nil {
				return nil, err
			}
		}
	}
	return v, nil
}

// renderSVG draws p as SVG: on its map image when it carries one (only a
// game file's map_image_public puts one on a public view).
func (s *Server) renderSVG(p board.Picture, w io.Writer) error {
	return templates.RenderSVGOn(p, s.cfg.MapImages.For(p), w)
}

// svg renders a picture for a page.
func (s *Server) svg(p board.Picture) (template.HTML, error) {
	start := time.Now()
	var buf bytes.Buffer
	if err := s.renderSVG(p, &buf); err != nil {
		return "", err
	}
	s.cfg.Metrics.Rendered("svg", time.Since(start))
	// RenderSVG escapes every text it writes and holds no script.
	return template.HTML(buf.String()), nil //nolint:gosec // generated by our renderer
}
