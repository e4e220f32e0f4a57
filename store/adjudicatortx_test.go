package store_test

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
)

// A recordPair is one of the adjudicator's types and the store record that
// keeps it (adjudicatortx.go copies one into the other field by field).
type recordPair struct {
	domain, record any // zero values of the two types
	// renamed names the record field that keeps a domain field under
	// another name.
	renamed map[string]string
	// domainOnly and recordOnly are the fields without a counterpart on
	// the other side, each with the reason.
	domainOnly, recordOnly map[string]string
	// assigned are domain fields the store assigns, which a round trip
	// does not give back as they were written.
	assigned []string
	// fromRecord: the judge only reads this record (the store writes it
	// for another caller), so the round trip starts from the record.
	fromRecord bool
	// roundTrip writes v (a pointer to a fully populated value: the domain
	// type's, or the record's when fromRecord) and returns what the judge
	// reads back (nil for a record the judge only writes) and the record
	// as stored.
	roundTrip func(tb testing.TB, db *store.DB, v any) (domain, record any)
}

// The game every record but Game's own belongs to: fill gives a string
// field its name, so a Game field holds "Game".
const pairGame = "Game"

var recordPairs = map[string]recordPair{
	"Game": {
		domain: adjudicator.Game{}, record: store.Game{},
		recordOnly: map[string]string{
			"Updated": "stamped with the time of the writing transaction",
			"Options": "never filled (the game file holds the options); kept in the record format",
		},
		roundTrip: func(tb testing.TB, db *store.DB, v any) (d, r any) {
			g := *v.(*adjudicator.Game)
			update(tb, db, func(j adjudicator.Tx, _ *store.Tx) error { return j.PutGame(g) })
			view(tb, db, func(j adjudicator.Tx, tx *store.Tx) (err error) {
				if d, err = j.Game(g.ID); err == nil {
					r, err = tx.Game(g.ID)
				}
				return err
			})
			return d, r
		},
	},
	"Seat": {
		domain: adjudicator.Seat{}, record: store.Seat{},
		renamed: map[string]string{"Holder": "Holders", "Join": "Holders"},
		roundTrip: func(tb testing.TB, db *store.DB, v any) (d, r any) {
			s := *v.(*adjudicator.Seat)
			update(tb, db, func(j adjudicator.Tx, _ *store.Tx) error { return j.PutSeat(s) })
			view(tb, db, func(j adjudicator.Tx, tx *store.Tx) (err error) {
				if d, err = j.Seat(s.Game, s.Name); err == nil {
					r, err = tx.Seat(s.Game, s.Name)
				}
				return err
			})
			return d, r
		},
	},
	"Key": {
		domain: adjudicator.Key{}, record: store.Key{},
		recordOnly: map[string]string{
			"Public": "given to PutKey beside the key, never read back by the judge",
			"Added":  "stamped with the time of the writing transaction",
		},
		roundTrip: func(tb testing.TB, db *store.DB, v any) (d, r any) {
			k := *v.(*adjudicator.Key)
			update(tb, db, func(j adjudicator.Tx, _ *store.Tx) error { return j.PutKey(k, []byte("public")) })
			view(tb, db, func(j adjudicator.Tx, tx *store.Tx) (err error) {
				if d, err = j.Key(k.Fingerprint); err == nil {
					r, err = tx.Key(k.Fingerprint)
				}
				return err
			})
			return d, r
		},
	},
	"StepRecord": {
		domain: adjudicator.StepRecord{}, record: store.Step{},
		recordOnly: map[string]string{
			"Digest": "never filled (a step's digests are in Orders and Dice); kept in the record format",
		},
		roundTrip: func(tb testing.TB, db *store.DB, v any) (d, r any) {
			s := *v.(*adjudicator.StepRecord)
			update(tb, db, func(j adjudicator.Tx, _ *store.Tx) error { return j.PutStep(s) })
			view(tb, db, func(j adjudicator.Tx, tx *store.Tx) (err error) {
				if d, err = j.Step(s.Game, s.Number); err == nil {
					r, err = tx.Step(s.Game, s.Number)
				}
				return err
			})
			return d, r
		},
	},
	"OrderFile": {
		domain: adjudicator.OrderFile{}, record: store.OrderFile{},
		recordOnly: map[string]string{
			"Status": "the store's: every order file the judge adds is \"accepted\"",
		},
		assigned: []string{"Version"},
		roundTrip: func(tb testing.TB, db *store.DB, v any) (d, r any) {
			o := *v.(*adjudicator.OrderFile)
			var n uint64
			update(tb, db, func(j adjudicator.Tx, _ *store.Tx) (err error) { n, err = j.AddOrderFile(o); return err })
			view(tb, db, func(j adjudicator.Tx, tx *store.Tx) (err error) {
				if d, err = j.OrderVersion(o.Game, o.Step, o.Seat, n); err == nil {
					r, err = tx.OrderVersion(o.Game, o.Step, o.Seat, n)
				}
				return err
			})
			return d, r
		},
	},
	"Event": {
		domain: adjudicator.Event{}, record: store.Event{},
		recordOnly: map[string]string{
			"Game": "given to AddEvents beside the events, as the key they are stored under",
			"Step": "given to AddEvents beside the events, as the key they are stored under",
			"Seq":  "assigned by the store",
			"Data": "never filled; kept in the record format",
		},
		roundTrip: func(tb testing.TB, db *store.DB, v any) (d, r any) {
			e := *v.(*adjudicator.Event)
			update(tb, db, func(j adjudicator.Tx, _ *store.Tx) error { return j.AddEvents(pairGame, 7, []adjudicator.Event{e}) })
			view(tb, db, func(j adjudicator.Tx, tx *store.Tx) error {
				ds, err := j.Events(pairGame, 7)
				if err != nil {
					return err
				}
				rs, err := tx.Events(pairGame, 7)
				if err != nil {
					return err
				}
				if len(ds) != 1 || len(rs) != 1 {
					return fmt.Errorf("%d events read by the judge and %d stored, want 1", len(ds), len(rs))
				}
				d, r = ds[0], rs[0]
				return nil
			})
			return d, r
		},
	},
	"DiceSecrets": {
		domain: adjudicator.DiceSecrets{}, record: store.DiceSecrets{},
		roundTrip: func(tb testing.TB, db *store.DB, v any) (d, r any) {
			s := *v.(*adjudicator.DiceSecrets)
			update(tb, db, func(j adjudicator.Tx, _ *store.Tx) error { return j.PutDiceSecrets(pairGame, s) })
			view(tb, db, func(j adjudicator.Tx, tx *store.Tx) (err error) {
				if d, err = j.DiceSecrets(pairGame); err == nil {
					r, err = tx.DiceSecrets(pairGame)
				}
				return err
			})
			return d, r
		},
	},
	"Receipt": {
		domain: adjudicator.Receipt{}, record: store.Receipt{},
		renamed: map[string]string{"Accepted": "Ready"},
		domainOnly: map[string]string{
			"Version": "said in the receipt's mail; the stored order file holds it",
			"Keyed":   "said in the receipt's mail; the dice log's order list holds it",
		},
		recordOnly: map[string]string{
			"ID":     "assigned by the store",
			"MailID": "the store's: the outbox mail that carries the receipt",
		},
		roundTrip: func(tb testing.TB, db *store.DB, v any) (d, r any) {
			rc := *v.(*adjudicator.Receipt)
			update(tb, db, func(j adjudicator.Tx, _ *store.Tx) error { return j.AddReceipt(rc) })
			view(tb, db, func(_ adjudicator.Tx, tx *store.Tx) error {
				rs, err := tx.ReceiptsFor(rc.MessageID)
				if err == nil && len(rs) != 1 {
					err = fmt.Errorf("%d receipts stored, want 1", len(rs))
				}
				if err == nil {
					r = rs[0]
				}
				return err
			})
			return nil, r
		},
	},
	// Problem is stored within a Receipt: its round trip is the Receipt's.
	"Problem": {domain: adjudicator.Problem{}, record: store.Problem{}},
	"CommandRecord": {
		domain: adjudicator.CommandRecord{}, record: store.Command{},
		roundTrip: func(tb testing.TB, db *store.DB, v any) (d, r any) {
			c := *v.(*adjudicator.CommandRecord)
			update(tb, db, func(j adjudicator.Tx, _ *store.Tx) error { return j.PutCommand(c) })
			view(tb, db, func(j adjudicator.Tx, tx *store.Tx) error {
				dc, ok, err := j.Command(c.Key, c.Digest)
				if err == nil && !ok {
					err = fmt.Errorf("command not found")
				}
				if err != nil {
					return err
				}
				rc, _, err := tx.Command(c.Key, c.Digest)
				d, r = dc, rc
				return err
			})
			return d, r
		},
	},
	"Bounce": {
		domain: adjudicator.Bounce{}, record: store.Bounce{},
		recordOnly: map[string]string{
			"Seq":    "assigned by the store",
			"MailID": "the store's: the outbox mail that bounced, when the outbox finds it",
		},
		roundTrip: func(tb testing.TB, db *store.DB, v any) (d, r any) {
			b := *v.(*adjudicator.Bounce)
			update(tb, db, func(j adjudicator.Tx, _ *store.Tx) error { return j.RecordBounce(b) })
			view(tb, db, func(_ adjudicator.Tx, tx *store.Tx) error {
				bs, err := tx.Bounces()
				if err == nil && len(bs) != 1 {
					err = fmt.Errorf("%d bounces stored, want 1", len(bs))
				}
				if err == nil {
					r = bs[0]
				}
				return err
			})
			return nil, r
		},
	},
	"Observer": {
		domain: adjudicator.Observer{}, record: store.Observer{},
		roundTrip: func(tb testing.TB, db *store.DB, v any) (d, r any) {
			o := *v.(*adjudicator.Observer)
			update(tb, db, func(j adjudicator.Tx, _ *store.Tx) error { return j.PutObserver(o) })
			view(tb, db, func(j adjudicator.Tx, tx *store.Tx) error {
				ds, err := j.Observers(o.Game)
				if err != nil {
					return err
				}
				rs, err := tx.Observers(o.Game)
				if err == nil && (len(ds) != 1 || len(rs) != 1) {
					err = fmt.Errorf("%d observers read by the judge and %d stored, want 1", len(ds), len(rs))
				}
				if err == nil {
					d, r = ds[0], rs[0]
				}
				return err
			})
			return d, r
		},
	},
	"Press": {
		domain: adjudicator.Press{}, record: store.Press{},
		recordOnly: map[string]string{"Seq": "assigned by the store"},
		roundTrip: func(tb testing.TB, db *store.DB, v any) (d, r any) {
			p := *v.(*adjudicator.Press)
			update(tb, db, func(j adjudicator.Tx, _ *store.Tx) (err error) { _, err = j.AddPress(p); return err })
			view(tb, db, func(_ adjudicator.Tx, tx *store.Tx) error {
				ps, err := tx.PressOf(p.Game)
				if err == nil && len(ps) != 1 {
					err = fmt.Errorf("%d press stored, want 1", len(ps))
				}
				if err == nil {
					r = ps[0]
				}
				return err
			})
			return nil, r
		},
	},
	"ArchivedGame": {
		domain: adjudicator.ArchivedGame{}, record: store.Archived{},
		recordOnly: map[string]string{
			"Scenario":    "shown by 'umpire game archived', not by the judge's answers",
			"GMKey":       "shown by 'umpire game archived', not by the judge's answers",
			"Created":     "shown by 'umpire game archived', not by the judge's answers",
			"DiceRecords": "shown by 'umpire game archived', not by the judge's answers",
		},
		fromRecord: true,
		roundTrip: func(tb testing.TB, db *store.DB, v any) (d, r any) {
			a := *v.(*store.Archived)
			storetest.MustUpdate(tb, db, func(tx *store.Tx) error {
				if err := tx.PutGame(store.Game{ID: a.ID}); err != nil {
					return err
				}
				return tx.ArchiveGame(a)
			})
			view(tb, db, func(j adjudicator.Tx, tx *store.Tx) error {
				da, ok, err := j.Archived(a.ID)
				if err == nil && !ok {
					err = fmt.Errorf("archived game %q not found", a.ID)
				}
				if err != nil {
					return err
				}
				ra, _, err := tx.Archived(a.ID)
				d, r = da, ra
				return err
			})
			return d, r
		},
	},
}

