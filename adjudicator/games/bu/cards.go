package bu

// This file reads the three decks (docs/scenario-bu.md): each Strategy Card
// with its id, title, period (1.5.2), Card Value (1.5.3), type (1.5.8),
// lasting duration (1.5.6), the 2-player removal mark (14.2.6) and its event
// written in the effect vocabulary below, since the rule text prints no
// card text.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/datafile"
	"github.com/umpire-pbem/umpire/adjudicator/kit"
)

// The card types of 1.5.8.
const (
	typeCombat    = "combat"
	typeOffensive = "offensive"
	typeInterrupt = "interrupt"
	typeForeign   = "foreign"
	typeOther     = "other"
)

// The periods of 1.5.2.
const (
	early = "early"
	late  = "late"
	both  = "both"
)

// The lasting durations of 1.5.6 ("" lasts the player's round).
const (
	lastTurn   = "turn"
	lastPeriod = "period"
	lastGame   = "game"
)

// The effect kinds: the vocabulary a card's event is written in.
const (
	effDRM     = "drm"            // a DRM in battle: value, role, terrain
	effAdvance = "advance"        // Advance a/a +value spaces (13.4.9.1; 1.5.5 over Limited Fuel)
	effIgnore  = "ignore_terrain" // the attacker ignores the defending terrain's DRM and Halt
	effReduce  = "reduce"         // roll to reduce N units on a number (12.1.2, 1.5.8)
	effSW      = "sw"             // SW changes: value, who
	effFA      = "fa"             // FA changes: value, who
	effOP      = "op"             // an Operation with value OPs (13.1)
	effMF      = "mf"             // units' MF +value
	effSR      = "sr"             // Strategic Redeployment with value points (9.1)
	effRP      = "rp"             // value Replacement Points (10.1)
	effPlace   = "place"          // units placed on the map
	effForeign = "foreign"        // Foreign Units brought into play (1.5.8, 6.3)
	effUNSafe  = "un_safe_area"   // UN Safe Areas created (2.5)
	effCancel  = "cancel"         // an interrupt cancels the opponent's event (1.5.8)
	effControl = "control"        // control taken of vacant spaces
	effFuel    = "fuel"           // Limited Fuel does not apply (2.2.3, 13.2.8)
)

// effectKinds lists the vocabulary, in the order docs/scenario-bu.md gives it.
var effectKinds = []string{effDRM, effAdvance, effIgnore, effReduce, effSW, effFA, effOP, effMF, effSR, effRP, effPlace, effForeign, effUNSafe, effCancel, effControl, effFuel}

// effect is one effect of a card's event.
type effect struct {
	Kind string
	// Value is the DRM, spaces of advance, SW or FA points, OPs, MF, SR or
	// RP points.
	Value int
	// Role says who a DRM or terrain effect helps: attacker, defender or
	// any (the player's own battles, attacking or defending).
	Role string
	// Terrain limits a DRM or ignore_terrain to defending spaces of these
	// terrains (empty: any).
	Terrain []terrain
	// Units is how many units a reduce rolls for; On the lowest face (0-9)
	// that reduces one; When "before_attack" (Artillery Preparation, 1.5.8)
	// or "event" (units the player chooses, 12.1.2).
	Units int
	On    int
	When  string
	// Who a sw or fa effect changes: self, opponent (the attacked or active
	// enemy), opponents (every enemy side), or a side (Serb, Croat, Bosniak).
	Who string
	// What an interrupt cancels: event.
	What string
	// Type, Count, State and From are the units a place effect puts on the
	// map: Count units of Type, full or reduced, from the pool of units
	// not yet in play or the Eliminated Units box.
	Type  string
	Count int
	State string
	From  string
	// Where limits place, control and un_safe_area to spaces, regions or
	// "key" (the side's Key Spaces).
	Where []string
	// UnitIDs are the Foreign Units a foreign effect brings into play.
	UnitIDs []string
}

