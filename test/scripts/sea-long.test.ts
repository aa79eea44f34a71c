// long.js in the single executable (longPlugin): no WebAssembly compiled at load, the same 64-bit answers.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { longPlugin } from '../../scripts/sea.js';
import { type BundledEntry, bundleEntry } from './bundle-entry.js';

// counts WebAssembly modules made while long loads, then prints what it computes
const ENTRY = `
let compiled = 0;
const Module = WebAssembly.Module;
WebAssembly.Module = function (...a) { compiled++; return new Module(...a); };
const Long = require('long');
const a = Long.fromString('9223372036854775807');
const b = Long.fromString('-123456789012345');
process.stdout.write(JSON.stringify({
  compiled,
  mul: a.mul(b).toString(),
  div: a.div(b).toString(),
  rem: a.rem(b).toString(),
  udiv: Long.fromString('18446744073709551615', true).div(Long.fromNumber(10, true)).toString(),
  decimal: Long.fromBits(0xdeadbeef, 0x7eadbeef).toString(),
}));
`;

const run = (b: BundledEntry) => JSON.parse(execFileSync(process.execPath, [b.file], { encoding: 'utf8' }));

let plain: BundledEntry;
let patched: BundledEntry;

beforeAll(async () => {
  [plain, patched] = await Promise.all([bundleEntry(ENTRY, []), bundleEntry(ENTRY, [longPlugin])]);
}, 120_000);

afterAll(() => {
  plain?.remove();
  patched?.remove();
});

describe('long.js in the single executable', () => {
  it('compiles no WebAssembly at load (the plain bundle does)', () => {
    expect(run(plain).compiled).toBe(1);
    expect(run(patched).compiled).toBe(0);
  });

  it('computes what long computes with WebAssembly', () => {
    const { compiled: _a, ...withWasm } = run(plain);
    const { compiled: _b, ...without } = run(patched);
    expect(without).toEqual(withWasm);
    // long wraps around at 64 bits, as BigInt.asIntN does
    expect(BigInt(without.mul)).toBe(BigInt.asIntN(64, (2n ** 63n - 1n) * -123456789012345n));
    expect(BigInt(without.div)).toBe((2n ** 63n - 1n) / -123456789012345n);
    expect(BigInt(without.rem)).toBe((2n ** 63n - 1n) % -123456789012345n);
    expect(BigInt(without.udiv)).toBe((2n ** 64n - 1n) / 10n);
  });
});
