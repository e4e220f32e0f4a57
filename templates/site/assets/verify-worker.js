// The in-browser dice log verifier of umpire: a web worker that checks an
// exported dice log (docs/dice-log.md) with the browser's own WebCrypto.
// It is a line-by-line port of adjudicator/dice (strict.go, verify.go,
// start.go, legacy/verify.go) and of the output of `umpire verify`
// (cmd/umpire/verify.go), so that a log fails here at the same record, in
// the same words.
//
// Messages in:  {bytes: ArrayBuffer, name: string, head: string, salt: "SEAT:SALT" or ""}
// Messages out: {type: "progress", done, total}
//               {type: "done", state: "ok" | "failed" | "unreadable", headline, text}
"use strict";

const enc = new TextEncoder();
const dec = new TextDecoder("utf-8", { fatal: true });
const subtle = self.crypto && self.crypto.subtle;

// ---- bytes and numbers ----------------------------------------------------

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const U63 = (1n << 63n) - 1n;
const MAX_CHAIN = 1 << 24;

// A number read from the log is a JS number when it is exact as one, and
// a BigInt otherwise.
function big(v) { return typeof v === "bigint" ? v : BigInt(v); }
function lt(a, b) { return (typeof a === "number" && typeof b === "number") ? a < b : big(a) < big(b); }
function eq(a, b) { return (typeof a === "number" && typeof b === "number") ? a === b : big(a) === big(b); }

class Buf {
	constructor(n) { this.b = new Uint8Array(n || 256); this.n = 0; }
	reset() { this.n = 0; return this; }
	grow(k) {
		if (this.n + k <= this.b.length) return;
		let m = this.b.length * 2;
		while (m < this.n + k) m *= 2;
		const nb = new Uint8Array(m);
		nb.set(this.b.subarray(0, this.n));
		this.b = nb;
	}
	byte(x) { this.grow(1); this.b[this.n++] = x; return this; }
	bytes(a) { this.grow(a.length); this.b.set(a, this.n); this.n += a.length; return this; }
	u32(x) { this.grow(4); const b = this.b, n = this.n; b[n] = x >>> 24; b[n + 1] = (x >>> 16) & 255; b[n + 2] = (x >>> 8) & 255; b[n + 3] = x & 255; this.n += 4; return this; }
	u64(v) {
		if (typeof v === "bigint") {
			v = BigInt.asUintN(64, v);
			this.u32(Number(v >> 32n)); return this.u32(Number(v & 0xffffffffn));
		}
		if (v < 0) return this.u64(BigInt(v));
		return this.u32(Math.floor(v / 4294967296)).u32(v >>> 0);
	}
	lp(a) { return this.u32(a.length).bytes(a); }
	view() { return this.b.subarray(0, this.n); }
	copy() { return this.b.slice(0, this.n); }
}

function hexOf(a) {
	let s = "";
	for (let i = 0; i < a.length; i++) s += (a[i] < 16 ? "0" : "") + a[i].toString(16);
	return s;
}
function sameBytes(a, b) {
	if (a.length !== b.length) return false;
	for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
	return true;
}
function cmpBytes(a, b) {
	const n = Math.min(a.length, b.length);
	for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
	return a.length - b.length;
}

async function sha256(data) { return new Uint8Array(await subtle.digest("SHA-256", data)); }
async function hmacKey(key) { return subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]); }
async function hmac(key, data) { return new Uint8Array(await subtle.sign("HMAC", key, data)); }

const T = {
	chain1: enc.encode("umpire-chain-v1"), chain2: enc.encode("umpire-chain-v2"), sealed: enc.encode("umpire-sealed-v2"),
	key: enc.encode("umpire-key-v2"), step: enc.encode("umpire-step-v2"), stream: enc.encode("umpire-stream-v2"),
	hide: enc.encode("umpire-hide-v2"), record: enc.encode("umpire-record-v2"), log2: enc.encode("umpire-log-v2"),
	dice1: enc.encode("umpire-dice-v1"), log1: enc.encode("umpire-log-v1"),
	salt: enc.encode("umpire-salt-v3"), saltc: enc.encode("umpire-saltc-v3"), order: enc.encode("umpire-order-v3"), step3: enc.encode("umpire-step-v3"),
};

// ---- Go's %q ----------------------------------------------------------------

const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
function quoteRune(r, q) {
	switch (r) {
		case 7: return "\\a"; case 8: return "\\b"; case 12: return "\\f"; case 10: return "\\n";
		case 13: return "\\r"; case 9: return "\\t"; case 11: return "\\v"; case 92: return "\\\\";
	}
	if (r === q) return "\\" + String.fromCodePoint(r);
	const c = String.fromCodePoint(r);
	if (r < 0x80 ? (r >= 0x20 && r < 0x7f) : printable.test(c)) return c;
	if (r < 0x20 || r === 0x7f) return "\\x" + r.toString(16).padStart(2, "0");
	if (r < 0x10000) return "\\u" + r.toString(16).padStart(4, "0");
	return "\\U" + r.toString(16).padStart(8, "0");
}
// goq is strconv.Quote of a string (valid UTF-8 here).
function goq(s) {
	let out = "\"";
	for (const ch of s) out += quoteRune(ch.codePointAt(0), 34);
	return out + "\"";
}
// goqb is strconv.Quote of bytes that may not be UTF-8.
function goqb(b) {
	try { return goq(dec.decode(b)); } catch (e) {
		let out = "\"";
		for (const x of b) out += x < 0x80 ? quoteRune(x, 34) : "\\x" + x.toString(16).padStart(2, "0");
		return out + "\"";
	}
}
// goqc is %q of a byte: a quoted character literal.
function goqc(c) { return "'" + quoteRune(c, 39) + "'"; }
function describeByte(c) { return (c >= 0x20 && c < 0x7f) ? goqc(c) : "byte 0x" + c.toString(16).padStart(2, "0"); }

// ---- the strict scanner (strict.go) ---------------------------------------

const MAX_STRING = 1 << 20;

class ScanError extends Error {}