// card is one Strategy Card.
type card struct {
	ID       string
	Title    string
	Deck     Side
	Period   string
	CV       int
	Type     string
	Lasting  string
	Remove2P bool
	// Timing says when an interrupt is played: before or after the
	// opponent's action (1.5.8); Trigger what it answers (event, op, sr,
	// rp, dp, attack, any).
	Timing  string
	Trigger string
	Text    string
	StandIn bool
	Effects []effect
}

// Has returns the card's first effect of kind, nil if none.
func (c *card) Has(kind string) *effect {
	for i := range c.Effects {
		if c.Effects[i].Kind == kind {
			return &c.Effects[i]
		}
	}
	return nil
}

// InPeriod reports whether the card is used in turn's period (1.5.2).
func (c *card) InPeriod(turn int) bool {
	return c.Period == both || c.Period == periodOf(turn)
}

// periodOf is the period of a turn: Early War on turns 1-2, Late War
// after (1.5.2; Fight To The End replays turn 4, 15.2).
func periodOf(turn int) string {
	if turn <= 2 {
		return early
	}
	return late
}

// deck is the cards of the three decks, read and checked.
type deck struct {
	Title   string
	StandIn bool
	Notice  string
	Cards   []*card
	byID    map[string]*card
}

// Card returns the card with id, nil if none.
func (d *deck) Card(id string) *card { return d.byID[id] }

type cardsFile struct {
	kit.Preamble
	Card []cardFile `toml:"card"`
}

type cardFile struct {
	ID       string       `toml:"id"`
	Title    string       `toml:"title"`
	Deck     string       `toml:"deck"`
	Period   string       `toml:"period"`
	CV       int          `toml:"cv"`
	Type     string       `toml:"type"`
	Lasting  string       `toml:"lasting"`
	Remove2P bool         `toml:"remove_2p"`
	Timing   string       `toml:"timing"`
	Trigger  string       `toml:"trigger"`
	Text     string       `toml:"text"`
	StandIn  bool         `toml:"stand_in"`
	Effect   []effectFile `toml:"effect"`
}

type effectFile struct {
	Kind    string   `toml:"kind"`
	Value   int      `toml:"value"`
	Role    string   `toml:"role"`
	Terrain []string `toml:"terrain"`
	Units   int      `toml:"units"`
	On      int      `toml:"on"`
	When    string   `toml:"when"`
	Who     string   `toml:"who"`
	What    string   `toml:"what"`
	Type    string   `toml:"type"`
	Count   int      `toml:"count"`
	State   string   `toml:"state"`
	From    string   `toml:"from"`
	Where   []string `toml:"where"`
	UnitIDs []string `toml:"units_in"`
}

// cardID is the canonical form of a card id: upper case.
func cardID(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }

