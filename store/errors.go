package store

import "errors"

// Errors of the store. They are wrapped with the record or path they concern;
// test for them with errors.Is.
var (
	// ErrNotFound: the record asked for is not stored.
	ErrNotFound = errors.New("not found")
	// ErrNewerSchema: the file was written by a newer umpire.
	ErrNewerSchema = errors.New("upgrade umpire before opening it")
	// ErrInUse: another process holds the file's lock.
	ErrInUse = errors.New("in use by another umpire process")
	// ErrNotStore: the file is not a bbolt database, or not umpire's.
	ErrNotStore = errors.New("not an umpire store")
	// ErrSequence: a dice record does not follow the head of the game's log.
	ErrSequence = errors.New("dice record out of sequence")
	// ErrConflict: a write would change a record that may only be written once.
	ErrConflict = errors.New("conflicts with the stored record")
	// ErrNotQueued: an outbox mail was marked that is already sent or failed.
	ErrNotQueued = errors.New("mail is not queued")
)
