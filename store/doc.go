// Package store keeps everything umpire knows in one bbolt file: games,
// seats, public keys, every version of every order file, adjudicated steps,
// events, the dice log with its secret chain roots, mailbox checkpoints,
// consumed messages, the outbox and receipts.
//
// Every decision is written by one Update, so it is on disk completely or
// not at all, also across kill -9; side effects such as sending mail happen
// only after that Update has returned. The store never reads the clock:
// callers pass in every time it records.
//
// Records are stored as JSON so that fields can be added; sequence numbers
// are big-endian uint64 keys so that they sort. The layout (schema version 1):
//
//	meta/                       schema version, instance id
//	keys/<fingerprint>          Key (the bucket's sequence: the keyring's version)
//	key-changes/<version>       fingerprint of the key put at that version
//	games/<id>/                 "game": Game
//	    seats/<name>                              Seat
//	    orders/<step><len(seat)><seat><version>   OrderFile
//	    order-digests/<step><len(seat)><seat><digest>  version
//	    steps/<number>                            Step
//	    events/<step><seq>                        Event
//	    dice/<seq>                                dice record
//	    links/<step>                              StepLinks
//	    secrets/"dice"                            DiceSecrets, never exported
//	mailboxes/<mailbox>         Checkpoint
//	consumed/<digest>           Consumed
//	message-ids/<sha256(id)>    digest of the consumed message with that Message-ID
//	outbox/<id>                 Mail, until pruned (retention.go); a body of 512 bytes or
//	                            more is kept compressed in "body_z" (compress.go)
//	queue/<id>                  present while that mail is queued
//	outbox-ids/<sha256(message-id)>  id of the outbox mail with that Message-ID, for a
//	                            Message-ID given to Enqueue (an assigned one names its id)
//	bounces/<seq>               Bounce
//	receipts/<id>               Receipt
//	receipt-index/<sha256(message-id)><id>
//
// Buckets made when first written (guard.go), which an older store simply
// lacks:
//
//	commands/<sha256(key, digest)>   Command: a signed command carried out
//	reply-limits/<sha256(who)>       Replies: answers to a key or address this hour
//	held/<id>                        present while outbox mail id is held back
//	queue-reports/<id>               present while that report is queued (its lane)
//	rendered/<id>, pictures/, picture-refs/  a queued report's rendering (rendered.go),
//	                                 the rendering compressed from 512 bytes on
//	done/<time><id>                  a mail sent or given up, until pruned (retention.go)
//	mail-records/<id/64>             the records of pruned mails (mailrecords.go)
//	games/<id>/observers/<fingerprint>  Observer: a key following the game (observers.go)
//	games/<id>/press/<seq>              Press: a press the judge relayed (press.go)
//	games/<id>/map-image/meta, image    MapImage and its bytes: the game master's map art (mapimage.go)
//	archived/<id>                    Archived: the record of a game moved out of the store into
//	                                 its export file (archive.go); games/<id> and its due-time
//	                                 entry are gone
//	ended/<id>                       when a stored game ended, until it is archived (archive.go)
//	quarantine/<id>                  Quarantined: a message the judge set aside (quarantine.go)
//	quarantine-raw/<id>              its raw text, compressed, until it is dropped
//	quarantine-digests/<digest>      the id of the message set aside with that digest
//	intake-inflight/<digest>         InFlight: a message whose processing began and has not ended
package store