class Scanner {
	constructor(buf) { this.buf = buf; this.pos = 0; this.end = buf.length; this.line = 0; this.err = null; }
	fail(msg) { if (this.err === null) this.err = "line " + (this.line + 1) + " (byte " + this.pos + "): " + msg; }
	fill(n) { return this.end - this.pos >= n; }
	offset() { return this.pos; }
	ws() {
		const b = this.buf;
		for (;;) {
			if (this.pos >= this.end) return 0;
			const c = b[this.pos];
			if (c === 32 || c === 9 || c === 13) this.pos++;
			else if (c === 10) { this.pos++; this.line++; }
			else return c;
		}
	}
	expect(c) {
		if (this.err !== null) return false;
		if (this.ws() !== c) { this.unexpected(goqc(c)); return false; }
		this.pos++;
		return true;
	}
	unexpected(want) {
		if (this.pos >= this.end) { this.fail("the text ends where " + want + " should be"); return; }
		this.fail(describeByte(this.buf[this.pos]) + " where " + want + " should be");
	}
	more(close) {
		if (this.err !== null) return false;
		const c = this.ws();
		if (c === 44) { this.pos++; return true; }
		if (c === close) return false;
		this.unexpected("',' or " + goqc(close));
		return false;
	}
	member(want) {
		const name = this.strBytes();
		if (name === null) return false;
		if (!equalAscii(name, want)) {
			if (name.length === want.length && equalFold(name, want)) this.fail("member " + goqb(name) + " differs from " + goq(want) + " only in letter case");
			else this.fail("member " + goqb(name) + " where " + goq(want) + " should be (members are fixed, in a fixed order)");
			return false;
		}
		return this.expect(58);
	}
	// strBytes reads a string value and returns its decoded UTF-8 bytes, or
	// null.
	strBytes() {
		if (!this.expect(34)) return null;
		const b = this.buf;
		let out = null, start = this.pos;
		for (;;) {
			if (this.pos >= this.end) { this.unexpected("the end of a string"); return null; }
			let i = this.pos;
			while (i < this.end) { const c = b[i]; if (c < 0x20 || c === 34 || c === 92 || c >= 0x80) break; i++; }
			if (out !== null && i > this.pos) out.bytes(b.subarray(this.pos, i));
			this.pos = i;
			if ((out === null ? this.pos - start : out.n) > MAX_STRING) { this.fail("a string longer than " + MAX_STRING + " bytes"); return null; }
			if (this.pos >= this.end) continue;
			const c = b[this.pos];
			if (c === 34) {
				this.pos++;
				return out === null ? b.subarray(start, this.pos - 1) : out.copy();
			}
			if (c < 0x20) { this.fail("a control character (0x" + c.toString(16).padStart(2, "0") + ") in a string: write it as an escape"); return null; }
			if (out === null) { out = new Buf(64); out.bytes(b.subarray(start, this.pos)); }
			if (c >= 0x80) {
				const n = utf8Len(b, this.pos, this.end);
				if (n === 0) { this.fail("bytes that are not UTF-8"); return null; }
				out.bytes(b.subarray(this.pos, this.pos + n));
				this.pos += n;
			} else if (!this.escape(out)) return null;
		}
	}
	str() { const b = this.strBytes(); return b === null ? null : dec.decode(b); }
	escape(out) {
		if (!this.fill(2)) { this.unexpected("an escape"); return false; }
		const c = this.buf[this.pos + 1];
		this.pos += 2;
		switch (c) {
			case 34: case 92: case 47: out.byte(c); return true;
			case 98: out.byte(8); return true;
			case 102: out.byte(12); return true;
			case 110: out.byte(10); return true;
			case 114: out.byte(13); return true;
			case 116: out.byte(9); return true;
			case 117: {
				let r = this.hex4();
				if (r < 0) return false;
				if (r >= 0xdc00 && r <= 0xdfff) { this.fail("a \\u escape of a lone low surrogate"); return false; }
				if (r >= 0xd800 && r <= 0xdbff) {
					if (!this.fill(2) || this.buf[this.pos] !== 92 || this.buf[this.pos + 1] !== 117) { this.fail("a \\u escape of a lone high surrogate"); return false; }
					this.pos += 2;
					const lo = this.hex4();
					if (lo < 0) return false;
					if (lo < 0xdc00 || lo > 0xdfff) { this.fail("a \\u escape of a lone high surrogate"); return false; }
					r = 0x10000 + ((r - 0xd800) << 10) + (lo - 0xdc00);
				}
				out.bytes(enc.encode(String.fromCodePoint(r)));
				return true;
			}
		}
		this.pos--;
		this.fail("an unknown escape");
		return false;
	}
	hex4() {
		if (!this.fill(4)) { this.unexpected("four hex digits of a \\u escape"); return -1; }
		let r = 0;
		for (let i = 0; i < 4; i++) {
			const c = this.buf[this.pos + i];
			let v;
			if (c >= 48 && c <= 57) v = c - 48;
			else if (c >= 97 && c <= 102) v = c - 87;
			else if (c >= 65 && c <= 70) v = c - 55;
			else { this.fail("a \\u escape with " + describeByte(c)); return -1; }
			r = r * 16 + v;
		}
		this.pos += 4;
		return r;
	}
	null() {
		if (this.err !== null || this.ws() !== 110) return false;
		const b = this.buf, p = this.pos;
		if (!this.fill(4) || b[p + 1] !== 117 || b[p + 2] !== 108 || b[p + 3] !== 108) { this.fail("a value that is not JSON"); return false; }
		this.pos += 4;
		return true;
	}
	// number reads an integer: [mag (number or BigInt), neg] or null.
	number(what) {
		if (this.err !== null) return null;
		const b = this.buf;
		let c = this.ws(), neg = false;
		if (c === 45) {
			neg = true;
			this.pos++;
			if (!this.fill(1)) { this.unexpected("a digit"); return null; }
			c = b[this.pos];
		}
		if (c < 48 || c > 57) {
			if (c === 34 || c === 91 || c === 123 || c === 116 || c === 102 || c === 110) this.fail(what + " is not a number");
			else this.unexpected(what + " (a whole number)");
			return null;
		}
		const start = this.pos;
		let digits = 0, mag = 0;
		while (this.pos < this.end) {
			const d = b[this.pos];
			if (d < 48 || d > 57) break;
			if (digits === 1 && b[start] === 48) { this.fail(what + " has a leading zero"); return null; }
			digits++;
			this.pos++;
		}
		if (digits <= 15) {
			for (let i = start; i < this.pos; i++) mag = mag * 10 + (b[i] - 48);
		} else {
			let v = 0n;
			for (let i = start; i < this.pos; i++) {
				v = v * 10n + BigInt(b[i] - 48);
				if (v > 0xffffffffffffffffn) {
					this.pos = i; // where Go's scanner stops
					this.fail(what + " is out of range");
					return null;
				}
			}
			mag = v <= BigInt(MAX_SAFE) ? Number(v) : v;
		}
		if (this.pos < this.end) {
			const d = b[this.pos];
			if (d === 46 || d === 101 || d === 69) { this.fail(what + " has a fraction or an exponent: it must be a whole number"); return null; }
		}
		if (neg && mag === 0) { this.fail(what + " is -0"); return null; }
		return [mag, neg];
	}
	uintIn(what, lo, hi) {
		const r = this.number(what);
		if (r === null) return null;
		const [v, neg] = r;
		if (neg || lt(v, lo) || lt(hi, v)) { this.fail(what + " is out of range (" + lo + " to " + hi + ")"); return null; }
		return v;
	}
	int64(what) {
		const r = this.number(what);
		if (r === null) return null;
		const [v, neg] = r;
		if (neg) {
			if (big(v) > (1n << 63n)) { this.fail(what + " is out of range"); return null; }
			return typeof v === "number" ? -v : -v;
		}
		if (big(v) > U63) { this.fail(what + " is out of range"); return null; }
		return v;
	}
	hex(what, n) {
		if (!this.expect(34)) return null;
		const digits = 2 * n;
		if (!this.fill(digits + 1)) { this.unexpected(what); return null; }
		const b = this.buf, out = new Uint8Array(n);
		for (let i = 0; i < digits; i++) {
			const c = b[this.pos + i];
			let v;
			if (c >= 48 && c <= 57) v = c - 48;
			else if (c >= 97 && c <= 102) v = c - 87;
			else if (c >= 65 && c <= 70) { this.fail(what + " is not lowercase hex"); return null; }
			else { this.fail(what + " is not " + digits + " hex digits"); return null; }
			if (i % 2 === 0) out[i >> 1] = v << 4; else out[i >> 1] |= v;
		}
		if (b[this.pos + digits] !== 34) { this.fail(what + " is not " + digits + " hex digits"); return null; }
		this.pos += digits + 1;
		return out;
	}
}

function equalAscii(b, s) {
	if (b.length !== s.length) return false;
	for (let i = 0; i < b.length; i++) if (b[i] !== s.charCodeAt(i)) return false;
	return true;
}
function equalFold(b, s) {
	for (let i = 0; i < b.length; i++) {
		let x = b[i], y = s.charCodeAt(i);
		if (x >= 65 && x <= 90) x += 32;
		if (y >= 65 && y <= 90) y += 32;
		if (x !== y) return false;
	}
	return true;
}
// utf8Len is the length of the valid UTF-8 sequence at b[i], or 0.
function utf8Len(b, i, end) {
	const c = b[i];
	let n, min;
	if (c >= 0xc2 && c <= 0xdf) { n = 2; min = 0x80; }
	else if (c >= 0xe0 && c <= 0xef) { n = 3; min = 0x800; }
	else if (c >= 0xf0 && c <= 0xf4) { n = 4; min = 0x10000; }
	else return 0;
	if (i + n > end) return 0;
	let r = c & (0xff >> (n + 1));
	for (let k = 1; k < n; k++) {
		const d = b[i + k];
		if ((d & 0xc0) !== 0x80) return 0;
		r = (r << 6) | (d & 0x3f);
	}
	if (r < min || r > 0x10ffff || (r >= 0xd800 && r <= 0xdfff)) return 0;
	return n;
}

// ---- specs (spec.go) -------------------------------------------------------

const KIND_DICE = 0, KIND_CHIT = 1, KIND_SHUFFLE = 2;
const MAX_COUNT = 1 << 16, MAX_FACES = 4294967296;

function atoi(s) {
	if (s === "" || s.length > 10 || (s.length > 1 && s[0] === "0")) return null;
	let n = 0;
	for (const ch of s) {
		const c = ch.charCodeAt(0);
		if (c < 48 || c > 57) return null;
		n = n * 10 + (c - 48);
	}
	return n;
}

function specString(s) {
	if (s.kind === KIND_CHIT) return "chit " + s.faces;
	if (s.kind === KIND_SHUFFLE) return "shuffle " + s.faces;
	if (s.base === 1) return s.count + "d" + s.faces;
	return s.count + "d" + s.faces + "(" + s.base + "-" + (s.base + s.faces - 1) + ")";
}

// parseSpec returns a spec or throws the message Go's ParseSpec gives.
function parseSpec(text) {
	const bad = () => { throw new Error("bad dice spec: " + goq(text) + " is not NdF, NdF(B-T), chit M or shuffle M"); };
	let s;
	if (text.startsWith("chit ")) {
		const m = atoi(text.slice(5));
		if (m === null) bad();
		s = { kind: KIND_CHIT, count: 1, faces: m, base: 0 };
	} else if (text.startsWith("shuffle ")) {
		const m = atoi(text.slice(8));
		if (m === null) bad();
		s = { kind: KIND_SHUFFLE, count: 1, faces: m, base: 0 };
	} else {
		const d = text.indexOf("d");
		if (d < 0) bad();
		const n = atoi(text.slice(0, d));
		if (n === null) bad();
		const rest = text.slice(d + 1), p = rest.indexOf("(");
		const f = atoi(p < 0 ? rest : rest.slice(0, p));
		if (f === null) bad();
		s = { kind: KIND_DICE, count: n, faces: f, base: 1 };
		if (p >= 0) {
			const rng = rest.slice(p + 1);
			let inner = rng.endsWith(")") ? rng.slice(0, -1) : rng;
			const dash = inner.indexOf("-");
			const lo = dash < 0 ? inner : inner.slice(0, dash), hi = dash < 0 ? "" : inner.slice(dash + 1);
			const b = atoi(lo), t = atoi(hi);
			if (dash < 0 || b === null || t === null || !rng.endsWith(")") || t !== b + f - 1 || b === 1) bad();
			s.base = b;
		}
	}
	// Validate
	if (s.kind === KIND_DICE) {
		if (s.count < 1 || s.count > MAX_COUNT) throw new Error("bad dice spec: " + s.count + " dice (1 to " + MAX_COUNT + ")");
		if (s.base < 0 || s.base > MAX_FACES) throw new Error("bad dice spec: lowest face " + s.base + " (0 to 2^32)");
	} else if (s.kind === KIND_SHUFFLE && s.faces > MAX_COUNT) {
		throw new Error("bad dice spec: shuffle of " + s.faces + " items (at most " + MAX_COUNT + ")");
	}
	if (s.faces < 1 || s.faces > MAX_FACES) throw new Error("bad dice spec: " + s.faces + " faces (1 to 2^32)");
	if (specString(s) !== text) bad();
	return s;
}

