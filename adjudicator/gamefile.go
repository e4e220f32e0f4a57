package adjudicator

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/robfig/cron/v3"
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
}

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
// Problems carry line numbers where the TOML decoder gives them.
func ParseGameFile(data []byte, reg Registry) (*GameFile, error) {
	var f GameFile
	md, err := toml.Decode(string(data), &f)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("game file: line %d: %s", pe.Position.Line, pe.Message)
		}
		return nil, fmt.Errorf("game file: %w", err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		sort.Strings(keys)
		return nil, fmt.Errorf("game file: unknown setting %s (docs/game-file.md lists them)", strings.Join(keys, ", "))
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
	if _, err := f.Schedule.next(time.Unix(0, 0)); err != nil {
		return nil, fmt.Errorf("game file: schedule: %w", err)
	}
	if f.Title == "" {
		f.Title = rules.Title()
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
		sched, err := cronParser.Parse(s.Cron)
		if err != nil {
			return time.Time{}, fmt.Errorf("cron %q: %w", s.Cron, err)
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