// TestRecordsMirrorDomain checks that every field of each adjudicator type
// the store keeps has its counterpart in the store's record, and the
// other way round, but for the fields listed with a reason: a field added
// to one side only fails it until the other side (and adjudicatortx.go)
// has it too, or it is listed.
func TestRecordsMirrorDomain(t *testing.T) {
	for name, p := range recordPairs {
		t.Run(name, func(t *testing.T) {
			dt, rt := reflect.TypeOf(p.domain), reflect.TypeOf(p.record)
			counterpart := map[string]bool{}
			for f := range exported(dt) {
				if _, ok := p.domainOnly[f.Name]; ok {
					if _, ok := rt.FieldByName(f.Name); ok {
						t.Errorf("%s.%s is listed as the adjudicator's only, but %s has it", dt, f.Name, rt)
					}
					continue
				}
				want := f.Name
				if r, ok := p.renamed[f.Name]; ok {
					want = r
				}
				if _, ok := rt.FieldByName(want); !ok {
					t.Errorf("%s.%s has no counterpart %s.%s: add it to the record and to adjudicatortx.go, or list it with a reason", dt, f.Name, rt, want)
				}
				counterpart[want] = true
			}
			for f := range exported(rt) {
				_, only := p.recordOnly[f.Name]
				switch {
				case only && counterpart[f.Name]:
					t.Errorf("%s.%s is listed as the store's only, but %s has it", rt, f.Name, dt)
				case !only && !counterpart[f.Name]:
					t.Errorf("%s.%s has no counterpart in %s: add it to the adjudicator's type and to adjudicatortx.go, or list it with a reason", rt, f.Name, dt)
				}
			}
			for f := range p.domainOnly {
				if _, ok := dt.FieldByName(f); !ok {
					t.Errorf("listed field %s.%s does not exist", dt, f)
				}
			}
			for f := range p.recordOnly {
				if _, ok := rt.FieldByName(f); !ok {
					t.Errorf("listed field %s.%s does not exist", rt, f)
				}
			}
		})
	}
}