// parseCards reads and checks the decks against the map and counter list
// their effects name.
func parseCards(name string, data []byte, m *Map, c *counters) (*deck, error) {
	file := kit.File{Name: name, Data: data}
	var f cardsFile
	if err := file.Decode(&f); err != nil {
		return nil, err
	}
	d := &deck{Title: f.Title, StandIn: f.StandIn, Notice: f.Notice, byID: map[string]*card{}}
	bad := func(i int, key, format string, args ...any) error {
		return file.Errorf("card", i, key, format, args...)
	}
	if err := f.Check(file, "stand-in cards"); err != nil {
		return nil, err
	}
	for i, cf := range f.Card {
		card := &card{ID: cardID(cf.ID), Title: cf.Title, Period: strings.ToLower(cf.Period), CV: cf.CV, Type: strings.ToLower(cf.Type),
			Lasting: strings.ToLower(cf.Lasting), Remove2P: cf.Remove2P, Timing: strings.ToLower(cf.Timing), Trigger: strings.ToLower(cf.Trigger),
			Text: cf.Text, StandIn: cf.StandIn}
		switch {
		case card.ID == "" || strings.ContainsAny(card.ID, " ,:"):
			return nil, bad(i, "id", "%q: want a card id such as S4 (16.2)", cf.ID)
		case d.byID[card.ID] != nil:
			return nil, bad(i, "id", "card %s is listed twice", card.ID)
		case card.Title == "":
			return nil, bad(i, "title", "missing: every card has a title")
		case card.Period != early && card.Period != late && card.Period != both:
			return nil, bad(i, "period", "%q: want early, late or both (1.5.2)", cf.Period)
		case card.CV < 2 || card.CV > 4:
			return nil, bad(i, "cv", "%d: the Card Value ranges from 2 to 4 (1.5.3)", cf.CV)
		case !slices.Contains([]string{typeCombat, typeOffensive, typeInterrupt, typeForeign, typeOther}, card.Type):
			return nil, bad(i, "type", "%q: want combat, offensive, interrupt, foreign or other (1.5.8)", cf.Type)
		case !slices.Contains([]string{"", lastTurn, lastPeriod, lastGame}, card.Lasting):
			return nil, bad(i, "lasting", "%q: want turn, period, game, or nothing for the player's round (1.5.6)", cf.Lasting)
		}
		side, ok := parseSide(cf.Deck)
		if !ok {
			return nil, bad(i, "deck", "%q: want Serb, Croat or Bosniak (1.1)", cf.Deck)
		}
		card.Deck = side
		if card.Type == typeInterrupt {
			if card.Timing != "before" && card.Timing != "after" {
				return nil, bad(i, "timing", "%q: an interrupt is played before or after the opponent's action (1.5.8)", cf.Timing)
			}
			if !slices.Contains([]string{"event", "op", "sr", "rp", "dp", "attack", "any"}, card.Trigger) {
				return nil, bad(i, "trigger", "%q: want what the interrupt answers: event, op, sr, rp, dp, attack or any", cf.Trigger)
			}
		} else if cf.Timing != "" || cf.Trigger != "" {
			return nil, bad(i, "timing", "only interrupt cards have a timing and a trigger")
		}
		for j, ef := range cf.Effect {
			e, err := parseEffect(ef, m, c, card)
			if err != nil {
				return nil, checked(&datafile.FileError{File: name, Line: effectLine(data, i, j), Field: fmt.Sprintf("card %s effect[%d]", card.ID, j), Err: err.Error()}, err)
			}
			card.Effects = append(card.Effects, e)
		}
		if err := checkCardEffects(card); err != nil {
			return nil, bad(i, "effect", "%v", err)
		}
		d.Cards = append(d.Cards, card)
		d.byID[card.ID] = card
	}
	if len(d.Cards) == 0 {
		return nil, file.Errorf("", -1, "card", "missing: the decks have no cards")
	}
	return d, nil
}

// effectLine finds the line of the j-th [[card.effect]] of the i-th card;
// for effects written inline (effect = [...]), the line of the card's
// effect key, else of the card.
func effectLine(data []byte, i, j int) int {
	card, effect, line := -1, -1, 0
	for _, l := range strings.Split(string(data), "\n") {
		line++
		t := strings.TrimSpace(l)
		if k := strings.Index(t, "#"); k >= 0 && strings.HasPrefix(t, "[") {
			t = strings.TrimSpace(t[:k])
		}
		if !strings.HasPrefix(t, "[[") || !strings.HasSuffix(t, "]]") {
			continue
		}
		switch strings.Join(strings.Fields(strings.Trim(t, "[] ")), "") {
		case "card":
			card, effect = card+1, -1
		case "card.effect":
			effect++
			if card == i && effect == j {
				return line
			}
		}
	}
	if n := datafile.FieldLine(data, "card", i, "effect"); n > 0 {
		return n
	}
	return datafile.FieldLine(data, "card", i, "")
}

