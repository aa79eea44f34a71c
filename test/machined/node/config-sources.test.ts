import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { kernelArgs, mayHoldConfig, readConfigSources } from '../../../src/machined/node/config-sources.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'keel-sources-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const paths = () => ({
  stateDir: join(dir, 'state'),
  embeddedPath: join(dir, 'embedded.yaml'),
  cmdlinePath: join(dir, 'cmdline'),
});

describe('readConfigSources', () => {
  it('reads STATE, the embedded config and the command line of a node', () => {
    mkdirSync(join(dir, 'state'));
    writeFileSync(join(dir, 'state', 'config.yaml'), 'a: 1\n');
    writeFileSync(join(dir, 'embedded.yaml'), 'b: 2\n');
    writeFileSync(join(dir, 'cmdline'), 'console=ttyS0 talos.config.early=AAAA\n');
    const got = readConfigSources({ mode: 'pid1', ...paths() });
    expect(got.state).toEqual({ kind: 'present', data: Buffer.from('a: 1\n') });
    expect(got.embedded).toEqual({ kind: 'present', data: Buffer.from('b: 2\n') });
    expect(got.cmdline).toBe('console=ttyS0 talos.config.early=AAAA');
    expect(mayHoldConfig(got)).toBe(true);
  });

  it('reads only the state directory in container mode: the host is not the node', () => {
    writeFileSync(join(dir, 'embedded.yaml'), 'b: 2\n');
    writeFileSync(join(dir, 'cmdline'), 'talos.config.inline=AAAA');
    const got = readConfigSources({ mode: 'container', ...paths() });
    expect(got).toEqual({ state: { kind: 'absent' }, embedded: { kind: 'absent' }, cmdline: '' });
    expect(mayHoldConfig(got)).toBe(false);
  });

  it('reports a source it cannot read instead of throwing', () => {
    mkdirSync(join(dir, 'embedded.yaml')); // a directory: EISDIR
    mkdirSync(join(dir, 'state', 'config.yaml'), { recursive: true });
    const got = readConfigSources({ mode: 'pid1', ...paths() });
    expect(got.embedded.kind).toBe('unreadable');
    expect(got.embedded.kind === 'unreadable' && got.embedded.error).toMatch(/EISDIR/);
    expect(got.state.kind === 'unreadable' && got.state.error).toMatch(/config\.yaml/);
    expect(got.cmdline).toBe('');
    expect(mayHoldConfig(got)).toBe(true);
  });

  it('counts only the config arguments of a command line, not a platform URL', () => {
    const at = (cmdline: string) =>
      mayHoldConfig({ state: { kind: 'absent' }, embedded: { kind: 'absent' }, cmdline });
    expect(at('quiet talos.config.inline=x')).toBe(true);
    expect(at('talos.config.early=')).toBe(true);
    expect(at('talos.config=http://x/y talos.platform=metal')).toBe(false);
    expect(at('')).toBe(false);
  });
});

describe('kernelArgs', () => {
  it('keeps every value of a repeated key in order, and drops the quotes', () => {
    const args = kernelArgs('a=1 "b=two words" a=3 flag c="x y"');
    expect(args.get('a')).toEqual(['1', '3']);
    expect(args.get('b')).toEqual(['two words']);
    expect(args.get('flag')).toEqual(['']);
    expect(args.get('c')).toEqual(['x y']);
  });
});