function specDraws(s) {
	if (s.kind === KIND_DICE) return s.count;
	if (s.kind === KIND_CHIT) return 1;
	return Math.max(s.faces - 1, 0);
}

// ---- streams (stream.go) ---------------------------------------------------

class Stream {
	constructor(key, tag, digest) {
		this.keyBytes = key;
		this.key = null;
		this.msg = new Uint8Array(tag.length + 32 + 8);
		this.msg.set(tag, 0);
		this.msg.set(digest, tag.length);
		this.blocks = new Map();
		this.word = 0;
	}
	async block(j) {
		let b = this.blocks.get(j);
		if (b === undefined) {
			if (this.key === null) this.key = await hmacKey(this.keyBytes);
			const dv = new DataView(this.msg.buffer);
			const at = this.msg.length - 8;
			dv.setUint32(at, Math.floor(j / 4294967296));
			dv.setUint32(at + 4, j >>> 0);
			b = new DataView((await hmac(this.key, this.msg)).buffer);
			if (this.blocks.size > 64) this.blocks.clear();
			this.blocks.set(j, b);
		}
		return b;
	}
	async uint32() {
		const w = this.word;
		const b = await this.block(Math.floor(w / 8));
		this.word = w + 1;
		return b.getUint32((w % 8) * 4);
	}
	async intn(n) {
		const limit = 4294967296 - (4294967296 % n);
		for (;;) {
			const x = await this.uint32();
			if (x < limit) return x % n;
		}
	}
}

async function specDraw(s, st, out) {
	if (s.kind === KIND_DICE) {
		for (let i = 0; i < s.count; i++) out.push(s.base + await st.intn(s.faces));
	} else if (s.kind === KIND_CHIT) {
		out.push(await st.intn(s.faces));
	} else {
		for (let i = s.faces - 1; i >= 1; i--) out.push(await st.intn(i + 1));
	}
	return out;
}

// ---- chains, keys, beacon --------------------------------------------------

async function prevLink(tag, link) {
	const b = new Uint8Array(tag.length + 32);
	b.set(tag); b.set(link, tag.length);
	return sha256(b);
}
async function linkReaches(tag, later, n, earlier) {
	for (; n > 0; n--) later = await prevLink(tag, later);
	return sameBytes(later, earlier);
}
async function sealedCommitment(root) {
	return sha256(new Buf(64).bytes(T.sealed).bytes(root).copy());
}
async function streamKey(root, k, name) {
	return hmac(await hmacKey(root), new Buf(64).bytes(T.key).u64(k).lp(enc.encode(name)).copy());
}
// orderSalt is t(seat) of umpire-dice-v3 (salt.go); saltCommitment T(seat).
async function orderSalt(root, seatBytes) {
	return hmac(await hmacKey(root), new Buf(64).bytes(T.salt).lp(seatBytes).copy());
}
async function saltCommitment(salt) {
	return sha256(new Buf(64).bytes(T.saltc).bytes(salt).copy());
}
// minBeaconDelay is v3's floor: max(60, 10 * period) seconds.
function minBeaconDelay(period) { return Math.max(60, 10 * period); }
function periods(delay, period) { return String(delay / period); }

function checkStreamName(name) {
	const b = enc.encode(name);
	if (b.length < 1 || b.length > 64) return "bad dice stream: stream name " + goq(name) + ": 1 to 64 bytes";
	if (name === "open") return "bad dice stream: " + goq(name) + " is the open stream, not a hidden one";
	if (name[0] === "-") return "bad dice stream: stream name " + goq(name) + " starts with '-'";
	for (const c of b) {
		if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45)) return "bad dice stream: stream name " + goq(name) + ": only a-z, 0-9 and '-'";
	}
	return null;
}

const QUICKNET = {
	chainHash: "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971",
	publicKey: "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a",
	genesis: 1692803367, period: 3,
};
const BEACON_SCHEME = "bls-unchained-g1-rfc9380";

function beaconNetwork(bc) {
	if (hexOf(bc.chainHash) === QUICKNET.chainHash && hexOf(bc.publicKey) === QUICKNET.publicKey && eq(bc.genesis, QUICKNET.genesis) && eq(bc.period, QUICKNET.period)) return "drand quicknet";
	return "";
}

function roundFor(bc, close) {
	const t = big(close) + big(bc.delay), g = big(bc.genesis), p = big(bc.period);
	if (t <= g || p === 0n) return 1n;
	return (t - g + p - 1n) / p + 1n;
}

// The BLS signature check of a beacon round needs pairings on BLS12-381,
// which WebCrypto does not offer: bls.js (a copy of @noble/curves) does
// them when it is there.
let bls = null, blsError = "";
async function loadBLS() {
	if (bls !== null) return bls;
	try {
		const url = new URL("vendor/bls.js", self.location.href);
		bls = await import(url.href);
	} catch (e) {
		bls = false;
		blsError = String(e && e.message || e);
	}
	return bls;
}

class BeaconVerifier {
	static async make(bc) {
		if (bc.scheme !== BEACON_SCHEME) throw new Error("beacon round does not verify: scheme " + goq(bc.scheme) + ", only " + BEACON_SCHEME + " is accepted");
		const v = new BeaconVerifier();
		v.bc = bc;
		v.lib = await loadBLS();
		if (v.lib) {
			const err = v.lib.checkPublicKey(bc.publicKey);
			if (err) throw new Error("beacon round does not verify: " + err);
		}
		return v;
	}
	async check(close, r) {
		const want = roundFor(this.bc, close);
		if (big(r.round) !== want) return "beacon round does not verify: round " + r.round + ", but a step closed at " + close + " with a delay of " + this.bc.delay + " s uses round " + want;
		if (!sameBytes(await sha256(r.signature), r.randomness)) return "beacon round does not verify: round " + r.round + ": its randomness is not SHA-256 of its signature";
		if (this.lib) {
			const m = await sha256(new Buf(8).u64(r.round).copy());
			if (!this.lib.verify(this.bc.publicKey, m, r.signature)) return "beacon round does not verify: round " + r.round + ": the signature does not verify under the beacon's public key";
		} else {
			this.unchecked = (this.unchecked || 0) + 1;
		}
		return null;
	}
}

// ---- umpire-dice-v2 (verify.go) -------------------------------------------

const TYPE = { header: 1, step: 2, draw: 3, reveal: 4, rollback: 5, end: 6, start: 7 };
const TYPE_NAME = ["", "header", "step", "draw", "reveal", "rollback", "end", "start"];

class NotLog extends Error {}
class V1Log extends Error {}

class Verifier2 {
	constructor(buf, progress, salts) {
		this.s = new Scanner(buf);
		this.progress = progress;
		this.optSalts = salts || [];
		this.res = { version: 2, game: "", records: 0, steps: 0, rollbacks: 0, reveals: 0, draws: 0, rederived: 0, sealed: 0, ended: false, beacon: "", head: "",
			delay: 0, period: 0, delayUnderFloor: false, seats: 0, joined: 0, startHead: null, salts: [], problem: null };
		this.seats = [];
		this.saltComm = [];
		this.started = false;
		this.startHead = null;
		this.lastClose = 0;
		this.closed = false;
		this.watch = new Map();
		this.root = null;
		this.revealed = [];
		this.revIndex = new Map();
		this.nextRev = 0;
		this.hdr = null;
		this.streamIdx = new Map();
		this.beacon = null;
		this.head = new Uint8Array(32);
		this.n = 0;
		this.steps = 0;
		this.lastStep = 0;
		this.lastLink = null;
		this.drawStep = 0;
		this.seq = 0;
		this.digest = null;
		this.open = null;
		this.openNext = 0;
		this.openStart = false;
		this.hidden = [];
		this.ended = false;
		this.recStep = 0;
		this.recSeq = 0;
		this.body = new Buf(1024);
		this.specs = new Map();
	}
	failf(msg) { if (this.res.problem === null) this.res.problem = { record: this.n, type: "", step: 0, seq: 0, reason: msg }; }
	failAt(t, step, seq, msg) { if (this.res.problem === null) this.res.problem = { record: this.n, type: TYPE_NAME[t], step, seq, reason: msg }; }
	ok() { return this.s.err === null && this.res.problem === null; }

	// start reads the first two members: a v2 export, a v1 one, or neither.
	start() {
		const s = this.s;
		if (s.ws() !== 123) throw new V1Log();
		s.pos++;
		const name = s.strBytes();
		if (name === null || !equalAscii(name, "format") || !s.expect(58)) throw new V1Log();
		const format = s.strBytes();
		if (format === null) throw new NotLog("not an umpire dice log: its \"format\" is not a string");
		if (!equalAscii(format, "umpire-dice-log")) throw new NotLog("not an umpire dice log: its \"format\" is " + goqb(format) + ", want \"umpire-dice-log\"");
		if (!s.expect(44)) throw new V1Log();
		const name2 = s.strBytes();
		if (name2 === null || !equalAscii(name2, "version") || !s.expect(58)) throw new V1Log();
		const r = s.number("version");
		if (r !== null && !r[1] && eq(r[0], 1)) throw new V1Log();
		if (r === null || r[1] || !(eq(r[0], 2) || eq(r[0], 3))) throw new NotLog("unsupported dice log version: version " + (r === null ? 0 : r[0]) + " (this verifier reads versions 1, 2 and 3)");
		this.res.version = Number(r[0]);
	}

