package perrote

import (
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// shot is one weapon firing at one target (Shooting).
type shot struct {
	Weapon weapon
	Target target
	Armor  armor  // vehicles only
	Facing facing // the side struck, for armored vehicles
	Cover  cover
	// Linear says the cover is linear (hedge, fence, riverbank); it counts
	// only when it lies between the majority of the target and the shooter,
	// which Between says (Cover). Linear cover of no stated strength is
	// light cover.
	Linear, Between bool
	// MovedMax: the target moved its maximum this turn (two hexes for
	// troops, four for vehicles).
	MovedMax bool
	// WeaponMoved: the firing weapon moved this turn.
	WeaponMoved bool
	// Models in the target hex, for hex weapons.
	Models    int
	BodyArmor bodyArmor
	// Weapons is how many weapons of the kind fire together at the
	// target, rolling their dice as one draw; 0 counts as one.
	Weapons int
	// Purpose, when set, replaces the dice purpose (it should name the
	// rule, the firer and the target).
	Purpose string
}

// shotError is a shot the rules do not allow; Field names the input at
// fault.
type shotError struct {
	Field string
	Msg   string
}

func (e *shotError) Error() string { return "perrote: " + e.Field + ": " + e.Msg }

// Check reports a shot the rules forbid: armor on a target that is not a
// vehicle, a sniper rifle that moved (Sniper Rifles), no models.
func (s shot) Check() error {
	if s.Armor != noArmor && s.Target != vehicle {
		return &shotError{"armor", "only vehicles have armor classes; light vehicles are shot at as troops"}
	}
	if s.Weapon.NoMoveAndFire && s.WeaponMoved {
		return &shotError{"weapon_moved", article(s.Weapon.Name) + " " + s.Weapon.Name + " cannot move and fire in the same turn"}
	}
	if s.Models < 1 {
		return &shotError{"models", "at least one model is in the target hex"}
	}
	return nil
}

// modifier is one change to the wound number and the rule giving it.
type modifier struct {
	Value int
	Why   string
	Rule  string
}

// Modifiers lists every modifier to the target's wound number, in the
// order the rulebook gives them: movement, the weapon's special effect,
// armor facing, cover, body armor.
func (s shot) Modifiers() []modifier {
	var mods []modifier
	add := func(v int, why, rule string) {
		if v != 0 {
			mods = append(mods, modifier{v, why, rule})
		}
	}
	// Shooting: a target that moved its maximum is harder to hit.
	if s.MovedMax {
		add(1, "moved its maximum", ruleShooting)
	}
	w := s.Weapon
	if s.Target.ShotAsTroops() {
		add(w.TroopMod, w.Name+" against troops", w.Rule)
	} else {
		add(w.VehicleMod, w.Name+" against vehicles", w.Rule)
	}
	if s.Target == vehicle {
		rule := ruleTanks
		if s.Armor == afv {
			rule = ruleAFV
		}
		add(armorModifier(s.Armor, s.Facing), "armor facing", rule)
	}
	// Cover: the whole hex counts; linear cover only when between.
	if c := s.cover(); c != noCover && !w.IgnoresCover {
		add(c.Modifier(), "cover", ruleCover)
	}
	if s.BodyArmor == plusOne && s.BodyArmor.Works(s.Target, w) {
		add(1, "body or reactive armor", ruleBodyArmor)
	}
	return mods
}

// cover is the cover that counts (Cover): linear cover only when it lies
// between the target's majority and the shooter, and linear cover of no
// stated strength is light.
func (s shot) cover() cover {
	if !s.Linear {
		return s.Cover
	}
	if !s.Between {
		return noCover
	}
	if s.Cover == noCover {
		return lightCover
	}
	return s.Cover
}

// WoundNumber is the lowest face that hits (Shooting): the target's base
// number plus every modifier; ones always miss, so never below 2. Seven or
// more cannot be hit.
func (s shot) WoundNumber() int {
	n := s.Target.BaseWound()
	for _, m := range s.Modifiers() {
		n += m.Value
	}
	return max(n, 2)
}

// DiceCount is the dice the shot rolls (Shooting, Movement).
func (s shot) DiceCount() int {
	return max(s.Weapons, 1) * s.Weapon.DiceCount(s.Models, s.WeaponMoved)
}

// shotResult is what the shooting dice did.
type shotResult struct {
	Wound      int
	DiceRolled int
	Faces      []int
	// Rerolled are the re-rolls of the hitting dice the target's body
	// armor forced (re-roll option), in order.
	Rerolled []int
	Hits     int
	// Over is, per hit, how far its face went over the wound number: the
	// bonus to a vehicle damage roll (Vehicle Damage).
	Over []int
}

// Fire rolls the shooting dice (Shooting). A shot that cannot hit (wound
// number 7 or more) rolls nothing. With the re-roll body armor option the
// shooter re-rolls each hitting die once and the re-roll stands.
func (s shot) Fire(r dice.Roller) shotResult {
	res := shotResult{Wound: s.WoundNumber(), Over: []int{}, Faces: []int{}, Rerolled: []int{}}
	if res.Wound > 6 {
		return res
	}
	res.DiceRolled = s.DiceCount()
	purpose := s.Purpose
	if purpose == "" {
		purpose = fmt.Sprintf("Per Rote shooting, %s needing %d+", s.Weapon.Name, res.Wound)
	}
	res.Faces = dice.Roll(r, res.DiceRolled, 6, purpose)
	hits := []int{}
	for _, f := range res.Faces {
		if f >= res.Wound {
			hits = append(hits, f)
		}
	}
	if s.BodyArmor == reroll && s.BodyArmor.Works(s.Target, s.Weapon) && len(hits) > 0 {
		why := "Per Rote body armor re-roll of the hits"
		if s.Purpose != "" {
			why = "Per Rote Body Armor: re-roll of the hits, " + s.Purpose
		}
		res.Rerolled = dice.Roll(r, len(hits), 6, why)
		hits = hits[:0]
		for _, f := range res.Rerolled {
			if f >= res.Wound {
				hits = append(hits, f)
			}
		}
	}
	res.Hits = len(hits)
	for _, f := range hits {
		res.Over = append(res.Over, f-res.Wound)
	}
	return res
}
