// Fuzzes the decoder with random and mutated YAML: whatever the input, it returns a Config or throws
// ConfigErrors, and validating what it returns never throws. Seeded, so a failure names its case.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decode } from '../../../src/config/decoder/index.js';
import { ConfigError, ConfigErrors } from '../../../src/config/errors.js';
import { validate } from '../../../src/config/validate/index.js';
import { mulberry32 } from '../../seeded-random.js';

const CASES = 10_000;
// FUZZ_SEED=<n> replays a run; each failing case reports the seed and index that rebuild it
const SEED = Number(process.env.FUZZ_SEED ?? 0x6b65656c);
const BUDGET_MS = 40_000;

type Rand = () => number;
const int = (r: Rand, n: number) => Math.floor(r() * n);
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[int(r, xs.length)]!;

const fixtureDir = new URL('../fixtures/', import.meta.url);
const invalidDir = new URL('../invalid/', import.meta.url);
const read = (dir: URL) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.yaml.txt'))
    .map((f) => readFileSync(new URL(f, dir), 'utf8'));
const seeds = [...read(fixtureDir), ...read(invalidDir)];

// keys the schema knows, so random documents reach deep into it instead of stopping at the first key
const keys = (
  'version machine cluster type token network interfaces interface addresses routes gateway bond mode ' +
  'vlans vlanId vip ip install disk diskSelector size files permissions kind apiVersion name hostname auto ' +
  'nameservers kubelet extraConfig logging destinations endpoint format wireguard peers publicKey ' +
  'controlPlane apiServer resources limits $patch mtu links parent vlanID bondMode privateKey nodeLabels ' +
  'nodeAnnotations disks partitions'
).split(' ');
const scalars = [
  '',
  '~',
  'null',
  'true',
  'no',
  'yes',
  '0',
  '-1',
  '0o777',
  '0x1f',
  '1e400',
  '.nan',
  '.inf',
  '10.0.0.1/24',
  '"quoted"',
  "'single'",
  'v1alpha1',
  'HostnameConfig',
  'LinkConfig',
  'VLANConfig',
  'BondConfig',
  'BridgeConfig',
  'DummyLinkConfig',
  'WireguardConfig',
  'worker',
  'controlplane',
  '!!binary aGk=',
  '!!str 12',
  '!custom x',
  '&a x',
  '*a',
  '*missing',
  '|\n  block',
  '>-\n  folded',
  '[1, 2',
  '{a: 1}',
  '[]',
  '{}',
  '"\\u0000"',
  '2001:db8::/64',
  'https://x:6443',
  '<<: *a',
  '? complex',
  '%TAG ! x',
  '- item',
  'a: b: c',
  '\t',
  '@',
  '`',
  '💥',
  '\u00e9',
];
const tokens = [
  ':',
  '-',
  '---',
  '...',
  '[',
  ']',
  '{',
  '}',
  ',',
  '#',
  '&x',
  '*x',
  '!!map',
  '?',
  '|',
  '>',
  '"',
  "'",
  '\n',
  '  ',
  '\t',
  '%YAML 1.2',
];

function randomValue(r: Rand, depth: number, indent: string): string {
  const roll = int(r, depth > 4 ? 2 : 6);
  if (roll < 2) return ` ${pick(r, scalars)}`;
  if (roll === 2) return ` [${Array.from({ length: int(r, 4) }, () => pick(r, scalars)).join(', ')}]`;
  if (roll === 3) return ` {${pick(r, keys)}: ${pick(r, scalars)}}`;
  const inner = `${indent}  `;
  if (roll === 4)
    return Array.from({ length: 1 + int(r, 3) }, () => `\n${inner}-${randomValue(r, depth + 1, inner)}`).join(
      '',
    );
  return Array.from(
    { length: 1 + int(r, 4) },
    () => `\n${inner}${pick(r, keys)}:${randomValue(r, depth + 1, inner)}`,
  ).join('');
}

function randomDocument(r: Rand): string {
  const head = r() < 0.5 ? `apiVersion: v1alpha1\nkind: ${pick(r, scalars)}\n` : 'version: v1alpha1\n';
  const body = Array.from({ length: 1 + int(r, 5) }, () => `${pick(r, keys)}:${randomValue(r, 0, '')}`).join(
    '\n',
  );
  return head + body;
}

