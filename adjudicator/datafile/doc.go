// Package datafile reads the TOML files a game master sends: game files,
// maps, counters, tables, cards. Anyone may send one (a game is created by
// any signed stranger), so every file is measured before it is decoded:
// a file larger than MaxSize, or nested deeper than MaxDepth (arrays,
// inline tables, dotted keys and table headers together), is refused at
// once with its line, instead of being handed to a decoder whose cost
// grows with the square of the depth. Decoding is strict: a key the
// file's format does not hold is refused with its line, and a refusal
// names at most a few of them, never every prefix of a nested one.
//
// Parsed files are kept in a Cache bounded by entries, so that files
// differing only in a comment cannot fill the judge's memory.
//
// Files:
//
//	fileerror.go  FileError (file, line, field) and FieldLine
//	limits.go     Check: the size and depth of a file, before decoding
//	decode.go     Decode (strict) and DecodeLoose, the only TOML decoders
//	typeerror.go  the line and field of a value of the wrong type
//	cache.go      Cache, parsed files by content, least recently used out
package datafile
