// Package dice implements umpire's verifiable dice, scheme umpire-dice-v3,
// which new games use, specified in docs/dice-log.md. Its logs extend
// those of umpire-dice-v2, which games created before v3 and the dice
// service keep: this package reads, writes and verifies both, told apart
// by the header's Scheme. The first scheme, umpire-dice-v1, is package
// legacy's.
//
// A game's log is a sequence of typed records (Header, Start, Step, Draw,
// KeyReveal, Rollback, the end) in one hash chain (Ledger; Record.HeadAfter). Step k's open dice come from open[k] of a
// reverse hash chain (Chain), its hidden draws from keys of their own, StreamKey(sealed root,
// k, stream), published as keyed commitments (Draw.Commit). D_k
// (Ledger.StepDigest) binds a step's dice to its game, phase,
// seat-attributed order list (OrderEntry), the start record's head h_2
// and, optionally, a drand beacon round (beacon.Verifier checks its BLS
// signature). Order digests are keyed by each seat's order salt
// (OrderSalt, OrderDigest); the start record (NewStart) holds each seat's
// signed join and salt commitment; a beacon's delay has a floor
// (beacon.MinDelay); closes never decrease. WriteExport writes the public
// export (format Version 3, or 2 for a v2 log); VerifyStream checks one of
// either version in a single streaming pass in constant memory, strictly
// (VerifyOptions.Salts checks a seat's salt).
//
// # Drawing
//
// A game's rules draw through a Roller: r.Draw(stream, spec, purpose), with
// stream Open (dice.Open, "open": dice everyone sees) or one of the hidden
// streams the game names (adjudicator.HiddenStreams: "deck", "hand-a",
// "cup"...), with a spec of package spec: spec.DiceFrom(1, 10, 0) for the d10
// read 0-9, spec.Chit(m) for one of m chits. Roll (open dice 1..faces) and
// Shuffle (a permutation) are the two shorthands. Draw panics on a stream the game did not name
// or a spec out of limits: both are bugs of the game's code. In a v1 game
// (legacy.StepRoller) every hidden stream name maps onto the step's one
// sealed link, so old games replay draw for draw.
//
// # Revealing
//
// A hidden stream stays sealed until the game ends, unless the rules say
// its secrecy is spent: call Reveal(r, stream) during the step in which
// showing the stream's draws can no longer leak anything (a deck played
// out, a hand laid down). The judge then publishes, in reveal records, the
// stream's key of every earlier step that drew from it, and of the current
// step too unless the rules draw from the same stream again later in the
// step (a reshuffle, which that key now hides; it is published at a later
// Reveal or at the end). A deck that is reshuffled should draw the new
// shuffle after the Reveal: its order stays hidden. Rollers that cannot
// reveal (v1 games, calculators) ignore Reveal.
package dice