	async run() {
		const s = this.s;
		if (!s.expect(44) || !s.member("sealed_root")) return;
		if (!s.null()) {
			const root = s.hex("sealed_root", 32);
			if (root === null) return;
			this.root = root;
		}
		if (!s.expect(44) || !s.member("revealed") || !s.expect(91)) return;
		if (s.ws() === 93) s.pos++;
		else {
			for (;;) {
				if (!s.expect(123) || !s.member("step")) return;
				const step = s.uintIn("revealed step", 1, MAX_CHAIN);
				if (step === null) return;
				if (!s.expect(44) || !s.member("stream")) return;
				const name = s.str();
				if (name === null) return;
				if (!s.expect(44) || !s.member("key")) return;
				const key = s.hex("revealed key", 32);
				if (key === null || !s.expect(125)) return;
				this.revealed.push({ step, stream: name, key });
				if (!s.more(93)) break;
			}
			if (!s.expect(93)) return;
		}
		if (!s.expect(44) || !s.member("records") || !s.expect(91)) return;
		if (s.ws() === 93) { this.failf("the log has no records: record 1 must be the header"); return; }
		for (;;) {
			this.n++;
			const start = s.offset();
			await this.record();
			if (!this.ok()) return;
			if (s.offset() - start > MAX_STRING) { this.failf("the record is longer than 1 MiB of JSON text"); return; }
			if (this.n % 1024 === 0) this.progress(s.offset());
			if (!s.more(93)) break;
		}
		if (!s.expect(93) || !s.expect(44) || !s.member("head")) return;
		const head = s.hex("head", 32);
		if (head === null || !s.expect(125)) return;
		const c = s.ws();
		if (c !== 0) { s.fail(describeByte(c) + " after the log object"); return; }
		const n = this.n;
		this.n = 0;
		if (this.optSalts.length > 0 && !this.started) {
			this.failf("a salt was given, but the log has no start record: it is not a started umpire-dice-v3 game");
		} else if (this.nextRev < this.revealed.length) {
			const r = this.revealed[this.nextRev];
			this.failf("\"revealed\" lists the key of stream " + goq(r.stream) + " of step " + r.step + ", but no reveal record holds it");
		} else if (this.root !== null && !this.ended) {
			this.failf("\"sealed_root\" is given, but the log has no end record");
		} else if (!sameBytes(head, this.head)) {
			this.failf("the stated head " + hexOf(head) + " is not the head after the last record (" + hexOf(this.head) + "): records are missing at the end or the head was changed");
		}
		this.res.records = n;
		this.res.head = hexOf(this.head);
		this.res.ended = this.ended;
		this.progress(s.offset());
	}

	async record() {
		const s = this.s;
		if (!s.expect(123) || !s.member("type")) return;
		const tname = s.strBytes();
		if (tname === null) return;
		const t = TYPE[dec.decode(tname)];
		if (t === undefined || !Object.prototype.hasOwnProperty.call(TYPE, dec.decode(tname))) { this.failf("unknown record type " + goqb(tname)); return; }
		if (!s.expect(44)) return;
		if (this.n === 1 && t !== TYPE.header) { this.failAt(t, 0, 0, "record 1 must be the header"); return; }
		const v3 = this.res.version === 3;
		if (t === TYPE.start && !v3) { this.failAt(t, 0, 0, "a start record in a version " + this.res.version + " log: only umpire-dice-v3 has one"); return; }
		if (t === TYPE.start && this.n !== 2) { this.failAt(t, 0, 0, "a start record elsewhere than record 2: only record 2 is the start record"); return; }
		if (v3 && this.n === 2 && t !== TYPE.start && t !== TYPE.end) { this.failAt(t, 0, 0, "record 2 must be the start record (or the end record of a game cancelled before its start)"); return; }
		if (this.ended) { this.failAt(t, 0, 0, "a record after the end record: an ended game's root is public, so nothing may follow"); return; }
		if (t !== TYPE.draw) this.drawStep = 0;
		this.body.reset();
		this.recStep = 0;
		this.recSeq = 0;
		switch (t) {
			case TYPE.header: await this.header(); break;
			case TYPE.start: await this.start3(); break;
			case TYPE.step: await this.step(); break;
			case TYPE.draw: await this.draw(); break;
			case TYPE.reveal: this.reveal(); break;
			case TYPE.rollback: this.rollback(); break;
			case TYPE.end: this.end(); break;
		}
		if (!this.ok()) return;
		if (!s.expect(44) || !s.member("head")) return;
		const stated = s.hex("head", 32);
		if (stated === null || !s.expect(125)) return;
		const rb = new Buf(this.body.n + 32);
		rb.bytes(T.record).byte(t).bytes(this.body.view());
		const r = await sha256(rb.view());
		const h = await sha256(new Buf(96).bytes(T.log2).bytes(this.head).bytes(r).view());
		if (!sameBytes(h, stated)) {
			this.failAt(t, this.recStep, this.recSeq, "its head is " + hexOf(stated) + ", but the record and the head before it give " + hexOf(h) + ": a field of this record was changed");
			return;
		}
		this.head = h;
		if (t === TYPE.start) {
			this.started = true;
			this.startHead = h;
			this.res.startHead = hexOf(h);
		}
	}

	async header() {
		const s = this.s;
		if (this.n !== 1) { this.failAt(TYPE.header, 0, 0, "a second header: only record 1 is the header"); return; }
		const h = { game: "", rules: "", rulesVersion: "", chainLength: 0, open: null, sealed: null, streams: [], beacon: null };
		if (!s.member("scheme")) return;
		const scheme = s.strBytes();
		if (scheme === null) return;
		const want = this.res.version === 3 ? "umpire-dice-v3" : "umpire-dice-v2";
		if (!equalAscii(scheme, want)) { this.failAt(TYPE.header, 0, 0, "scheme " + goqb(scheme) + ", this verifier checks " + want); return; }
		h.scheme = want;
		if (!s.expect(44) || !s.member("game")) return;
		const game = s.strBytes();
		if (game === null) return;
		if (game.length === 0) { this.failAt(TYPE.header, 0, 0, "the game id is empty"); return; }
		h.gameBytes = game.slice();
		h.game = dec.decode(game);
		this.res.game = h.game;
		if (!s.expect(44) || !s.member("rules")) return;
		const rules = s.strBytes();
		if (rules === null) return;
		h.rules = rules.slice();
		if (!s.expect(44) || !s.member("rules_version")) return;
		const rv = s.strBytes();
		if (rv === null) return;
		h.rulesVersion = rv.slice();
		if (!s.expect(44) || !s.member("chain_length")) return;
		if ((h.chainLength = s.uintIn("chain_length", 1, MAX_CHAIN)) === null) return;
		if (!s.expect(44) || !s.member("open_commitment") || (h.open = s.hex("open_commitment", 32)) === null) return;
		if (!s.expect(44) || !s.member("sealed_commitment") || (h.sealed = s.hex("sealed_commitment", 32)) === null) return;
		if (!s.expect(44) || !s.member("streams") || !s.expect(91)) return;
		const streamBytes = [];
		if (s.ws() === 93) s.pos++;
		else {
			for (;;) {
				const b = s.strBytes();
				if (b === null) return;
				const name = dec.decode(b);
				const err = checkStreamName(name);
				if (err !== null) { this.failAt(TYPE.header, 0, 0, err); return; }
				const k = streamBytes.length;
				if (k > 0 && cmpBytes(streamBytes[k - 1], b) >= 0) { this.failAt(TYPE.header, 0, 0, "streams are not sorted bytewise and distinct (" + goq(name) + " after " + goq(h.streams[k - 1]) + ")"); return; }
				if (k === 1024) { this.failAt(TYPE.header, 0, 0, "more than 1024 streams"); return; }
				h.streams.push(name);
				streamBytes.push(b.slice());
				if (!s.more(93)) break;
			}
			if (!s.expect(93)) return;
		}
		if (!s.expect(44) || !s.member("beacon")) return;
		if (!s.null()) {
			const bc = {};
			if (!s.expect(123) || !s.member("chain_hash") || (bc.chainHash = s.hex("chain_hash", 32)) === null || !s.expect(44) || !s.member("scheme")) return;
			const sch = s.str();
			if (sch === null) return;
			bc.scheme = sch;
			if (!s.expect(44) || !s.member("public_key") || (bc.publicKey = s.hex("public_key", 96)) === null || !s.expect(44) || !s.member("genesis")) return;
			if ((bc.genesis = s.uintIn("genesis", 0, 1099511627775)) === null) return;
			if (!s.expect(44) || !s.member("period")) return;
			if ((bc.period = s.uintIn("period", 1, 86400)) === null) return;
			if (!s.expect(44) || !s.member("delay")) return;
			if ((bc.delay = s.uintIn("delay", 0, 4294967295)) === null) return;
			if (!s.expect(125)) return;
			this.res.delay = bc.delay;
			this.res.period = bc.period;
			const floor = minBeaconDelay(bc.period);
			if (bc.delay < floor) {
				if (this.res.version === 3) {
					this.failAt(TYPE.header, 0, 0, "the beacon's delay is " + bc.delay + " s (" + periods(bc.delay, bc.period) + " periods of " + bc.period + " s), under umpire-dice-v3's floor of max(60, 10 * period) = " + floor + " s: " +
						"a round so soon after a close could be known when its close notice leaves");
					return;
				}
				this.res.delayUnderFloor = true;
			}
			try {
				this.beacon = await BeaconVerifier.make(bc);
			} catch (e) {
				this.failAt(TYPE.header, 0, 0, e.message);
				return;
			}
			h.beacon = bc;
			this.res.beacon = beaconNetwork(bc) || "unknown";
		}
		// the body
		const b = this.body;
		b.lp(enc.encode(h.scheme)).lp(h.gameBytes).lp(h.rules).lp(h.rulesVersion).u64(h.chainLength).bytes(h.open).bytes(h.sealed);
		b.u32(h.streams.length);
		for (const sb of streamBytes) b.lp(sb);
		if (h.beacon === null) b.byte(0);
		else {
			const bc = h.beacon;
			b.byte(1).bytes(bc.chainHash).lp(enc.encode(bc.scheme)).lp(bc.publicKey).u64(bc.genesis).u64(bc.period).u64(bc.delay);
		}
		this.hdr = h;
		this.lastLink = h.open;
		h.streams.forEach((n, i) => this.streamIdx.set(n, i));
		this.hidden = h.streams.map(() => ({ gen: 0 }));
		if (this.root !== null && !sameBytes(await sealedCommitment(this.root), h.sealed)) {
			this.n = 0;
			this.failf("\"sealed_root\" does not hash to the header's sealed commitment");
			return;
		}
		for (const r of this.revealed) {
			const i = this.streamIdx.get(r.stream);
			if (i === undefined) { this.n = 0; this.failf("\"revealed\" names stream " + goq(r.stream) + ", which the header does not declare"); return; }
			if (lt(h.chainLength, r.step)) { this.n = 0; this.failf("\"revealed\" names step " + r.step + ", past the chain length " + h.chainLength); return; }
			if (this.root !== null && !sameBytes(await streamKey(this.root, r.step, r.stream), r.key)) {
				this.n = 0; this.failf("\"revealed\" key of stream " + goq(r.stream) + " of step " + r.step + " is not the key the sealed root gives"); return;
			}
			const id = r.step * 1024 + i;
			if (this.revIndex.has(id)) { this.n = 0; this.failf("\"revealed\" lists stream " + goq(r.stream) + " of step " + r.step + " twice"); return; }
			this.revIndex.set(id, r.key);
		}
	}