// TestRecordsRoundTrip writes a value with every field set (by reflection,
// so that a new field is set too) through the judge's view of a real
// store, and checks that the judge reads back what it wrote and that the
// stored record holds each field's value.
func TestRecordsRoundTrip(t *testing.T) {
	for name, p := range recordPairs {
		if p.roundTrip == nil {
			continue
		}
		t.Run(name, func(t *testing.T) {
			db := storetest.MustOpen(t)
			storetest.MustUpdate(t, db, func(tx *store.Tx) error { return tx.PutGame(store.Game{ID: pairGame}) })
			start := p.domain
			if p.fromRecord {
				start = p.record
			}
			v := reflect.New(reflect.TypeOf(start))
			fill(v.Elem(), "", new(int))
			d, r := p.roundTrip(t, db, v.Interface())

			var domain, record reflect.Value
			if p.fromRecord {
				record, domain = v.Elem(), reflect.ValueOf(d)
			} else {
				domain, record = v.Elem(), reflect.ValueOf(r)
				if d != nil {
					want := reflect.New(domain.Type()).Elem()
					want.Set(domain)
					for f := range p.domainOnly {
						zero(want.FieldByName(f))
					}
					got := reflect.New(domain.Type()).Elem()
					got.Set(reflect.ValueOf(d))
					for _, f := range p.assigned {
						zero(want.FieldByName(f))
						zero(got.FieldByName(f))
					}
					if !reflect.DeepEqual(got.Interface(), want.Interface()) {
						t.Errorf("the judge read back\n%+v\nafter writing\n%+v", got.Interface(), want.Interface())
					}
				}
			}
			samePairFields(t, p, domain, record)
		})
	}
}