func parseEffect(f effectFile, m *Map, c *counters, card *card) (effect, error) {
	e := effect{Kind: strings.ToLower(f.Kind), Value: f.Value, Role: strings.ToLower(f.Role), Units: f.Units, On: f.On, When: strings.ToLower(f.When),
		Who: strings.ToLower(f.Who), What: strings.ToLower(f.What), Type: unitID(f.Type), Count: f.Count, State: strings.ToLower(f.State), From: strings.ToLower(f.From)}
	for _, t := range f.Terrain {
		tt := terrain(strings.ToLower(t))
		if !slices.Contains(terrains, tt) {
			return e, fmt.Errorf("terrain %q: want clear, mountain, swamp, city or river (1.2.8)", t)
		}
		e.Terrain = append(e.Terrain, tt)
	}
	for _, w := range f.Where {
		w = slug(w)
		_, space := m.Space(w)
		if w != "key" && !space && m.RegionByID(w) == nil {
			return e, &againstError{file: "map", msg: fmt.Sprintf("where %q: want a space, a region or key", w)}
		}
		e.Where = append(e.Where, w)
	}
	ids, err := expandIDs(f.UnitIDs)
	if err != nil {
		return e, err
	}
	e.UnitIDs = ids
	want := func(ok bool, format string, args ...any) error {
		if ok {
			return nil
		}
		return fmt.Errorf(format, args...)
	}
	switch e.Kind {
	case effDRM:
		if e.Role == "" {
			e.Role = "any"
		}
		if err := want(e.Value != 0 && e.Value >= -9 && e.Value <= 9, "value %d: a DRM from -9 to 9, not 0 (13.4.4)", e.Value); err != nil {
			return e, err
		}
		return e, want(slices.Contains([]string{"attacker", "defender", "any"}, e.Role), "role %q: want attacker, defender or any", f.Role)
	case effAdvance:
		return e, want(e.Value >= 1 && e.Value <= 3, "value %d: extra advance spaces, 1 to 3 (13.4.9.1)", e.Value)
	case effIgnore:
		if e.Role == "" {
			e.Role = "attacker"
		}
		return e, nil
	case effReduce:
		if e.When == "" {
			e.When = "event"
		}
		if err := want(e.Units >= 1 && e.Units <= 9, "units %d: roll for 1 to 9 units (12.1.2)", e.Units); err != nil {
			return e, err
		}
		if err := want(e.On >= 0 && e.On <= 9, "on %d: the lowest face of a d10 read 0-9 that reduces", e.On); err != nil {
			return e, err
		}
		return e, want(e.When == "event" || e.When == "before_attack", "when %q: want event or before_attack (Artillery Preparation, 1.5.8)", f.When)
	case effSW, effFA:
		if e.Who == "" {
			e.Who = "self"
		}
		if err := want(e.Value != 0 && e.Value >= -20 && e.Value <= 20, "value %d: from -20 to 20, not 0", e.Value); err != nil {
			return e, err
		}
		_, isSide := parseSide(e.Who)
		return e, want(isSide || slices.Contains([]string{"self", "opponent", "opponents"}, e.Who), "who %q: want self, opponent, opponents, Serb, Croat or Bosniak", f.Who)
	case effOP, effSR, effRP:
		return e, want(e.Value >= 0 && e.Value <= 12, "value %d: 0 (the Card Value) to 12", e.Value)
	case effMF:
		return e, want(e.Value != 0 && e.Value >= -3 && e.Value <= 3, "value %d: an MF change from -3 to 3, not 0", e.Value)
	case effPlace:
		ut := c.Type(e.Type)
		if ut == nil {
			return e, &againstError{file: "counters", msg: fmt.Sprintf("type %q: want a unit type of the counter list", f.Type)}
		}
		if ut.Side != card.Deck || ut.Foreign {
			return e, &againstError{file: "counters", msg: fmt.Sprintf("type %s: a place effect puts the card's own side's domestic units (%s)", e.Type, card.Deck)}
		}
		if e.State == "" {
			e.State = "full"
		}
		if e.From == "" {
			e.From = "pool"
		}
		if err := want(e.Count >= 1 && e.Count <= 9, "count %d: 1 to 9 units", e.Count); err != nil {
			return e, err
		}
		if err := want(e.State == "full" || e.State == "reduced", "state %q: want full or reduced", f.State); err != nil {
			return e, err
		}
		if err := want(e.From == "pool" || e.From == "eliminated", "from %q: want pool (units not yet in play) or eliminated", f.From); err != nil {
			return e, err
		}
		return e, want(len(e.Where) > 0, "where: missing: the spaces, regions or key")
	case effForeign:
		if len(e.UnitIDs) == 0 {
			return e, fmt.Errorf("units_in: missing: the Foreign Units the card brings into play")
		}
		for _, id := range e.UnitIDs {
			u := c.Unit(id)
			if u == nil || !u.Type.Foreign || u.Type.Side != card.Deck {
				return e, &againstError{file: "counters", msg: fmt.Sprintf("units_in %s: want a Foreign Unit of the %s side", id, card.Deck)}
			}
		}
		return e, nil
	case effUNSafe:
		if err := want(len(e.Where) > 0, "where: missing: the spaces that may become UN Safe Areas"); err != nil {
			return e, err
		}
		return e, want(e.Count >= 0 && e.Count <= len(e.Where), "count %d: how many of the listed spaces (0: all)", e.Count)
	case effCancel:
		return e, want(e.What == "event", "what %q: want event (an interrupt cancels the opponent's event, 1.5.8)", f.What)
	case effControl:
		if err := want(e.Count >= 1 && e.Count <= 6, "count %d: 1 to 6 spaces", e.Count); err != nil {
			return e, err
		}
		return e, want(len(e.Where) > 0, "where: missing: the spaces or regions")
	case effFuel:
		return e, nil
	}
	return e, fmt.Errorf("kind %q: want one of %s", f.Kind, strings.Join(effectKinds, ", "))
}