	async step() {
		const s = this.s;
		if (!s.member("step")) return;
		const k = s.uintIn("step", 1, MAX_CHAIN);
		if (k === null) return;
		this.recStep = k;
		const fail = (m) => this.failAt(TYPE.step, k, 0, m);
		if (k !== this.steps + 1) { fail("step " + k + ", but the next step number is " + (this.steps + 1) + ": a step was deleted, moved or repeated"); return; }
		if (k > this.hdr.chainLength) { fail("step " + k + " is past the chain length " + this.hdr.chainLength); return; }
		if (!s.expect(44) || !s.member("phase")) return;
		const phase = s.strBytes();
		if (phase === null) return;
		const phaseCopy = phase.slice();
		if (!s.expect(44) || !s.member("close")) return;
		const close = s.uintIn("close", 0, 1099511627775);
		if (close === null) return;
		const v3 = this.res.version === 3;
		if (v3 && this.closed && lt(close, this.lastClose)) { fail("its close " + close + " is before " + this.lastClose + ", the close of the step record before it: closes never go backwards"); return; }
		if (v3 && !this.started) { fail("a step record before the start record"); return; }
		if (!s.expect(44) || !s.member("closed_by")) return;
		const cbs = s.strBytes();
		if (cbs === null) return;
		const cb = ["deadline", "ready", "gm"].indexOf(dec.decode(cbs));
		if (cb < 0) { fail("closed_by " + goqb(cbs) + " is not deadline, ready or gm"); return; }
		if (!s.expect(44) || !s.member("orders") || !s.expect(91)) return;
		const b = this.body;
		b.u64(k).lp(phaseCopy).u64(close).byte(cb);
		const countAt = b.n;
		b.u32(0);
		let n = 0, prev = null;
		if (s.ws() === 93) s.pos++;
		else {
			for (;;) {
				if (!s.expect(123) || !s.member("seat")) return;
				const seat = s.strBytes();
				if (seat === null) return;
				if (seat.length < 1 || seat.length > 64) { fail("a seat of " + seat.length + " bytes (1 to 64)"); return; }
				if (n > 0 && cmpBytes(prev, seat) >= 0) { fail("the order list is not sorted by seat with each seat once (" + goqb(seat) + " after " + goqb(prev) + ")"); return; }
				prev = seat.slice();
				if (!s.expect(44) || !s.member("for_step")) return;
				const forStep = s.uintIn("for_step", 1, MAX_CHAIN);
				if (forStep === null) return;
				if (forStep > k) { fail("seat " + goqb(seat) + "'s orders are for step " + forStep + ", after this one"); return; }
				if (!s.expect(44) || !s.member("version")) return;
				const version = s.uintIn("version", 1, U63);
				if (version === null) return;
				if (!s.expect(44) || !s.member("digest")) return;
				const d = s.hex("order digest", 32);
				if (d === null || !s.expect(125)) return;
				if (v3) {
					const i = this.seatIndex(prev);
					if (i < 0) { fail("an order entry of seat " + goqb(prev) + ", which the start record does not name"); return; }
					if (this.watch.has(i)) this.res.salts[this.watch.get(i)].entries.push({ step: k, forStep, version, digest: hexOf(d) });
				}
				b.lp(prev).u64(forStep).u64(version).bytes(d);
				n++;
				if (!s.more(93)) break;
			}
			if (!s.expect(93)) return;
		}
		new DataView(b.b.buffer).setUint32(countAt, n);
		const olEnd = b.n;
		if (!s.expect(44) || !s.member("beacon")) return;
		let round = null;
		if (s.null()) {
			if (this.beacon !== null) { fail("no beacon round, but the header names a beacon"); return; }
			b.byte(0);
		} else {
			if (this.beacon === null) { fail("a beacon round, but the header names no beacon"); return; }
			round = {};
			if (!s.expect(123) || !s.member("round")) return;
			if ((round.round = s.uintIn("round", 1, U63)) === null) return;
			if (!s.expect(44) || !s.member("randomness") || (round.randomness = s.hex("randomness", 32)) === null ||
				!s.expect(44) || !s.member("signature") || (round.signature = s.hex("signature", 48)) === null || !s.expect(125)) return;
			const err = await this.beacon.check(close, round);
			if (err !== null) { fail(err); return; }
			b.byte(1).u64(round.round).bytes(round.randomness).lp(round.signature);
		}
		if (!s.expect(44) || !s.member("open_link")) return;
		const link = s.hex("open_link", 32);
		if (link === null || !s.expect(44) || !s.member("digest")) return;
		const digest = s.hex("digest", 32);
		if (digest === null) return;
		if (!await linkReaches(T.chain2, link, k - this.lastStep, this.lastLink)) {
			if (this.lastStep === 0) fail("its open link does not hash back to the open commitment");
			else fail("its open link does not hash back to the open link of step " + this.lastStep);
			return;
		}
		const pre = new Buf(256);
		if (v3) pre.bytes(T.step3).bytes(this.startHead); else pre.bytes(T.step);
		pre.lp(this.hdr.gameBytes).u64(k).lp(phaseCopy).bytes(b.b.subarray(countAt, olEnd));
		if (round === null) pre.byte(0); else pre.byte(1).bytes(round.randomness);
		const d = await sha256(pre.view());
		if (!sameBytes(d, digest)) { fail("its digest D_k is " + hexOf(digest) + ", but its game, step, phase, order list and beacon give " + hexOf(d)); return; }
		b.bytes(link).bytes(digest);
		this.steps = k; this.lastStep = k; this.lastLink = link;
		this.lastClose = close; this.closed = true;
		this.drawStep = k; this.digest = digest;
		this.open = new Stream(link, T.stream, digest);
		this.openNext = 0; this.openStart = false;
		this.res.steps++;
	}

	// start3 reads and checks a v3 start record (start.go).
	async start3() {
		const s = this.s;
		const fail = (m) => this.failAt(TYPE.start, 0, 0, m);
		if (!s.member("seats") || !s.expect(91)) return;
		const b = this.body;
		b.u32(0);
		if (s.ws() === 93) { fail("the start record names no seat: a game has 1 to 1024"); return; }
		this.seats = []; this.saltComm = [];
		for (;;) {
			if (!s.expect(123) || !s.member("seat")) return;
			const seat = s.strBytes();
			if (seat === null) return;
			if (seat.length < 1 || seat.length > 64) { fail("a seat of " + seat.length + " bytes (1 to 64)"); return; }
			const n = this.seats.length;
			if (n > 0 && cmpBytes(this.seats[n - 1], seat) >= 0) { fail("its seats are not sorted bytewise with each seat once (" + goqb(seat) + " after " + goqb(this.seats[n - 1]) + ")"); return; }
			if (n === 1024) { fail("more than 1024 seats"); return; }
			const seatCopy = seat.slice();
			if (!s.expect(44) || !s.member("join")) return;
			const join = s.hex("join", 32);
			if (join === null || !s.expect(44) || !s.member("salt_commitment")) return;
			const tc = s.hex("salt_commitment", 32);
			if (tc === null || !s.expect(125)) return;
			if (this.root !== null && !sameBytes(await saltCommitment(await orderSalt(this.root, seatCopy)), tc)) {
				fail("the salt commitment of seat " + goqb(seatCopy) + " is not the one the sealed root gives: the judge committed to another salt"); return;
			}
			b.lp(seatCopy).bytes(join).bytes(tc);
			this.seats.push(seatCopy);
			this.saltComm.push(tc);
			if (!join.every((x) => x === 0)) this.res.joined++;
			if (!s.more(93)) break;
		}
		if (!s.expect(93)) return;
		new DataView(b.b.buffer).setUint32(0, this.seats.length);
		this.res.seats = this.seats.length;
		for (const g of this.optSalts) {
			const i = this.seatIndex(enc.encode(g.seat));
			if (i < 0) { fail("a salt was given for seat " + goq(g.seat) + ", which the start record does not name"); return; }
			if (!sameBytes(await saltCommitment(g.salt), this.saltComm[i])) {
				fail("the salt given for seat " + goq(g.seat) + " does not hash to its salt commitment: it is not the salt the judge committed to (or it was mistyped)"); return;
			}
			if (!this.watch.has(i)) {
				this.watch.set(i, this.res.salts.length);
				this.res.salts.push({ seat: g.seat, entries: [] });
			}
		}
	}

