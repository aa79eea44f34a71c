// DER writer: the handful of ASN.1 encodings an X.509 certificate needs, each returning its bytes.
// Only src/pki uses it; it knows nothing about certificates.

/** tlv wraps content in a tag and a definite length (short form below 128 bytes, long form above). */
export function tlv(tag: number, content: Uint8Array): Buffer {
  const n = content.length;
  let head: number[];
  if (n < 0x80) head = [tag, n];
  else {
    const len: number[] = [];
    for (let v = n; v > 0; v = Math.floor(v / 256)) len.unshift(v & 0xff);
    head = [tag, 0x80 | len.length, ...len];
  }
  return Buffer.concat([Buffer.from(head), content]);
}

export const sequence = (...items: Uint8Array[]): Buffer => tlv(0x30, Buffer.concat(items));

/** setOf sorts its members by encoding, as DER requires for SET OF. */
export const setOf = (...items: Buffer[]): Buffer =>
  tlv(0x31, Buffer.concat([...items].sort(Buffer.compare)));

export const boolean = (v: boolean): Buffer => tlv(0x01, Buffer.from([v ? 0xff : 0x00]));

export const nul = (): Buffer => Buffer.from([0x05, 0x00]);

export const octetString = (b: Uint8Array): Buffer => tlv(0x04, b);

/** bitString carries whole bytes; unusedBits says how many low bits of the last byte are padding. */
export const bitString = (b: Uint8Array, unusedBits = 0): Buffer =>
  tlv(0x03, Buffer.concat([Buffer.from([unusedBits]), b]));

/** unsignedInteger encodes a non-negative big-endian magnitude in the fewest octets, sign bit clear. */
export function unsignedInteger(magnitude: Uint8Array): Buffer {
  let i = 0;
  while (i < magnitude.length - 1 && magnitude[i] === 0) i++;
  let b = Buffer.from(magnitude.subarray(i));
  if (b.length === 0) b = Buffer.from([0]);
  if (b[0]! & 0x80) b = Buffer.concat([Buffer.from([0]), b]);
  return tlv(0x02, b);
}

export const smallInteger = (v: number): Buffer => unsignedInteger(Buffer.from([v]));

export function oid(dotted: string): Buffer {
  const arcs = dotted.split('.').map((s) => Number.parseInt(s, 10));
  const [a = 0, b = 0, ...rest] = arcs;
  const out: number[] = [a * 40 + b];
  for (const arc of rest) {
    const base128: number[] = [arc & 0x7f];
    for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128)) base128.unshift((v & 0x7f) | 0x80);
    out.push(...base128);
  }
  return tlv(0x06, Buffer.from(out));
}

// PrintableString's alphabet; Go also lets '*' through, and we pick the string type the way it does
// so that names compare byte for byte with upstream certificates.
const PRINTABLE = /^[A-Za-z0-9 '()+,\-./:=?*]*$/;

/** directoryString is PrintableString when every character allows it, else UTF8String. */
export const directoryString = (s: string): Buffer =>
  PRINTABLE.test(s) ? tlv(0x13, Buffer.from(s, 'ascii')) : tlv(0x0c, Buffer.from(s, 'utf8'));

const two = (n: number) => String(n).padStart(2, '0');

/** time is UTCTime for 1950–2049 and GeneralizedTime outside it (RFC 5280 §4.1.2.5), whole seconds. */
export function time(d: Date): Buffer {
  const y = d.getUTCFullYear();
  const rest = [d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()]
    .map(two)
    .join('');
  if (y >= 1950 && y < 2050) return tlv(0x17, Buffer.from(`${two(y % 100)}${rest}Z`, 'ascii'));
  return tlv(0x18, Buffer.from(`${String(y).padStart(4, '0')}${rest}Z`, 'ascii'));
}

/** explicit wraps an encoding in a constructed context tag [n]. */
export const explicit = (n: number, inner: Uint8Array): Buffer => tlv(0xa0 | n, inner);

/** implicit re-tags primitive content as context tag [n]. */
export const implicit = (n: number, content: Uint8Array): Buffer => tlv(0x80 | n, content);
