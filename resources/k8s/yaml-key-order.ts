// The order in which upstream's YAML encoder (gopkg.in/yaml.v3) writes a map's string keys: rune by rune,
// a non-letter before a letter, and runs of digits compared as numbers ("a9" before "a10").

const isLetter = (c: string) => /\p{L}/u.test(c);
const isDigit = (c: string) => c >= '0' && c <= '9';

/** compareYAMLKeys is a sort comparator giving yaml.v3's order of string map keys. */
export function compareYAMLKeys(a: string, b: string): number {
  const ar = [...a];
  const br = [...b];
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
    if (al && bl) return ac < bc ? -1 : 1;
    if (al || bl) return (digits ? al : bl) ? -1 : 1;
    let an = 0;
    let bn = 0;
    // a zero inside a number already begun with a nonzero digit is no leading zero: it makes the values differ
    if (ac === '0' || bc === '0')
      for (let j = i - 1; j >= 0 && isDigit(ar[j]!); j--)
        if (ar[j] !== '0') {
          an = 1;
          bn = 1;
          break;
        }
    let ai = i;
    let bi = i;
    for (; ai < ar.length && isDigit(ar[ai]!); ai++) an = an * 10 + Number(ar[ai]);
    for (; bi < br.length && isDigit(br[bi]!); bi++) bn = bn * 10 + Number(br[bi]);
    if (an !== bn) return an < bn ? -1 : 1;
    if (ai !== bi) return ai < bi ? -1 : 1;
    return ac < bc ? -1 : 1;
  }
  return ar.length - br.length;
}
