// Package signature checks the signatures on players' order files.
//
// A player is identified by a public key, never by a mail address. Two
// families of signature are accepted, made with tools players already have:
//
//   - OpenPGP, made with gpg: a clear-signed body (gpg --clearsign), a
//     detached signature (gpg --detach-sign, armored .asc or binary .sig)
//     over an attached file, or PGP/MIME multipart/signed (RFC 3156), which
//     the MIME layer hands over as a detached signature and the exact bytes
//     of the signed part. Signatures by signing subkeys are accepted and
//     credited to the primary key.
//   - SSH signatures made with ssh-keygen -Y sign -f KEY -n umpire FILE
//     (OpenSSH PROTOCOL.sshsig) with ed25519, ecdsa (nistp256, nistp384,
//     nistp521) or rsa keys (rsa-sha2-256 or rsa-sha2-512 signatures). The
//     namespace must be "umpire"; a signature made for any other namespace
//     is refused with ErrWrongNamespace.
//
// # What bytes are signed
//
// Verified.Signed holds the exact bytes a signature covers; their SHA-256 is
// the order digest quoted on receipts. Verified.Content holds the text the
// orders parser reads.
//
// Clear-signed bodies: only the text between the "-----BEGIN PGP SIGNED
// MESSAGE-----" block's header and its "-----BEGIN PGP SIGNATURE-----" line
// counts; anything before or after the block (quoted replies, mail footers)
// is ignored. As RFC 4880 section 7.1 specifies, the signature covers that
// text with dash-escaping ("- ") undone, trailing blanks removed from every
// line, lines joined by CRLF and no final line ending, and Signed is exactly
// that. Because of this canonical form a clear-signed body verifies, with
// the same digest, whether the transport delivered it with LF or CRLF line
// endings. Content is the same text joined by LF.
//
// Inline SSH (and inline OpenPGP) signatures: a body holding the order text
// followed by an armored signature block, as "cat orders.txt orders.txt.sig"
// (or orders.txt.asc) gives. The signed bytes are everything in the body
// before the "-----BEGIN SSH SIGNATURE-----" (or "-----BEGIN PGP
// SIGNATURE-----") marker, exactly as sent, up to and including the line
// ending before the marker; the marker need not start a line, so an order
// file without a final newline works too. Text after the END line is
// ignored. Mail programs change text, so when the bytes as sent do not
// verify these are tried, in order, and the first that verifies is Signed
// and Content:
//
//  1. the whole text as sent, with every CRLF turned into LF, and in
//     CanonicalCRLF form (every bare LF turned into CRLF);
//  2. in each of those forms, the text from each later line start on (at
//     most 100 lines are skipped, and none for a text over 256 KiB), which
//     covers a greeting the player typed above the pasted orders.
//
// Detached signatures (VerifyDetached, and PGP/MIME): the content is tried
// as given, then with CRLF turned into LF, then in CanonicalCRLF form;
// Signed is the variant that verified and Content is the content as given.
// RFC 3156 signs the MIME part (its headers and body) in canonical CRLF
// form, so a MIME layer should hand over the part's bytes exactly as they
// appear in the message, from the first byte of its headers to the CRLF
// before the boundary line (excluded), and VerifyDetached tries the CRLF
// form if those bytes came with LF endings.
//
// # Keys
//
// OpenPGP signatures name their key by issuer fingerprint (or, in old
// signatures, only by key ID), which may be a subkey's: Keys.Lookup is asked
// for those, and Key.IDs lists every id a key answers to. SSH signatures
// embed the public key; it is looked up by its SHA256 fingerprint, and the
// signature is checked before the lookup, so an UnknownKeyError for SSH
// names a key that really did sign.
//
// # Errors
//
// Every error wraps exactly one of ErrNoSignature, ErrUnknownKey,
// ErrBadSignature, ErrWrongNamespace, ErrMalformed, ErrExpiredOrRevoked and
// ErrWeak, and its message gives a reason a player can act on. No input
// makes the package panic.
//
// # Weak signatures
//
// A good OpenPGP signature is refused with ErrWeak when it hashes with
// SHA-1, MD5 or RIPEMD-160, or when its key is DSA, ElGamal or RSA under
// 2048 bits. SSH signatures with SHA-1 (ssh-rsa) or DSA keys are refused as
// ErrMalformed when they are read.
//
// # Key updates
//
// MergeKey merges a known OpenPGP key exported again (a new expiry, new
// self-signatures, a revocation) or a bare revocation certificate into the
// stored copy, taking only signatures the key itself made and dropping
// nothing already known.
package signature
