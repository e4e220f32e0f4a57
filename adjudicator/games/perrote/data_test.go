package perrote

import "testing"

// TestForcesNameKnownWeapons checks the army lists only name weapons of the
// weapon table.
func TestForcesNameKnownWeapons(t *testing.T) {
	check := func(who string, a armament) {
		if _, err := weaponByKey(a.Weapon); err != nil {
			t.Errorf("%s: %v", who, err)
		}
	}
	for _, v := range vehicleTypes {
		if len(v.FireGroups) == 0 {
			t.Errorf("%s has no weapons", v.Key)
		}
		for _, g := range v.FireGroups {
			for _, a := range g {
				check(v.Key, a)
			}
		}
	}
	for _, s := range squadTypes {
		for _, a := range s.Weapons {
			check(s.Key, a)
		}
	}
}

// TestWeaponTable checks the table's keys are unique and every weapon can
// shoot.
func TestWeaponTable(t *testing.T) {
	seen := map[string]bool{}
	for _, w := range weapons {
		if seen[w.Key] || w.Range < 1 || w.Dice < 1 || w.Rule == "" {
			t.Errorf("bad weapon line %+v", w)
		}
		seen[w.Key] = true
	}
	if len(damageTable) != 6 {
		t.Fatal("the damage chart has six lines")
	}
	for i, e := range damageTable {
		if e.Result != i+1 {
			t.Errorf("damage line %d reads %d", i+1, e.Result)
		}
	}
}
