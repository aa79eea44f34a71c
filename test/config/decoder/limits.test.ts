// The decoder's bounds: each is one clear error, reached in bounded time and memory.
import { describe, expect, it } from 'vitest';
import { decode } from '../../../src/config/decoder/index.js';
import {
  MAX_ALIAS_NODES,
  MAX_CONFIG_BYTES,
  MAX_DOCUMENTS,
  MAX_ERROR_DETAIL,
  MAX_LISTED_ERRORS,
} from '../../../src/config/decoder/limits.js';
import { ConfigErrors, formatErrors } from '../../../src/config/errors.js';

function failure(src: string): ConfigErrors {
  try {
    decode(src);
  } catch (e) {
    if (e instanceof ConfigErrors) return e;
    throw e;
  }
  throw new Error('decode succeeded');
}

/**
 * aliasBomb: an interface's VLANs each alias one VLAN of `n` routes, and `n` interfaces alias that
 * interface: n³ route nodes from a few kilobytes
 */
function aliasBomb(n: number): string {
  const routes = Array(n).fill('{network: 0.0.0.0/0}').join(', ');
  let s = 'version: v1alpha1\nmachine:\n  type: worker\n  network:\n    interfaces:\n';
  s += `      - interface: eth0\n        vlans:\n          - &v {vlanId: 5, routes: [${routes}]}\n`;
  s += `      - &i {interface: eth1, vlans: [${Array(n).fill('*v').join(', ')}]}\n`;
  for (let k = 0; k < n; k++) s += '      - *i\n';
  return s;
}

describe('the decoder’s bounds', () => {
  it('an alias bomb is refused as excessive aliasing, at once', () => {
    const bomb = aliasBomb(300); // 27 million routes from 11 KB
    expect(bomb.length).toBeLessThan(12_000);
    const start = performance.now();
    const e = failure(bomb);
    expect(performance.now() - start).toBeLessThan(5_000);
    expect(e.errors).toHaveLength(1);
    expect(e.errors[0]!.message).toMatch(
      new RegExp(
        `^v1alpha1 machine\\.network\\.interfaces\\[1\\]\\.vlans\\[\\d+\\]\\.routes\\[\\d+\\]\\S* \\(line \\d+\\): excessive aliasing: the aliases expand to more than ${MAX_ALIAS_NODES} nodes$`,
      ),
    );
  });

  it('aliases within the bound decode as their targets', () => {
    const cfg = decode(aliasBomb(10)); // 10 VLANs of 10 routes, 11 times: ~1,300 nodes through aliases
    const spec = cfg.documents[0]!.spec as { machine: { network: { interfaces: { vlans: unknown[] }[] } } };
    expect(spec.machine.network.interfaces).toHaveLength(12);
    expect(spec.machine.network.interfaces[11]!.vlans).toHaveLength(10);
  });

  it(`refuses more than ${MAX_DOCUMENTS} documents`, () => {
    const doc = 'apiVersion: v1alpha1\nkind: HostnameConfig\nhostname: a\n';
    const e = failure(
      Array(MAX_DOCUMENTS + 1)
        .fill(doc)
        .join('---\n'),
    );
    expect(e.errors.map((x) => x.message)).toEqual([
      `the configuration: has ${MAX_DOCUMENTS + 1} documents, over the limit of ${MAX_DOCUMENTS}`,
    ]);
  });

  it(`refuses a stream over ${MAX_CONFIG_BYTES} bytes before parsing it`, () => {
    const e = failure(`# ${'x'.repeat(MAX_CONFIG_BYTES)}\n`);
    expect(e.errors.map((x) => x.message)).toEqual([
      `the configuration: is ${MAX_CONFIG_BYTES + 3} bytes, over the limit of ${MAX_CONFIG_BYTES} bytes (4 MiB)`,
    ]);
  });

  it('nesting too deep for the parser is said as such', () => {
    const n = 100_000;
    const e = failure(`machine:\n  install:\n    extraKernelArgs: ${'['.repeat(n)}${']'.repeat(n)}\n`);
    expect(e.errors.map((x) => x.message)).toEqual(['document 1 (line 3): the YAML is nested too deeply']);
  });

  it(`cuts a parser error’s excerpt to ${MAX_ERROR_DETAIL} characters, and lists ${MAX_LISTED_ERRORS} errors`, () => {
    const token = `@${'q'.repeat(10_000)}`;
    const e = failure(Array.from({ length: 30 }, (_, i) => `k${i}: ${token}`).join('\n'));
    for (const x of e.errors) expect(x.detail.length).toBeLessThanOrEqual(MAX_ERROR_DETAIL + 1);
    expect(e.errors.length).toBeGreaterThan(MAX_LISTED_ERRORS);
    const lines = e.message.split('\n');
    expect(lines[0]).toBe(`${e.errors.length} errors occurred:`);
    expect(lines).toHaveLength(1 + MAX_LISTED_ERRORS + 1);
    expect(lines.at(-1)).toBe(`\t* … and ${e.errors.length - MAX_LISTED_ERRORS} more`);
    expect(formatErrors(e.errors.slice(0, 2)).split('\n')).toHaveLength(3);
  });
});