	seatIndex(seat) {
		let lo = 0, hi = this.seats.length;
		while (lo < hi) {
			const m = (lo + hi) >>> 1;
			if (cmpBytes(this.seats[m], seat) < 0) lo = m + 1; else hi = m;
		}
		return lo < this.seats.length && cmpBytes(this.seats[lo], seat) === 0 ? lo : -1;
	}

	async draw() {
		const s = this.s;
		if (!s.member("seq")) return;
		const seq = s.uintIn("seq", 1, U63);
		if (seq === null) return;
		if (!s.expect(44) || !s.member("step")) return;
		const step = s.uintIn("step", 1, MAX_CHAIN);
		if (step === null) return;
		this.recStep = step; this.recSeq = seq;
		const fail = (m) => this.failAt(TYPE.draw, step, seq, m);
		if (!eq(seq, this.seq + 1)) { fail("seq " + seq + ", but the draw before it was seq " + this.seq + ": a draw was deleted, moved or repeated"); return; }
		if (this.drawStep === 0 || step !== this.drawStep) { fail("a draw of step " + step + " must follow its step record or another draw of that step"); return; }
		if (!s.expect(44) || !s.member("stream")) return;
		const nameB = s.strBytes();
		if (nameB === null) return;
		const name = dec.decode(nameB);
		const sealed = name !== "open";
		let idx = -1;
		if (sealed) {
			const i = this.streamIdx.get(name);
			if (i === undefined) { fail("stream " + goq(name) + " is neither open nor a stream the header declares"); return; }
			idx = i;
		}
		if (!s.expect(44) || !s.member("word")) return;
		const word = s.uintIn("word", 0, U63);
		if (word === null) return;
		if (!s.expect(44) || !s.member("spec")) return;
		const specB = s.strBytes();
		if (specB === null) return;
		const specText = dec.decode(specB);
		let spec = this.specs.get(specText);
		if (spec === undefined) {
			try { spec = parseSpec(specText); } catch (e) { fail(e.message); return; }
			if (this.specs.size < 4096) this.specs.set(specText, spec);
		}
		const count = specDraws(spec);
		if (!s.expect(44) || !s.member("values")) return;
		let vals = [];
		const hasValues = !s.null();
		if (hasValues) {
			if (!s.expect(91)) return;
			if (s.ws() === 93) s.pos++;
			else {
				for (;;) {
					const x = s.int64("a value");
					if (x === null) return;
					if (vals.length === count) { fail("more values than a " + goq(specText) + " draw gives (" + count + ")"); return; }
					vals.push(x);
					if (!s.more(93)) break;
				}
				if (!s.expect(93)) return;
			}
			if (vals.length !== count) { fail(vals.length + " values, but a " + goq(specText) + " draw gives " + count); return; }
		}
		if (!s.expect(44) || !s.member("commitment")) return;
		let c = null;
		if (s.null()) {
			if (sealed) { fail("a draw from hidden stream " + goq(name) + " without a commitment"); return; }
		} else {
			if (!sealed) { fail("an open draw with a commitment: only hidden draws have one"); return; }
			if ((c = s.hex("commitment", 32)) === null) return;
		}
		if (!s.expect(44) || !s.member("purpose")) return;
		const purpose = s.strBytes();
		if (purpose === null) return;
		this.res.draws++;
		this.seq = typeof seq === "number" ? seq : Number(seq);
		let st, hs = null;
		if (!sealed) st = this.open;
		else {
			hs = this.hidden[idx];
			if (hs.gen !== step) {
				for (const k in hs) delete hs[k];
				hs.gen = step; hs.known = false; hs.started = false; hs.next = 0;
				const id = step * 1024 + idx;
				if (this.root !== null) { hs.key = await streamKey(this.root, step, name); hs.known = true; }
				else if (this.revIndex.has(id)) { hs.key = this.revIndex.get(id); hs.known = true; }
				if (hs.known) hs.stream = new Stream(hs.key, T.stream, this.digest);
			}
			st = hs.stream;
		}
		const known = !sealed || hs.known;
		if (known && !hasValues) { fail("values are null, but the key of stream " + goq(name) + " of step " + step + " is public: they must be shown"); return; }
		if (!known && hasValues && sealed) { fail("values are shown for a hidden draw whose key is not public"); return; }
		const b = this.body;
		b.u64(seq).u64(step);
		if (sealed) b.byte(1).lp(nameB.slice());
		else b.byte(0).u32(0);
		b.u64(word).lp(specB.slice()).u32(count);
		const valuesAt = b.n;
		if (!known) {
			b.bytes(c).lp(purpose);
			this.res.sealed++;
			return;
		}
		const started = sealed ? hs.started : this.openStart;
		const next = sealed ? hs.next : this.openNext;
		if (started && !eq(word, next)) { fail("reads from word " + word + ", but stream " + goq(name) + " of step " + step + " is at word " + next + ": a draw is missing, repeated or moved"); return; }
		if (!started && !eq(word, 0)) { fail("reads from word " + word + ", but it is the first draw of stream " + goq(name) + " in step " + step + ", which starts at word 0"); return; }
		st.word = typeof word === "number" ? word : Number(word);
		const want = await specDraw(spec, st, []);
		if (sealed) { hs.next = st.word; hs.started = true; } else { this.openNext = st.word; this.openStart = true; }
		for (let j = 0; j < want.length; j++) {
			if (!eq(vals[j], want[j])) { fail("value " + (j + 1) + " is " + vals[j] + ", but stream " + goq(name) + " gives " + want[j]); return; }
		}
		for (const x of vals) b.u64(x);
		b.lp(purpose);
		if (sealed) {
			const mac = await hmac(await hmacKey(hs.key), new Buf(b.n + 16).bytes(T.hide).bytes(b.view()).view());
			if (!sameBytes(mac, c)) { fail("its commitment does not match its values under the key of stream " + goq(name) + " of step " + step); return; }
			b.n = valuesAt;
			b.bytes(c).lp(purpose);
		}
		this.res.rederived++;
	}

	reveal() {
		const s = this.s;
		if (!s.member("step")) return;
		const step = s.uintIn("step", 1, MAX_CHAIN);
		if (step === null) return;
		if (!s.expect(44) || !s.member("stream")) return;
		const nameB = s.strBytes();
		if (nameB === null) return;
		const name = dec.decode(nameB);
		if (!s.expect(44) || !s.member("key")) return;
		const key = s.hex("key", 32);
		if (key === null) return;
		this.recStep = step;
		const fail = (m) => this.failAt(TYPE.reveal, step, 0, m);
		if (step > this.steps) { fail("reveals a key of step " + step + ", which is not taken yet"); return; }
		if (this.nextRev >= this.revealed.length) { fail("\"revealed\" has no entry for this reveal record"); return; }
		const want = this.revealed[this.nextRev];
		if (!eq(want.step, step) || want.stream !== name || !sameBytes(want.key, key)) { fail("it is not the next entry of \"revealed\" (step " + want.step + ", stream " + goq(want.stream) + ")"); return; }
		this.nextRev++;
		this.body.u64(step).lp(nameB.slice()).bytes(key);
		this.res.reveals++;
	}

	rollback() {
		const s = this.s;
		if (!s.member("closed")) return;
		const closed = s.uintIn("closed", 1, MAX_CHAIN);
		if (closed === null) return;
		if (!s.expect(44) || !s.member("target")) return;
		const target = s.uintIn("target", 1, MAX_CHAIN);
		if (target === null) return;
		if (!s.expect(44) || !s.member("command")) return;
		const command = s.hex("command", 32);
		if (command === null || !s.expect(44) || !s.member("reason")) return;
		const reason = s.strBytes();
		if (reason === null) return;
		this.recStep = closed;
		const fail = (m) => this.failAt(TYPE.rollback, closed, 0, m);
		if (closed !== this.steps + 1) { fail("closes step " + closed + ", but the open step is " + (this.steps + 1)); return; }
		if (closed > this.hdr.chainLength) { fail("step " + closed + " is past the chain length " + this.hdr.chainLength); return; }
		if (target > closed) { fail("target " + target + " is after the step it closes"); return; }
		this.steps = closed;
		this.body.u64(closed).u64(target).bytes(command).lp(reason.slice());
		this.res.rollbacks++;
	}

	end() {
		const s = this.s;
		if (!s.member("sealed_root")) return;
		const root = s.hex("sealed_root", 32);
		if (root === null) return;
		if (this.root === null || !sameBytes(this.root, root)) { this.failAt(TYPE.end, 0, 0, "its root is not the export's \"sealed_root\""); return; }
		this.body.bytes(root);
		this.ended = true;
	}
}

function problemText2(p) {
	let where = "";
	if (p.record === 0) where = "";
	else if (p.seq !== 0) where = "record " + p.record + " (draw seq " + p.seq + " of step " + p.step + "): ";
	else if (p.step !== 0) where = "record " + p.record + " (" + p.type + ", step " + p.step + "): ";
	else if (p.type !== "") where = "record " + p.record + " (" + p.type + "): ";
	else where = "record " + p.record + ": ";
	return where + p.reason;
}