function mutate(r: Rand, text: string): string {
  let lines = text.split('\n');
  for (let n = 1 + int(r, 4); n > 0; n--) {
    const at = int(r, lines.length);
    switch (int(r, 7)) {
      case 0: // drop a line
        lines.splice(at, 1);
        break;
      case 1: // duplicate a line (duplicate keys, repeated documents)
        lines.splice(at, 0, lines[at] ?? '');
        break;
      case 2: // shift indentation
        lines[at] = r() < 0.5 ? `  ${lines[at]}` : (lines[at] ?? '').replace(/^ {1,2}/, '');
        break;
      case 3: // replace a value
        lines[at] = (lines[at] ?? '').replace(/:.*$/, `:${randomValue(r, 3, '    ')}`);
        break;
      case 4: // splice in a syntax token
        {
          const l = lines[at] ?? '';
          const c = int(r, l.length + 1);
          lines[at] = l.slice(0, c) + pick(r, tokens) + l.slice(c);
        }
        break;
      case 5: // flip one character
        {
          const l = lines[at] ?? '';
          const c = int(r, Math.max(1, l.length));
          lines[at] = l.slice(0, c) + String.fromCharCode(32 + int(r, 95)) + l.slice(c + 1);
        }
        break;
      default: // cut the file short
        lines = lines.slice(0, at);
    }
  }
  return lines.join('\n');
}

function caseAt(seed: number, index: number): string {
  const r = mulberry32(seed ^ Math.imul(index + 1, 0x9e3779b1));
  const kind = int(r, 4);
  if (kind === 0) return randomDocument(r);
  if (kind === 1) return Array.from({ length: 1 + int(r, 3) }, () => randomDocument(r)).join('\n---\n');
  return mutate(r, pick(r, seeds));
}

/** outcome decodes (and validates) one input: 'rejected', 'accepted', or what was thrown that should not be. */
function outcome(text: string): string {
  let cfg: ReturnType<typeof decode>;
  try {
    cfg = decode(text);
  } catch (e) {
    if (e instanceof ConfigErrors && e.errors.every((x) => x instanceof ConfigError)) return 'rejected';
    return `decode threw ${e instanceof Error ? `${e.name}: ${e.stack}` : String(e)}`;
  }
  try {
    for (const mode of ['metal', 'container'] as const) validate(cfg, { mode, strict: mode === 'container' });
  } catch (e) {
    return `validate threw ${e instanceof Error ? `${e.name}: ${e.stack}` : String(e)}`;
  }
  return 'accepted';
}

describe('decoder fuzz', () => {
  it('mutates every seed file into something the decoder rejects or accepts', () => {
    expect(seeds.length).toBeGreaterThan(100);
    // sanity: the mutator does change input, and some mutants still decode, so both paths are exercised
    const r = mulberry32(SEED);
    const mutants = Array.from({ length: 200 }, () => mutate(r, pick(r, seeds)));
    expect(new Set(mutants).size).toBeGreaterThan(150);
  });

  it(`decodes ${CASES} random and mutated inputs, throwing nothing but ConfigErrors`, () => {
    const started = performance.now();
    const failures: string[] = [];
    let accepted = 0;
    for (let i = 0; i < CASES; i++) {
      const text = caseAt(SEED, i);
      const result = outcome(text);
      if (result === 'accepted') accepted++;
      else if (result !== 'rejected')
        failures.push(`FUZZ_SEED=${SEED} case ${i}: ${result}\n--- input ---\n${text}`);
      if (failures.length >= 5) break;
    }
    const elapsed = performance.now() - started;
    expect(failures, failures.join('\n\n')).toEqual([]);
    expect(accepted).toBeGreaterThan(0);
    expect(elapsed).toBeLessThan(BUDGET_MS);
  });
});

describe('inputs the fuzzer found', () => {
  const rejected = (text: string) => {
    try {
      decode(text);
    } catch (e) {
      if (e instanceof ConfigErrors) return e.errors.map((x) => x.message);
      throw e;
    }
    throw new Error('decode succeeded');
  };

  it('rejects an alias to an undefined anchor inside a free-form field', () => {
    const [msg] = rejected('machine:\n  kubelet:\n    extraConfig:\n      a: [*missing]\n');
    expect(msg).toMatch(/^v1alpha1 machine\.kubelet\.extraConfig \(line 4\): .*alias/i);
  });

  it('rejects an alias to an undefined anchor in a typed field', () => {
    expect(rejected('machine:\n  type: *nowhere\n')).toEqual([
      'v1alpha1 machine.type (line 2): unknown anchor "nowhere"',
    ]);
  });
});
