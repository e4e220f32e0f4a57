// The BLS signature check of drand beacon rounds (docs/dice-log.md section
// 5), for the in-browser verifier: WebCrypto has no pairings, so this uses
// @noble/curves (MIT; vendored unchanged but for its imports of
// @noble/hashes, made relative: README.md beside this file).
import { bls12_381 } from "./noble-curves/bls12-381.js";

const DST = "BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_";
const sigs = bls12_381.shortSignatures; // signatures on G1, keys on G2

// checkPublicKey returns null for a compressed G2 point on the curve, in
// the subgroup and not the identity; otherwise the problem.
export function checkPublicKey(pk) {
	try {
		const p = bls12_381.G2.Point.fromBytes(pk);
		p.assertValidity();
		if (p.is0()) return "the beacon's public key is not a valid G2 key";
		return null;
	} catch (e) {
		return "the beacon's public key is not a valid G2 key";
	}
}

// verify reports whether sig (a compressed G1 point) is pk's signature of
// m, hashed to G1 with RFC 9380 under drand's DST.
export function verify(pk, m, sig) {
	try {
		const s = bls12_381.G1.Point.fromBytes(sig);
		s.assertValidity();
		return sigs.verify(s, sigs.hash(m, DST), pk);
	} catch (e) {
		return false;
	}
}
