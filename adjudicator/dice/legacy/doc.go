// Package legacy holds the dice schemes older than umpire-dice-v3 that the
// games created under them keep (Scheme): umpire-dice-v1 whole, specified
// in the appendix of docs/dice-log.md, and the names of both.
//
// A v1 game's log is one hash chain of entries (Log, Entry, EntryRecord)
// from LogStart; step k's dice come from link k of an open and a sealed
// chain (Chain, PrevLink) under D_k (StepDigest), drawn by a StepRoller,
// which the rules see as a dice.Roller like any other; Export is its
// public export (format version 1), which Verify checks. OrderDigest, the
// SHA-256 of an order file's signed bytes, is the order digest of v1 and
// v2 (v3 keys it: dice.OrderDigest).
//
// umpire-dice-v2 logs (Records) are typed-record logs that umpire-dice-v3
// extends: package dice reads, writes and verifies them itself, told apart
// by their header, so that one streaming verifier checks both.
//
// This package imports dice; dice does not import it.
package legacy
