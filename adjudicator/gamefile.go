package adjudicator

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/umpire-pbem/umpire/adjudicator/beacon"
	"github.com/umpire-pbem/umpire/adjudicator/datafile"
)

// GameFile is a game as its game master describes it (docs/game-file.md).
type GameFile struct {
	ID       string            `toml:"id"`       // the game's name in mail: lowercase letters, digits and '-'
	Game     string            `toml:"game"`     // the rules: "perrote", "wbt"...
	Title    string            `toml:"title"`    // free text
	Scenario string            `toml:"scenario"` // as the rules name it
	Options  map[string]string `toml:"options"`  // rules options
	Seats    []string          `toml:"seats"`    // optional: the scenario's seats when empty
	GM       string            `toml:"gm"`       // fingerprint of the game master's key
	// JoinApproval makes every join wait for the game master's approve.
	JoinApproval bool     `toml:"join_approval"`
	Schedule     Schedule `toml:"schedule"`
	// Beacon mixes a public randomness beacon into every step's dice
	// (umpire-dice-v2): nil for none.
	Beacon *BeaconOption `toml:"beacon"`
	// Observers false forbids observers from the start; the game master
	// may allow them later (observers GAME allow). Default true.
	Observers *bool `toml:"observers"`
	// Unlisted keeps the game out of the games and list answers: it is
	// found by its id only.
	Unlisted bool `toml:"unlisted"`
	// Press says what press the seats may send (press.go).
	Press PressRules `toml:"press"`
	// GMSeesHands lets the game master of a game with hidden hands (rules
	// with HiddenStreams) see every seat's hand, seat-private events and
	// order texts before the game ends. Default false: until the end the
	// game master's reports show the public view (gmview.go).
	GMSeesHands bool `toml:"gm_sees_hands"`
	// Identity says what may hold a seat: IdentityKeys (the default), or
	// IdentityDKIM, which also lets a mail address its provider signs
	// with DKIM hold one (dkim.go).
	Identity Identity `toml:"identity"`
	// PublishOrders puts every seat's accepted orders of a step in every
	// report of it, the public view and the web page, once it is
	// adjudicated (njudge's habit), in the public form the rules give
	// (PublicOrders); a game whose rules give none publishes none and its
	// reports say so. Default false: each seat sees its own orders only.
	PublishOrders bool `toml:"publish_orders"`
	// MapImage says whose image of the published map the game's reports
	// are drawn on ("Grace's scan of the 1995 map"): the operator installs
	// it with umpire game image (mapimage.go). "" draws the judge's map.
	MapImage string `toml:"map_image"`
	// MapImageAlign places the map on the image, "x0 y0 sx sy"; "" reads
	// umpire edit's line in the map option (MapImageAlignPrefix).
	MapImageAlign string `toml:"map_image_align"`
	// MapImagePublic shows the image on the public views too (the web
	// pages, observers, map GAME). Default false: seats and the game
	// master only.
	MapImagePublic bool `toml:"map_image_public"`

	// align is the map's alignment on its image, filled in by the check.
	align MapAlign
}

// PressRules are a game's press settings (docs/game-file.md, "Press").
// The game master's press is never limited by them.
type PressRules struct {
	// To is whom seats may press: "none"; "gm", the game master only;
	// "all", every seat at once (and the game master); "private" (the
	// default), any seats, one or more, or all.
	To string `toml:"to"`
	// Grey is "no" (the default: a press names its sender), "yes" (a
	// sender may write grey, hiding its seat from the players), or "only"
	// (every seat's press is grey). The game master always sees who sent
	// grey press.
	Grey string `toml:"grey"`
	// GMCopy false stops the game master's copy of press between seats
	// (press addressed to gm still reaches the game master). Default true.
	GMCopy *bool `toml:"gm_copy"`
	// Observers false keeps press to all from the game's observers.
	// Default true.
	Observers *bool `toml:"observers"`
	// Paused and Ended false forbid seats' press while the game is
	// paused, and after it has ended. Default true.
	Paused *bool `toml:"paused"`
	Ended  *bool `toml:"ended"`
}

