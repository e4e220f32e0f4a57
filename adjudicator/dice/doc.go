// Package dice implements umpire's verifiable dice: umpire-dice-v3, which
// new games use, umpire-dice-v2 and umpire-dice-v1, which games created
// before keep. All three are specified in docs/dice-log.md (v1 in its
// appendix).
//
// umpire-dice-v3 is v2 with four changes: order digests keyed by each
// seat's order salt (OrderSalt, OrderDigestV3), a start record (Start,
// NewStart) of each seat's signed join and salt commitment that v3's D_k
// (StepDigestV3) covers through h_2, a beacon delay floor
// (MinBeaconDelay), and closes that never decrease; a v3 Header has
// Scheme SchemeV3, WriteExportV3 writes export version 3, and
// VerifyStream reads versions 2 and 3 (VerifyOptions.Salts checks a
// seat's salt).
//
// umpire-dice-v2: a game's log is a sequence of typed records (Header,
// Step, Draw, KeyReveal, Rollback, the end) in one hash chain (Ledger, head
// h_i = NextHead). Step k's open dice come from open[k] of a reverse hash
// chain (Chain with V2), its hidden draws from keys of their own,
// StreamKey(sealed root, k, stream), published as keyed commitments
// (Draw.Commit). D_k (StepDigestV2) binds a step's dice to its game, phase,
// seat-attributed order list (OrderEntry) and, optionally, a drand beacon
// round (BeaconVerifier checks its BLS signature). WriteExportV2 writes the
// public export; VerifyStream checks one in a single streaming pass in
// constant memory, strictly.
//
// # Drawing
//
// A game's rules draw through a Roller: r.Draw(stream, spec, purpose), with
// stream Open (dice.Open, "open": dice everyone sees) or one of the hidden
// streams the game names (adjudicator.HiddenStreams: "deck", "hand-a",
// "cup"...). The helpers Roll and RollFrom roll open dice, DrawChit and
// Shuffle take the stream. Draw panics on a stream the game did not name
// or a spec out of limits: both are bugs of the game's code. In a v1 game
// (StepRoller) every hidden stream name maps onto the step's one sealed
// link, so old games replay draw for draw.
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