function plural(n, thing) {
	if (n === 1) return "1 " + thing;
	if (thing.endsWith("y")) return n + " " + thing.slice(0, -1) + "ies";
	return n + " " + thing + "s";
}

// printVerifyV2 is cmd/umpire/verify.go's, line for line.
function printV2(name, res, wantHead, beaconUnchecked) {
	const lines = [];
	const scheme = res.version === 3 ? "umpire-dice-v3" : "umpire-dice-v2";
	if (res.problem !== null) {
		lines.push("FAILED " + name + " (game " + res.game + ", " + scheme + ")");
		lines.push("  " + problemText2(res.problem));
		lines.push("  Nothing from this record on can be trusted.");
		return { state: "failed", headline: "The log does not verify: " + problemText2(res.problem), text: lines.join("\n") };
	}
	const state = res.ended ? "ended: its sealed root is public" : "running";
	lines.push("OK " + name + " (game " + res.game + ", " + scheme + ", " + state + ")");
	let l = "  " + res.records + " records: " + res.steps + " steps, " + res.draws + " draws (" + res.rederived + " re-derived";
	if (res.sealed > 0) l += ", " + res.sealed + " hidden whose key is not public: their place and form checked";
	l += "), " + plural(res.reveals, "key reveal") + ", " + plural(res.rollbacks, "rollback") + ".";
	lines.push(l);
	if (res.beacon === "") lines.push("  No beacon: the dice depend on the judge's committed secrets and the orders.");
	else if (res.beacon === "unknown") {
		lines.push("  Beacon: UNKNOWN network. Its rounds verify under the key in the header, but a round signed");
		lines.push("  by a key the operator holds proves nothing: check that key yourself.");
	} else lines.push("  Beacon: " + res.beacon + "; every step's round verified.");
	if (beaconUnchecked) lines.push("  (This browser could not load the BLS code (" + blsError + "): each round's number and randomness were checked, its signature was not. umpire verify checks it.)");
	if (res.beacon !== "") {
		let d = "  Beacon delay: " + res.delay + " s (" + periods(res.delay, res.period) + " periods of " + res.period + " s)";
		if (res.delayUnderFloor) d += ", under umpire-dice-v3's floor of " + minBeaconDelay(res.period) + " s: a v3 game may not ask for it";
		lines.push(d + ".");
	}
	if (res.startHead !== null) lines.push("  Start record: " + plural(res.seats, "seat") + ", " + res.joined + " contributed a signed join; h_2 " + res.startHead + ".");
	else if (res.version === 3) lines.push("  No start record: the game has not started.");
	for (const s of res.salts) {
		lines.push("  Your salt for seat " + s.seat + " is the one the start record commits to. Your order entries (compare each with your receipt, or 'umpire digest'):");
		if (s.entries.length === 0) lines.push("    (none)");
		for (const e of s.entries) lines.push("    step " + e.step + ": sent for step " + e.forStep + ", version " + e.version + ", digest " + e.digest);
	}
	lines.push("  Log head " + res.head);
	let headline = "All " + res.records + " records verified, head " + res.head;
	let st = "ok";
	if (!wantHead) lines.push("  Compare this head with the one quoted in your latest report (or pass it with --head).");
	else if (wantHead === res.head) lines.push("  It is the head you gave: this is the log your report quoted.");
	else {
		lines.push("HEAD DIFFERS: you gave " + wantHead + ".");
		lines.push("  The log verifies, but it is not the log that report quoted.");
		headline = "The log verifies, but its head is not the head you gave";
		st = "failed";
	}
	return { state: st, headline, text: lines.join("\n") };
}

// ---- umpire-dice-v1 (legacy/verify.go, legacy/export.go) -----------------

// readV1 reads a version 1 export as Go's encoding/json does for
// dice.Export: member names match without regard to case, unknown members
// are refused.
function readV1(bytes) {
	let text;
	try { text = new TextDecoder("utf-8").decode(bytes); } catch (e) { throw new NotLog("not an umpire dice log: " + e.message); }
	let doc;
	try { doc = JSON.parse(text); } catch (e) { throw new NotLog("not an umpire dice log: " + e.message); }
	if (doc === null || typeof doc !== "object" || Array.isArray(doc)) throw new NotLog("not an umpire dice log: json: cannot unmarshal " + jsonKind(doc) + " into Go value of type struct { Format string \"json:\\\"format\\\"\"; Version int \"json:\\\"version\\\"\" }");
	const pick = (o, name) => { for (const k of Object.keys(o)) if (k.toLowerCase() === name) return o[k]; return undefined; };
	const format = pick(doc, "format"), version = pick(doc, "version");
	if ((format ?? "") !== "umpire-dice-log") throw new NotLog("not an umpire dice log: its \"format\" is " + goq(String(format ?? "")) + ", want \"umpire-dice-log\"");
	if ((version ?? 0) !== 1) throw new NotLog("unsupported dice log version: version " + (version ?? 0) + " (this umpire reads version 1)");
	const fields = {
		top: ["format", "version", "scheme", "game", "chain_length", "commitments", "h0", "steps", "entries", "head"],
		commitments: ["open", "sealed"],
		step: ["step", "phase", "orders", "digest", "open_link", "sealed_link"],
		entry: ["seq", "step", "stream", "word", "spec", "values", "hidden", "purpose", "hash"],
	};
	const known = (o, list) => {
		if (o === null) return;
		if (typeof o !== "object" || Array.isArray(o)) throw new NotLog("not an umpire dice log: json: cannot unmarshal " + jsonKind(o) + " into a log object");
		for (const k of Object.keys(o)) if (!list.includes(k.toLowerCase())) throw new NotLog("not an umpire dice log: json: unknown field " + goq(k));
	};
	known(doc, fields.top);
	const hash = (v, what) => {
		if (v === null || v === undefined) return new Uint8Array(32);
		if (typeof v !== "string" || !/^[0-9a-fA-F]{64}$/.test(v)) throw new NotLog("not an umpire dice log: " + what + ": hash: want 64 hex digits");
		const out = new Uint8Array(32);
		for (let i = 0; i < 32; i++) out[i] = parseInt(v.substr(2 * i, 2), 16);
		return out;
	};
	const uint = (v) => { if (v === undefined || v === null) return 0; if (typeof v !== "number" || !Number.isInteger(v) || v < 0) throw new NotLog("not an umpire dice log: json: cannot unmarshal " + JSON.stringify(v) + " into an unsigned number"); return v; };
	const str = (v) => { if (v === undefined || v === null) return ""; if (typeof v !== "string") throw new NotLog("not an umpire dice log: json: cannot unmarshal " + jsonKind(v) + " into a string"); return v; };
	const c = pick(doc, "commitments") || {};
	known(c, fields.commitments);
	const x = {
		scheme: str(pick(doc, "scheme")), game: str(pick(doc, "game")), chainLength: uint(pick(doc, "chain_length")),
		open0: hash(pick(c, "open"), "commitments.open"), sealed0: hash(pick(c, "sealed"), "commitments.sealed"),
		start: hash(pick(doc, "h0"), "h0"), head: hash(pick(doc, "head"), "head"), steps: [], entries: [],
	};
	for (const s of pick(doc, "steps") || []) {
		known(s, fields.step);
		const ol = pick(s, "open_link"), sl = pick(s, "sealed_link");
		x.steps.push({ step: uint(pick(s, "step")), phase: str(pick(s, "phase")), orders: (pick(s, "orders") || []).map((o) => hash(o, "orders")),
			digest: hash(pick(s, "digest"), "digest"), open: ol == null ? null : hash(ol, "open_link"), sealed: sl == null ? null : hash(sl, "sealed_link") });
	}
	for (const e of pick(doc, "entries") || []) {
		known(e, fields.entry);
		const vals = pick(e, "values");
		x.entries.push({ seq: uint(pick(e, "seq")), step: uint(pick(e, "step")), stream: str(pick(e, "stream")), word: uint(pick(e, "word")),
			spec: str(pick(e, "spec")), values: vals == null ? null : vals, hidden: pick(e, "hidden") === true, purpose: str(pick(e, "purpose")), hash: hash(pick(e, "hash"), "hash") });
	}
	return x;
}
function jsonKind(v) {
	if (v === null) return "null";
	if (Array.isArray(v)) return "array";
	return typeof v === "object" ? "object" : typeof v;
}