// The values of PressRules.To and .Grey.
const (
	PressNone    = "none"
	PressGM      = "gm"
	PressAll     = "all"
	PressPrivate = "private"
	GreyNo       = "no"
	GreyYes      = "yes"
	GreyOnly     = "only"
)

// check fills in the defaults and refuses a value it does not know.
func (p *PressRules) check() error {
	if p.To == "" {
		p.To = PressPrivate
	}
	if p.Grey == "" {
		p.Grey = GreyNo
	}
	switch p.To {
	case PressNone, PressGM, PressAll, PressPrivate:
	default:
		return fmt.Errorf("press.to %q: write none, gm, all or private", p.To)
	}
	switch p.Grey {
	case GreyNo, GreyYes, GreyOnly:
	default:
		return fmt.Errorf("press.grey %q: write no, yes or only", p.Grey)
	}
	if p.To == PressNone && p.Grey != GreyNo {
		return fmt.Errorf("press.grey %q with press.to \"none\": a game without press has no grey press", p.Grey)
	}
	return nil
}

// visibility is what a game file says about who hears of a game: its
// press, observers, listing, and the game master's view of hidden hands.
type visibility struct {
	Observers   *bool      `toml:"observers"`
	Unlisted    bool       `toml:"unlisted"`
	Press       PressRules `toml:"press"`
	GMSeesHands bool       `toml:"gm_sees_hands"`
}

// visibilityOf reads g's press, observer, listing and game master's view
// settings from its file, with their defaults; it needs no rules (the dice
// service has none).
func visibilityOf(g Game) visibility {
	var t visibility
	if _, err := datafile.DecodeLoose("game file", g.File, &t); err != nil || t.Press.check() != nil {
		t = visibility{}
		_ = t.Press.check() // a file the judge accepted once: defaults
	}
	return t
}

// on reads an optional setting whose default is true.
func on(b *bool) bool { return b == nil || *b }

// Schedule says when steps close.
type Schedule struct {
	// Cron is a cron schedule with its time zone, such as
	// "CRON_TZ=Europe/Belgrade 0 20 * * MON,THU"; each step closes at the
	// next time it names after the step opened.
	Cron string `toml:"cron"`
	// Every closes each step this long after it opened ("48h"), when Cron
	// is empty.
	Every Duration `toml:"every"`
	// Grace is added to a deadline once for a seat that still owes orders
	// and has excused misses left.
	Grace Duration `toml:"grace"`
	// Reminders are sent this long before the deadline to seats without
	// orders ("24h", "2h").
	Reminders []Duration `toml:"reminders"`
	// Excused is how many missed steps each seat may be waited for (by
	// Grace) before its default orders apply.
	Excused int `toml:"excused"`
	// Early processes a step as soon as every seat owing orders is ready;
	// default true.
	Early *bool `toml:"early"`
	// AbsenceDays caps the days of absence each player may declare.
	AbsenceDays int `toml:"absence_days"`

	// parsed is Cron parsed, with its time zone loaded, once.
	parsed cron.Schedule
}

// Duration is a time.Duration written as "90s", "48h".
type Duration struct{ time.Duration }

// UnmarshalText reads a duration.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil || v < 0 {
		return fmt.Errorf("%q is not a duration such as 30m or 48h", b)
	}
	d.Duration = v
	return nil
}

// MarshalText writes a duration.
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

