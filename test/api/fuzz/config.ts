// Machine configs for a fuzz: a valid config's text with a few line-level mutations, the kind of damage a
// hand edit, a bad template or a hostile client does: lines lost, doubled, swapped or re-indented,
// values swapped for YAML's awkward corners, stray documents, anchors and aliases.
import type { Rng } from './random.js';

/** values YAML and the config's types read in surprising ways */
const VALUES = [
  '',
  '~',
  '[]',
  '{}',
  '-1',
  '1e999',
  '0x1F',
  '0o777',
  'yes',
  'NaN',
  '.inf',
  '"\\u0000"',
  "'",
  '"',
  '&a x',
  '*a',
  '*nowhere',
  '!!binary AAAA',
  '!!python/object:os.system x',
  '[[[[[[[[[[]]]]]]]]]]',
  '2001:db8::1/129',
  '999.1.1.1/33',
  'x'.repeat(100_000),
  '|\n  a\n b',
  '? complex\n: key',
];

const KEYS = ['unknown', 'kind', 'apiVersion', 'version', '$patch', '<<', 'machine', 'cluster'];

function mutateLines(rng: Rng, lines: string[]): string[] {
  const out = [...lines];
  const at = rng.int(out.length);
  switch (rng.int(9)) {
    case 0:
      out.splice(at, 1);
      break;
    case 1:
      out.splice(at, 0, out[at] ?? '');
      break;
    case 2: {
      const other = rng.int(out.length);
      [out[at], out[other]] = [out[other] ?? '', out[at] ?? ''];
      break;
    }
    case 3:
      out[at] = rng.chance(0.5) ? `  ${out[at]}` : (out[at] ?? '').replace(/^ {1,2}/, '');
      break;
    case 4: {
      const line = out[at] ?? '';
      const colon = line.indexOf(': ');
      out[at] = `${colon >= 0 ? line.slice(0, colon + 2) : `${line}: `}${rng.pick(VALUES)}`;
      break;
    }
    case 5:
      out.splice(at, 0, `${' '.repeat(2 * rng.int(4))}${rng.pick(KEYS)}: ${rng.pick(VALUES)}`);
      break;
    case 6:
      out.splice(at, 0, '---');
      break;
    case 7:
      out.splice(at, 0, `${' '.repeat(2 * rng.int(4))}- ${rng.pick(VALUES)}`);
      break;
    default:
      out.length = at; // the file cut short
  }
  return out;
}

/** mutatedConfig is `valid` with one to four line mutations, now and then doubled as a second document */
export function mutatedConfig(rng: Rng, valid: string): string {
  let lines = valid.split('\n');
  for (let k = 1 + rng.int(4); k > 0; k--) lines = mutateLines(rng, lines);
  const text = lines.join('\n');
  return rng.chance(0.05) ? `${text}\n---\n${text}` : text;
}
