// Fixed-width text fields as blkid reads them: up to the first NUL, trailing C whitespace trimmed,
// and nothing at all when that leaves an empty string.

/** cString is the bytes before the first NUL (or all of them). */
export function cString(b: Buffer): Buffer {
  const end = b.indexOf(0);
  return end === -1 ? b : b.subarray(0, end);
}

// C's isspace in the "C" locale: blkid trims these, and only these, from the right
const SPACE = new Set([0x20, 0x09, 0x0a, 0x0b, 0x0c, 0x0d]);

/** rtrim drops trailing C whitespace from a decoded string. */
export function rtrim(s: string): string {
  let end = s.length;
  while (end > 0 && SPACE.has(s.charCodeAt(end - 1))) end--;
  return s.slice(0, end);
}

/** label decodes a NUL-padded field; `latin1` for single-byte code pages (FAT), UTF-8 elsewhere. */
export function label(b: Buffer, encoding: 'utf8' | 'latin1' = 'utf8'): string | undefined {
  const s = rtrim(cString(b).toString(encoding));
  return s === '' ? undefined : s;
}
