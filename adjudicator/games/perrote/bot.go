package perrote

import (
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// Bot returns a simple, legal order file body for seat in the turn open
// in state: each unit stands and shoots the target it can hurt most in
// range and line of sight; one that has none moves toward the nearest
// objective its side does not hold, or else the nearest enemy, and shoots
// after one hex if it then can. Passengers get out near the enemy; sneak
// attack units come on out of the enemy's reach. It is deterministic.
func Bot(state []byte, seat string) ([]string, error) {
	s, err := decode(state)
	if err != nil {
		return nil, err
	}
	if s.Over || s.side(seat) == nil {
		return nil, nil
	}
	b := &bot{t: evalTurn(s), seat: seat}
	var lines []string
	for _, u := range s.Units {
		if u.Side != seat || u.Eliminated() {
			continue
		}
		lines = append(lines, b.orders(u)...)
	}
	// keep only what the parser accepts, so the file is always valid.
	var in []adjudicator.OrderLine
	for i, l := range lines {
		in = append(in, adjudicator.OrderLine{Line: i + 1, Text: l})
	}
	parsed, _ := parseOrders(s, seat, in)
	out := make([]string, len(parsed))
	for i, o := range parsed {
		out[i] = o.String()
	}
	return out, nil
}

// evalTurn is a turn for looking, not rolling: nobody has moved yet.
func evalTurn(s *State) *turn {
	return &turn{s: s, f: newField(s), n: s.Turn + 1, orders: map[string]*unitOrders{}, roll: map[string]int{}, number: map[string]int{},
		acted: map[string]bool{}, placed: map[string]bool{}, moved: map[string]int{}, ports: map[string]bool{}, heavy: map[string]bool{},
		melees: map[string]string{}}
}

type bot struct {
	t    *turn
	seat string
}

func (b *bot) orders(u *unitState) []string {
	t, s := b.t, b.t.s
	switch {
	case u.Reserve:
		if h, ok := b.entry(u); ok {
			return []string{"enter " + u.ID + " " + t.f.format(h)}
		}
		return nil
	case u.Kind == kindVehicle && u.StunnedTurn == s.Turn+1:
		return nil
	case u.Aboard != "":
		if v := s.unit(u.Aboard); v != nil {
			if vh, ok := t.f.parse(v.Hex); ok && t.nearestEnemy(u, vh) <= 6 && t.blockedFor(u, vh, false) == "" {
				return []string{"disembark " + u.ID}
			}
		}
		return nil
	}
	from, ok := t.f.parse(u.Hex)
	if !ok || (u.Kind == kindTroops && t.enemyTroopsAt(u, u.Hex)) {
		return nil
	}
	if carries(u, "mortar") {
		if x := b.nearestEnemyUnit(u, from, 15); x != nil {
			return []string{"mortar " + u.ID + " at " + x.Hex}
		}
	}
	if x, v := b.bestTarget(u, from, 0); v > 0 {
		return []string{"shoot " + u.ID + " at " + x.ID}
	}
	m := t.morale(u)
	if m == fallingBack || m == pinned {
		return nil
	}
	all, shoot := maxMove(u)
	path := b.path(u, from, all)
	if len(path) == 0 {
		return nil
	}
	if shoot > 0 && len(path) >= shoot {
		if x, v := b.bestTarget(u, path[shoot-1], shoot); v > 0 {
			return []string{"move " + u.ID + " " + b.hexes(path[:shoot]), "shoot " + u.ID + " at " + x.ID}
		}
	}
	return []string{"move " + u.ID + " " + b.hexes(path)}
}

func (b *bot) hexes(path []board.ID) string {
	var out []string
	for _, h := range path {
		out = append(out, b.t.f.format(h))
	}
	return strings.Join(out, " ")
}

// bestTarget is the enemy unit u would hurt most from hex from, having
// moved moved hexes: expected hits, a vehicle hit worth eight men.
func (b *bot) bestTarget(u *unitState, from board.ID, moved int) (*unitState, float64) {
	t := b.t
	occ := t.occupied()
	if h, ok := t.f.parse(u.Hex); ok {
		delete(occ, h)
	}
	var best *unitState
	bestV := 0.0
	for _, x := range t.inPlay() {
		if x.Side == u.Side || x.Hex == "" {
			continue
		}
		to, _ := t.f.parse(x.Hex)
		if see, _ := t.lineOfFire(from, to, occ); !see {
			continue
		}
		dist := t.f.g.Distance(from, to)
		vols, _ := t.chooseArms(u, &order{Mode: "kill"}, x, from, to, dist, moved)
		v := 0.0
		for _, vol := range vols {
			s := t.shotAt(vol.w, from, x, to, moved)
			s.Weapons = len(vol.refs)
			v += expected(s)
		}
		if x.Kind == kindVehicle {
			v *= 8 // a vehicle hit rolls damage: worth many men
		}
		if v > bestV+1e-9 {
			best, bestV = x, v
		}
	}
	return best, bestV
}

func (b *bot) nearestEnemyUnit(u *unitState, from board.ID, within int) *unitState {
	var best *unitState
	bd := within + 1
	for _, x := range b.t.inPlay() {
		if x.Side == u.Side || x.Hex == "" {
			continue
		}
		h, _ := b.t.f.parse(x.Hex)
		if d := b.t.f.g.Distance(from, h); d < bd {
			best, bd = x, d
		}
	}
	return best
}

// goals are the hexes u heads for: the objectives its side does not hold,
// or else the enemy's hexes.
func (b *bot) goals(u *unitState) []board.ID {
	t := b.t
	var out []board.ID
	for _, o := range t.s.Objectives {
		if o.Holder != u.Side {
			h, _ := t.f.parse(o.Hex)
			out = append(out, h)
		}
	}
	if len(out) == 0 {
		for _, x := range t.inPlay() {
			if x.Side != u.Side && x.Hex != "" {
				h, _ := t.f.parse(x.Hex)
				out = append(out, h)
			}
		}
	}
	return out
}

// path is up to n steps toward the nearest goal, ending where u may stop.
func (b *bot) path(u *unitState, from board.ID, n int) []board.ID {
	t := b.t
	goals := b.goals(u)
	if len(goals) == 0 || n == 0 {
		return nil
	}
	// distances to the goals over passable hexes.
	dist := map[board.ID]int{}
	queue := []board.ID{}
	for _, g := range goals {
		if _, ok := dist[g]; !ok {
			dist[g] = 0
			queue = append(queue, g)
		}
	}
	for len(queue) > 0 {
		h := queue[0]
		queue = queue[1:]
		for _, nb := range t.f.g.Neighbours(h) {
			if _, ok := dist[nb]; ok || !t.f.passable(nb) {
				continue
			}
			dist[nb] = dist[h] + 1
			queue = append(queue, nb)
		}
	}
	d0, ok := dist[from]
	if !ok || d0 == 0 {
		return nil
	}
	var path []board.ID
	cur := from
	for range n {
		var next board.ID
		found := false
		for _, nb := range t.f.g.Neighbours(cur) {
			d, ok := dist[nb]
			if !ok || d >= dist[cur] || t.blockedFor(u, nb, true) != "" {
				continue
			}
			next, found = nb, true
			break
		}
		if !found {
			break
		}
		path = append(path, next)
		cur = next
	}
	for len(path) > 0 && t.blockedFor(u, path[len(path)-1], false) != "" {
		path = path[:len(path)-1]
	}
	return path
}

// entry is where a sneak attack unit comes on: a hex it may use (the edge
// for edge units) at least five hexes from the enemy, closest to a goal.
func (b *bot) entry(u *unitState) (board.ID, bool) {
	t := b.t
	goals := b.goals(u)
	var best board.ID
	bd, found := 1<<30, false
	for _, h := range t.f.g.All() {
		if u.Sneak == "edge" && !onEdge(t.f.g, h) || t.blockedFor(u, h, false) != "" || t.nearestEnemy(u, h) < 5 {
			continue
		}
		d := 1 << 20
		for _, g := range goals {
			d = min(d, t.f.g.Distance(h, g))
		}
		if d < bd {
			best, bd, found = h, d, true
		}
	}
	return best, found
}