async function verifyV1(x, progress) {
	const res = { game: x.game, steps: x.steps.length, entries: x.entries.length, verified: 0, hidden: 0, head: "", problem: null };
	const fail = (seq, step, purpose, reason) => { res.problem = { seq, step, purpose, reason }; return res; };
	if (x.scheme !== "umpire-dice-v1") return fail(0, 0, "", "scheme is " + goq(x.scheme) + ", this verifier checks \"umpire-dice-v1\"");
	const want = await sha256(new Buf(96).bytes(T.log1).bytes(x.open0).bytes(x.sealed0).view());
	if (!sameBytes(x.start, want)) return fail(0, 0, "", "h0 is " + hexOf(x.start) + " but the commitments give " + hexOf(want));
	if (x.chainLength < 1 || x.chainLength > MAX_CHAIN) return fail(0, 0, "", "chain_length " + x.chainLength + " is outside 1 to " + MAX_CHAIN);
	const steps = new Map();
	let lastOpen = x.open0, lastOpenAt = 0, lastSealed = x.sealed0, lastSealedAt = 0;
	const linkName = (chain, step) => step === 0 ? "the " + chain + " commitment" : "the " + chain + " link of step " + step;
	for (let i = 0; i < x.steps.length; i++) {
		const s = x.steps[i];
		if (s.step === 0 || (i > 0 && s.step <= x.steps[i - 1].step)) return fail(0, s.step, "", "steps must be numbered from 1 in increasing order");
		if (s.step > x.chainLength) return fail(0, s.step, "", "step is past the end of a chain of " + x.chainLength + " links");
		steps.set(s.step, s);
		const sorted = s.orders.slice().sort(cmpBytes);
		const b = new Buf(256);
		const game = enc.encode(x.game), phase = enc.encode(s.phase);
		b.bytes(T.dice1).byte(0).lp(game).u64(s.step).lp(phase).u32(sorted.length);
		for (const d of sorted) b.bytes(d);
		const d = await sha256(b.view());
		if (!sameBytes(d, s.digest)) return fail(0, s.step, "", "digest D_k is " + hexOf(s.digest) + " but its game, step, phase and " + s.orders.length + " order digests give " + hexOf(d));
		if (s.open !== null) {
			if (!await linkReaches(T.chain1, s.open, s.step - lastOpenAt, lastOpen)) return fail(0, s.step, "", "open link " + hexOf(s.open) + " does not hash back to " + linkName("open", lastOpenAt));
			lastOpen = s.open; lastOpenAt = s.step;
		}
		if (s.sealed !== null) {
			if (!await linkReaches(T.chain1, s.sealed, s.step - lastSealedAt, lastSealed)) return fail(0, s.step, "", "sealed link " + hexOf(s.sealed) + " does not hash back to " + linkName("sealed", lastSealedAt));
			lastSealed = s.sealed; lastSealedAt = s.step;
		}
	}
	const specs = new Map();
	let prev = x.start, lastStep = 0, step = null, cur = null;
	for (let i = 0; i < x.entries.length; i++) {
		if (i % 1024 === 0) progress(i, x.entries.length);
		const e = x.entries[i];
		const efail = (reason) => fail(e.seq, e.step, e.purpose, reason);
		if (e.seq !== i + 1) {
			if (e.seq === 0) return efail("entry at position " + (i + 1) + " has no seq");
			return efail("found at position " + (i + 1) + " of the log: entries are out of order, missing or repeated");
		}
		if (e.step < lastStep) return efail("comes after an entry of step " + lastStep + ": entries are out of order");
		if (step === null || e.step !== lastStep) {
			step = steps.get(e.step) || null;
			cur = [{ stream: null, next: 0, started: false }, { stream: null, next: 0, started: false }];
		}
		lastStep = e.step;
		if (step === null) return efail("its step is not among the log's steps");
		let kind;
		if (e.stream === "open") kind = 0; else if (e.stream === "sealed") kind = 1;
		else return efail("stream " + goq(e.stream) + " is neither open nor sealed");
		let spec = specs.get(e.spec);
		if (spec === undefined) {
			try { spec = parseSpec(e.spec); } catch (err) { return efail(err.message); }
			specs.set(e.spec, spec);
		}
		const c = cur[kind];
		const kname = kind === 1 ? "sealed" : "open";
		if (e.hidden) {
			if (kind !== 1 || step.sealed !== null) return efail("values are withheld, but only draws from an unrevealed sealed link may be");
			if (e.values !== null) return efail("values are given for a hidden entry");
			if (e.hash.every((v) => v === 0)) return efail("hidden entry without a hash");
			res.hidden++;
			prev = e.hash;
			continue;
		}
		const link = kind === 1 ? step.sealed : step.open;
		if (link === null) return efail("its values cannot be checked: the " + kname + " link of step " + e.step + " is not revealed");
		if (c.started && e.word !== c.next) return efail("reads from word " + e.word + ", but the " + kname + " stream of step " + e.step + " is at word " + c.next + ": an entry is missing, repeated or moved");
		if (!c.started && e.word !== 0) return efail("reads from word " + e.word + ", but it is the first draw of the " + kname + " stream of step " + e.step + ", which starts at word 0");
		const vals = e.values || [];
		if (vals.length !== specDraws(spec)) return efail("has " + vals.length + " values, a " + goq(e.spec) + " draw gives " + specDraws(spec));
		if (c.stream === null) c.stream = new Stream(link, T.dice1, step.digest);
		c.stream.word = e.word;
		const got = await specDraw(spec, c.stream, []);
		for (let j = 0; j < got.length; j++) if (vals[j] !== got[j]) return efail("value " + (j + 1) + " is " + vals[j] + ", but the " + kname + " stream gives " + got[j]);
		c.next = c.stream.word; c.started = true;
		const b = new Buf(256);
		b.bytes(prev).u64(e.seq).u64(e.step).byte(kind).u64(e.word).lp(enc.encode(e.spec)).u32(vals.length);
		for (const v of vals) b.u64(v);
		b.lp(enc.encode(e.purpose));
		const h = await sha256(b.view());
		if (!sameBytes(e.hash, h)) return efail("its stated hash " + hexOf(e.hash) + " is not the hash of its content and the previous entry (" + hexOf(h) + "): the purpose, spec or another field was changed");
		res.verified++;
		prev = h;
	}
	progress(x.entries.length, x.entries.length);
	res.head = hexOf(prev);
	if (!sameBytes(x.head, prev)) return fail(0, 0, "", "the stated head " + hexOf(x.head) + " is not the hash of the last entry (" + hexOf(prev) + "): entries are missing at the end or the head was changed");
	return res;
}

function problemText1(p) {
	if (p.seq !== 0) return "entry " + p.seq + " (step " + p.step + ", " + goq(p.purpose) + "): " + p.reason;
	if (p.step !== 0) return "step " + p.step + ": " + p.reason;
	return p.reason;
}

function printV1(name, res, wantHead) {
	const lines = [];
	if (res.problem !== null) {
		lines.push("FAILED " + name + " (game " + res.game + ")");
		lines.push("  " + problemText1(res.problem));
		lines.push("  Nothing from this entry on can be trusted; the log has " + res.steps + " steps and " + res.entries + " entries.");
		return { state: "failed", headline: "The log does not verify: " + problemText1(res.problem), text: lines.join("\n") };
	}
	lines.push("OK " + name + " (game " + res.game + ")");
	let l = "  " + res.steps + " steps, " + res.entries + " entries: " + res.verified + " re-derived from their revealed links";
	if (res.hidden > 0) l += ",\n  " + plural(res.hidden, "sealed entry") + " taken by their stated hash until their link is revealed";
	lines.push(l + ".");
	lines.push("  Log head " + res.head);
	lines.push("  Compare this head with the one quoted in your latest report.");
	let headline = "All " + res.entries + " entries verified, head " + res.head, st = "ok";
	if (wantHead && wantHead !== res.head) {
		lines.push("HEAD DIFFERS: you gave " + wantHead + ".");
		lines.push("  The log verifies, but it is not the log that report quoted.");
		headline = "The log verifies, but its head is not the head you gave";
		st = "failed";
	}
	return { state: st, headline, text: lines.join("\n") };
}

// ---- the worker -------------------------------------------------------------

// parseSalt reads "SEAT:SALT" as umpire verify's --salt does.
function parseSalt(text) {
	const i = text.lastIndexOf(":");
	if (i < 1) throw new NotLog("want SEAT:SALT, such as Serb:87e360b2... (64 hex digits)");
	const hex = text.slice(i + 1);
	if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new NotLog("the salt: want 64 hex digits");
	const salt = new Uint8Array(32);
	for (let j = 0; j < 32; j++) salt[j] = parseInt(hex.substr(2 * j, 2), 16);
	return { seat: text.slice(0, i), salt };
}

async function verify(bytes, name, wantHead, saltText) {
	if (!subtle) {
		return { state: "unreadable", headline: "This browser offers no WebCrypto here", text: "The page must be served over HTTPS (or from this computer) for the browser's cryptography to be available.\nDownload the log and run: umpire verify " + name };
	}
	let lastPost = 0;
	const progress = (done, total) => {
		const now = Date.now();
		if (now - lastPost > 100 || done === total) {
			lastPost = now;
			postMessage({ type: "progress", done, total });
		}
	};
	let salts = [];
	if (saltText) {
		try { salts = [parseSalt(saltText)]; } catch (e) { return unreadable(name, e.message); }
	}
	const v = new Verifier2(bytes, (off) => progress(off, bytes.length), salts);
	try {
		v.start();
	} catch (e) {
		if (e instanceof NotLog) return unreadable(name, e.message);
		if (!(e instanceof V1Log)) throw e;
		let x;
		try { x = readV1(bytes); } catch (e2) {
			if (e2 instanceof NotLog) return unreadable(name, e2.message);
			throw e2;
		}
		const res = await verifyV1(x, progress);
		return printV1(name, res, wantHead);
	}
	await v.run();
	if (v.s.err !== null && v.res.problem === null) v.failf(v.s.err);
	return printV2(name, v.res, wantHead, v.beacon !== null && v.beacon.unchecked > 0);
}

function unreadable(name, msg) {
	return { state: "unreadable", headline: name + ": not a dice log this verifier reads", text: "umpire verify: " + name + ": not a dice log this verifier reads: " + msg };
}

self.onmessage = async (ev) => {
	const { bytes, name, head, salt } = ev.data;
	const started = performance.now();
	try {
		const out = await verify(new Uint8Array(bytes), name, head || "", salt || "");
		out.type = "done";
		out.ms = Math.round(performance.now() - started);
		postMessage(out);
	} catch (e) {
		postMessage({ type: "done", state: "unreadable", headline: "The verifier failed", text: String(e && e.stack || e), ms: 0 });
	}
};
