// Package perrote is Per Rote OSR, a squad-level skirmish game, as a hosted
// game: simultaneous orders each turn (move, face, shoot, charge, mortar,
// smoke, embark, split, casualties), resolved in turn order with morale and
// hand to hand; embedded scenarios, or a game master's own scenario file. It
// exports Game, the adjudicator.Rules the judge's registry lists, and
// Calculator, its umpire resolve procedures; everything else is the game's
// own. It is built on package kit (data files, order lines) and refuses order
// lines with adjudicator.Refuse. The orders, scenarios and tables are
// documented in docs/orders-perrote.md, docs/scenario-perrote.md.
//
// Files, one a rule or procedure, named after it:
//
//	armor.go bot.go brief.go calculator.go damage.go facing.go fire.go
//	forces.go game.go handtohand.go melee.go morale.go mortar.go movement.go
//	orders.go procedures.go report.go roster.go rules.go scenario.go
//	shooting.go smoke.go sneak.go state.go terrain.go turn.go turnorder.go
//	victory.go weapons.go
package perrote