// samePairFields checks that each field of domain has its value in its
// counterpart in record, for fields of the same type or slices of another
// pair; fields of different types are checked by the judge's read back.
func samePairFields(t *testing.T, p recordPair, domain, record reflect.Value) {
	t.Helper()
	for f := range exported(domain.Type()) {
		if _, ok := p.domainOnly[f.Name]; ok || slices.Contains(p.assigned, f.Name) {
			continue
		}
		rn := f.Name
		if r, ok := p.renamed[f.Name]; ok {
			rn = r
		}
		dv, rv := domain.FieldByName(f.Name), record.FieldByName(rn)
		switch {
		case !rv.IsValid():
			t.Errorf("%s.%s has no counterpart %s.%s", domain.Type(), f.Name, record.Type(), rn)
		case dv.Type() == rv.Type():
			if !reflect.DeepEqual(dv.Interface(), rv.Interface()) {
				t.Errorf("%s.%s is stored as %v, want %v", record.Type(), rn, rv.Interface(), dv.Interface())
			}
		case dv.Kind() == reflect.Slice && dv.Type().Elem().Kind() == reflect.Struct && rv.Kind() == reflect.Slice:
			inner, ok := recordPairs[dv.Type().Elem().Name()]
			if !ok || reflect.TypeOf(inner.record) != rv.Type().Elem() {
				t.Errorf("%s.%s: no pair for %s and %s", domain.Type(), f.Name, dv.Type().Elem(), rv.Type().Elem())
				continue
			}
			if dv.Len() != rv.Len() {
				t.Errorf("%s.%s holds %d, want %d", record.Type(), rn, rv.Len(), dv.Len())
				continue
			}
			for i := range dv.Len() {
				samePairFields(t, inner, dv.Index(i), rv.Index(i))
			}
		case p.fromRecord || p.roundTrip == nil:
			t.Errorf("%s.%s is a %s, %s.%s a %s: nothing reads it back to compare", domain.Type(), f.Name, dv.Type(), record.Type(), rn, rv.Type())
		}
	}
}

