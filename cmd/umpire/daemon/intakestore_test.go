package daemon

import (
	"reflect"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/mail/intake"
	"github.com/umpire-pbem/umpire/store"
)

// TestQuarantinedRecordsAgree: the store's record of a message set aside
// and the intake's carry the same fields, and every field survives the
// trip between them (a field added to one side only fails here).
func TestQuarantinedRecordsAgree(t *testing.T) {
	st, in := reflect.TypeFor[store.Quarantined](), reflect.TypeFor[intake.Quarantined]()
	if st.NumField() != in.NumField() {
		t.Fatalf("store.Quarantined has %d fields, intake.Quarantined %d", st.NumField(), in.NumField())
	}
	var q store.Quarantined
	v := reflect.ValueOf(&q).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		if in.Field(i).Name != st.Field(i).Name {
			t.Errorf("field %d: %s in the store, %s in the intake", i, st.Field(i).Name, in.Field(i).Name)
		}
		switch f.Kind() {
		case reflect.String:
			f.SetString("x" + st.Field(i).Name)
		case reflect.Int:
			f.SetInt(int64(i + 1))
		case reflect.Uint32, reflect.Uint64:
			f.SetUint(uint64(i + 1))
		case reflect.Array:
			f.Index(0).SetUint(uint64(i + 1))
		case reflect.Struct:
			f.Set(reflect.ValueOf(time.Unix(int64(i+1000), 0).UTC()))
		default:
			t.Fatalf("field %s of kind %s: teach this test to fill it", st.Field(i).Name, f.Kind())
		}
	}
	if back := toStoreQuarantined(fromStoreQuarantined(q)); !reflect.DeepEqual(back, q) {
		t.Errorf("a record's trip through the intake changed it:\n%+v\n%+v", q, back)
	}
}
