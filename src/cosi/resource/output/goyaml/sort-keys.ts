// yaml.v3's map key order: numbers by value before strings, strings "naturally" (digit runs compared as numbers).
//
// Only JS Map values get this order (they stand for Go maps); plain objects keep their key order,
// which is how Go structs render.

export type MapKey = string | number | bigint | boolean;

const LETTER = /\p{L}/u;
const DIGIT = /\p{Nd}/u;
const isLetter = (c: string) => LETTER.test(c);
const isDigit = (c: string) => DIGIT.test(c);

/** Go reflect kinds, whose numeric order breaks ties between keys of different types */
const kindOf = (k: MapKey): number =>
  typeof k === 'boolean'
    ? 1
    : typeof k === 'bigint' || Number.isInteger(k)
      ? 2
      : typeof k === 'number'
        ? 14
        : 24;

/** stringLess is keyList.Less for two strings. */
function stringLess(a: string, b: string): boolean {
  const ar = Array.from(a);
  const br = Array.from(b);
  let digits = false;
  for (let i = 0; i < ar.length && i < br.length; i++) {
    const ac = ar[i]!;
    const bc = br[i]!;
    if (ac === bc) {
      digits = isDigit(ac);
      continue;
    }
    const al = isLetter(ac);
    const bl = isLetter(bc);
    if (al && bl) return ac.codePointAt(0)! < bc.codePointAt(0)!;
    if (al || bl) return digits ? al : bl;
    let an = 0n;
    let bn = 0n;
    if (ac === '0' || bc === '0') {
      // a zero after a non-zero digit run is part of that number, not a leading zero
      for (let j = i - 1; j >= 0 && isDigit(ar[j]!); j--) {
        if (ar[j] !== '0') {
          an = 1n;
          bn = 1n;
          break;
        }
      }
    }
    let ai = i;
    for (; ai < ar.length && isDigit(ar[ai]!); ai++) an = an * 10n + BigInt(ar[ai]!.codePointAt(0)! - 48);
    let bi = i;
    for (; bi < br.length && isDigit(br[bi]!); bi++) bn = bn * 10n + BigInt(br[bi]!.codePointAt(0)! - 48);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ac.codePointAt(0)! < bc.codePointAt(0)!;
  }
  return ar.length < br.length;
}

/** goKeyLess is yaml.v3's keyList.Less. */
export function goKeyLess(a: MapKey, b: MapKey): boolean {
  const ak = kindOf(a);
  const bk = kindOf(b);
  if (ak !== 24 && bk !== 24) {
    const af = Number(a);
    const bf = Number(b);
    if (af !== bf) return af < bf;
    if (ak !== bk) return ak < bk;
    return typeof a === 'bigint' || typeof b === 'bigint'
      ? BigInt(a) < BigInt(b)
      : (a as number) < (b as number);
  }
  if (ak !== 24 || bk !== 24) return ak < bk;
  return stringLess(a as string, b as string);
}

/** compareUTF8 orders strings by code point, which is the UTF-8 byte order Go's string comparison uses. */
export function compareUTF8(a: string, b: string): number {
  for (let i = 0; i < a.length && i < b.length; ) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    i += x > 0xffff ? 2 : 1;
  }
  return a.length - b.length;
}

/** sortGoKeys returns the keys in yaml.v3 order. */
export const sortGoKeys = <K extends MapKey>(keys: Iterable<K>): K[] =>
  [...keys].sort((a, b) => (goKeyLess(a, b) ? -1 : goKeyLess(b, a) ? 1 : 0));