var gameID = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,39}$`)

// ParseGameFile reads a game file and checks it against the registry.
// Problems carry line numbers where the TOML decoder gives them. A beacon
// whose delay is under umpire-dice-v3's floor (beacon.MinDelay) is
// refused, with the least delay accepted: every new game is a v3 game.
func ParseGameFile(data []byte, reg Registry) (*GameFile, error) {
	f, err := parseGameFile(data, reg, nil)
	if err == nil && f.Beacon != nil && f.Beacon.Delay < beacon.MinDelay(f.Beacon.Period) {
		return nil, fmt.Errorf("game file: %w", beaconFloorError(f.Beacon.Chain))
	}
	return f, err
}

// parseGameFile is ParseGameFile taking parsed cron specs from crons, and
// adding those it parses, when crons is not nil. It takes any beacon
// delay: a stored game created before umpire-dice-v3 keeps its own.
func parseGameFile(data []byte, reg Registry, crons *cronCache) (*GameFile, error) {
	var f GameFile
	if _, err := datafile.Decode("game file", data, &f); err != nil {
		return nil, gameFileError(err)
	}
	if !gameID.MatchString(f.ID) {
		return nil, fmt.Errorf("game file: id %q: use 1 to 40 lowercase letters, digits and '-', starting with a letter or digit", f.ID)
	}
	rules, err := reg.Get(f.Game)
	if err != nil {
		return nil, fmt.Errorf("game file: game: %w", err)
	}
	var seats []string
	if withOptions, ok := rules.(OptionSeats); ok {
		seats, err = withOptions.SeatsWith(f.Scenario, f.Options)
	} else {
		seats, err = rules.Seats(f.Scenario)
	}
	if err != nil {
		return nil, fmt.Errorf("game file: scenario: %w", err)
	}
	if len(f.Seats) == 0 {
		f.Seats = seats
	} else if !sameSet(f.Seats, seats) {
		return nil, fmt.Errorf("game file: seats %s are not the scenario's seats %s", strings.Join(f.Seats, ", "), strings.Join(seats, ", "))
	}
	if f.Schedule.Cron != "" && f.Schedule.Every.Duration == 0 {
		sched, err := crons.parse(f.Schedule.Cron)
		if err != nil {
			return nil, fmt.Errorf("game file: schedule: cron %q: %w", f.Schedule.Cron, err)
		}
		f.Schedule.parsed = sched
	}
	if _, err := f.Schedule.next(time.Unix(0, 0)); err != nil {
		return nil, fmt.Errorf("game file: schedule: %w", err)
	}
	if f.Title == "" {
		f.Title = rules.Title()
	}
	if err := f.Press.check(); err != nil {
		return nil, fmt.Errorf("game file: %w", err)
	}
	if err := f.checkMapImage(); err != nil {
		return nil, fmt.Errorf("game file: %w", err)
	}
	if _, hidden := rules.(HiddenStreams); f.GMSeesHands && !hidden {
		return nil, fmt.Errorf("game file: gm_sees_hands: %s has no hidden hands: its game master sees everything already (remove the setting)", f.Game)
	}
	return &f, nil
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[string]bool{}
	for _, x := range a {
		seen[x] = true
	}
	for _, x := range b {
		if !seen[x] {
			return false
		}
	}
	return true
}

var cronParser = cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

// next returns the deadline of a step opened at opened.
func (s Schedule) next(opened time.Time) (time.Time, error) {
	switch {
	case s.Cron != "" && s.Every.Duration != 0:
		return time.Time{}, errors.New("give cron or every, not both")
	case s.Cron != "":
		sched := s.parsed
		if sched == nil {
			var err error
			if sched, err = cronParser.Parse(s.Cron); err != nil {
				return time.Time{}, fmt.Errorf("cron %q: %w", s.Cron, err)
			}
		}
		return sched.Next(opened), nil
	case s.Every.Duration > 0:
		return opened.Add(s.Every.Duration), nil
	}
	return time.Time{}, errors.New("give cron (such as \"CRON_TZ=Europe/Belgrade 0 20 * * MON,THU\") or every (such as \"48h\")")
}

// MaxHorizon is the furthest ahead a step's deadline may be: a schedule
// whose next time is further (a cron for 29 February, or one that never
// fires) is refused.
const MaxHorizon = 366 * 24 * time.Hour

// DefaultMinInterval is the least time a schedule may leave between two
// deadlines, unless the judge is configured otherwise.
const DefaultMinInterval = time.Hour

// maxCronScan bounds the times Check looks at: a year of an hourly cron.
const maxCronScan = 9000

// Check refuses a schedule that would run a game away: its next deadline
// after now must lie within MaxHorizon, and no two of its deadlines may
// come closer than min (for a cron, checked over the coming year).
func (s Schedule) Check(now time.Time, min time.Duration) error {
	next, err := s.next(now)
	if err != nil {
		return err
	}
	if !next.After(now) || next.Sub(now) > MaxHorizon {
		what := fmt.Sprintf("cron %q names no time in the coming year", s.Cron)
		if s.Cron == "" {
			what = fmt.Sprintf("every = %q puts the deadline more than a year after the step opens", s.Every.Duration)
		}
		return fmt.Errorf("%s: give a schedule whose deadlines come at least once a year", what)
	}
	if s.Cron == "" {
		if s.Every.Duration < min {
			return fmt.Errorf("every = %q would close steps %v apart; this judge allows no less than %v between deadlines", s.Every.Duration, s.Every.Duration, min)
		}
		return nil
	}
	sched, err := cronParser.Parse(s.Cron)
	if err != nil {
		return fmt.Errorf("cron %q: %w", s.Cron, err)
	}
	prev := next
	for range maxCronScan {
		t := sched.Next(prev)
		if t.IsZero() || t.Sub(now) > MaxHorizon {
			break
		}
		if gap := t.Sub(prev); gap < min {
			return fmt.Errorf("cron %q closes steps %v apart (%s and %s); this judge allows no less than %v between deadlines",
				s.Cron, gap, prev.Format("Mon 2 Jan 15:04 MST"), t.Format("Mon 2 Jan 15:04 MST"), min)
		}
		prev = t
	}
	return nil
}

// early reports whether steps are processed as soon as every seat is ready.
func (s Schedule) early() bool { return s.Early == nil || *s.Early }

// fileCache keeps game files parsed, by their content, and cron specs
// parsed, by their text (with the time zone each names loaded), so that
// the scheduler and the step machine parse each once. A game file is
// immutable once stored, so its content names it. Both are bounded: when
// one is full it starts again empty.
type fileCache struct {
	mu    sync.Mutex
	files map[[32]byte]*GameFile
	crons cronCache
}

const (
	maxCachedFiles = 4096
	maxCachedCrons = 1024
)

// get returns the game file data parsed. The *GameFile is shared: callers
// must not change it.
func (c *fileCache) get(data []byte, reg Registry) (*GameFile, error) {
	sum := sha256.Sum256(data)
	c.mu.Lock()
	f, ok := c.files[sum]
	c.mu.Unlock()
	if ok {
		return f, nil
	}
	f, err := parseGameFile(data, reg, &c.crons)
	if err != nil {
		return nil, err // not kept: errors are rare and cheap to find again
	}
	c.mu.Lock()
	if c.files == nil || len(c.files) >= maxCachedFiles {
		c.files = map[[32]byte]*GameFile{}
	}
	c.files[sum] = f
	c.mu.Unlock()
	return f, nil
}

// cronCache keeps cron specs parsed; a nil *cronCache parses every time.
type cronCache struct {
	mu    sync.Mutex
	specs map[string]cron.Schedule
}

func (c *cronCache) parse(spec string) (cron.Schedule, error) {
	if c == nil {
		return cronParser.Parse(spec)
	}
	c.mu.Lock()
	s, ok := c.specs[spec]
	c.mu.Unlock()
	if ok {
		return s, nil
	}
	s, err := cronParser.Parse(spec)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.specs == nil || len(c.specs) >= maxCachedCrons {
		c.specs = map[string]cron.Schedule{}
	}
	c.specs[spec] = s
	c.mu.Unlock()
	return s, nil
}

// gameFileError words a refusal of the game file as the game master reads
// it: the line, and an unknown key as a setting.
func gameFileError(err error) error {
	var fe *datafile.FileError
	if !errors.As(err, &fe) {
		return fmt.Errorf("game file: %w", err)
	}
	what := fe.Err
	if also, ok := strings.CutPrefix(fe.Err, "unknown field"); ok {
		what = "unknown setting " + fe.Field + also + " (docs/game-file.md lists them)"
	} else if fe.Field != "" {
		what = fe.Field + ": " + fe.Err
	}
	if fe.Line > 0 {
		return fmt.Errorf("game file: line %d: %s", fe.Line, what)
	}
	return fmt.Errorf("game file: %s", what)
}