// exported yields the exported fields of struct type t.
func exported(t reflect.Type) func(func(reflect.StructField) bool) {
	return func(yield func(reflect.StructField) bool) {
		for f := range t.Fields() {
			if f.IsExported() && !yield(f) {
				return
			}
		}
	}
}

// fill sets every settable part of v to a value that is not zero and
// differs from the other parts: a string holds its field's name (so that a
// Game field names pairGame), a number the next count.
func fill(v reflect.Value, name string, n *int) {
	*n++
	switch v.Kind() {
	case reflect.String:
		v.SetString(name)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if v.Type() == reflect.TypeFor[time.Duration]() {
			v.SetInt(int64(*n) * int64(time.Second))
			return
		}
		v.SetInt(int64(*n))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(*n % 100))
	case reflect.Array:
		for i := range v.Len() {
			fill(v.Index(i), name, n)
		}
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			fill(s.Index(i), fmt.Sprint(name, i), n)
		}
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k, name+"-key", n)
		fill(e, name, n)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(p.Elem(), name, n)
		v.Set(p)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.Date(2026, 1, 2, 3, 4, *n, 0, time.UTC)))
			return
		}
		for f := range exported(v.Type()) {
			fill(v.FieldByIndex(f.Index), f.Name, n)
		}
	default:
		panic(fmt.Sprintf("fill: no value for a %s", v.Type()))
	}
}

func zero(v reflect.Value) { v.Set(reflect.Zero(v.Type())) }

func update(tb testing.TB, db *store.DB, fn func(adjudicator.Tx, *store.Tx) error) {
	tb.Helper()
	storetest.MustUpdate(tb, db, func(tx *store.Tx) error {
		return fn(tx.Judge("judge@example.org", time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)), tx)
	})
}

func view(tb testing.TB, db *store.DB, fn func(adjudicator.Tx, *store.Tx) error) {
	tb.Helper()
	storetest.MustView(tb, db, func(tx *store.Tx) error {
		return fn(tx.Judge("judge@example.org", time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)), tx)
	})
}