// checkCardEffects checks that a card's effects fit its type.
func checkCardEffects(c *card) error {
	allowed := map[string][]string{
		typeCombat:    {effDRM, effAdvance, effIgnore},
		typeOffensive: {effOP, effDRM, effAdvance, effIgnore, effReduce, effMF},
		typeInterrupt: {effCancel, effReduce, effSW, effFA, effDRM},
		typeForeign:   {effForeign, effSW, effFA},
	}
	if len(c.Effects) == 0 {
		return fmt.Errorf("missing: the card's event, in the effect vocabulary (docs/scenario-bu.md)")
	}
	if kinds, ok := allowed[c.Type]; ok {
		for _, e := range c.Effects {
			if !slices.Contains(kinds, e.Kind) {
				return fmt.Errorf("a %s card's effects are %s, not %s (1.5.8)", c.Type, strings.Join(kinds, ", "), e.Kind)
			}
		}
	}
	switch c.Type {
	case typeCombat:
		if c.Has(effDRM) == nil && c.Has(effAdvance) == nil && c.Has(effIgnore) == nil {
			return fmt.Errorf("a combat card modifies combat (1.5.8)")
		}
	case typeOffensive:
		if c.Has(effOP) == nil {
			return fmt.Errorf("an offensive card's event is an Operation: give an op effect (1.5.8)")
		}
	case typeForeign:
		if c.Has(effForeign) == nil {
			return fmt.Errorf("a Foreign Units card brings Foreign Units: give a foreign effect (1.5.8)")
		}
	case typeInterrupt:
		for _, e := range c.Effects {
			if e.Kind == effReduce && e.When != "event" {
				return fmt.Errorf("an interrupt's reduce targets the active player's units: when = event")
			}
		}
	}
	for _, e := range c.Effects {
		if e.Kind == effReduce && e.When == "before_attack" && c.Type != typeOffensive {
			return fmt.Errorf("an Artillery Preparation (reduce before_attack) is an Offensive card's (1.5.8)")
		}
		if e.Kind == effFuel && c.Lasting == "" {
			return fmt.Errorf("a fuel effect lasts: give the card a lasting duration (1.5.6)")
		}
	}
	return nil
}
