import { deflateRawSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { encode, generateConfigs, mintSecrets } from '../../../src/config/index.js';
import {
  acquireConfig,
  decodeCmdlineConfig,
  MAX_CMDLINE_CONFIG_BYTES,
} from '../../../src/machined/node/config-acquire.js';
import type { ConfigSourceInputs, SourceRead } from '../../../src/machined/node/config-sources.js';

// `printf '…HostnameConfig…' | zstd -19 -c | base64 -w0`: a real compressed frame (Huffman and FSE
// tables, no content size in its header, as a stream writes it)
const ZSTD_HOSTNAME_B64 =
  'KLUv/QRoNQIAkkQPEaBvwILUtvLI90vz46P7dYECgIwxxFLvYnlDFVMoDjD2oXy1DFozf7Mie6V/QlHeDxB2EjK5ofg3nQu15AEAxdmEAqbov0A=';
const HOSTNAME_DOC = 'apiVersion: v1alpha1\nkind: HostnameConfig\nauto: off\nhostname: cmdline-node-0001\n';

/** zstdRaw frames data as zstd raw blocks: a valid frame of any size, made without a compressor. */
function zstdRaw(data: Uint8Array): Buffer {
  const header = Buffer.alloc(9);
  header.writeUInt32LE(0xfd2fb528, 0);
  header[4] = 0xa0; // single segment, 4-byte content size, no checksum
  header.writeUInt32LE(data.length, 5);
  const parts = [header];
  const MAX = 128 * 1024;
  for (let off = 0; off === 0 || off < data.length; off += MAX) {
    const chunk = data.subarray(off, off + MAX);
    const last = off + MAX >= data.length ? 1 : 0;
    const bh = Buffer.alloc(3);
    bh.writeUIntLE((chunk.length << 3) | last, 0, 3); // block type 0: raw
    parts.push(bh, Buffer.from(chunk));
  }
  return Buffer.concat(parts);
}

const arg = (text: string) => zstdRaw(Buffer.from(text)).toString('base64');
const present = (text: string): SourceRead => ({ kind: 'present', data: Buffer.from(text) });
const ABSENT: SourceRead = { kind: 'absent' };
const inputs = (over: Partial<ConfigSourceInputs>): ConfigSourceInputs => ({
  state: ABSENT,
  embedded: ABSENT,
  cmdline: '',
  ...over,
});

let worker: string;
let controlplane: string;
beforeAll(async () => {
  const secrets = await mintSecrets();
  const configs = generateConfigs({ clusterName: 'c', endpoint: 'https://10.5.0.2:6443', secrets });
  worker = encode(configs.worker);
  controlplane = encode(configs.controlplane);
});

const hostnameOf = (text: string) => /hostname: (\S+)/.exec(text)?.[1];

describe('decodeCmdlineConfig', () => {
  it('reads a frame the zstd tool compressed', () => {
    expect(Buffer.from(decodeCmdlineConfig([ZSTD_HOSTNAME_B64])).toString()).toBe(HOSTNAME_DOC);
  });

  it('concatenates the values of a repeated argument before decoding, as upstream', () => {
    const b64 = arg(worker);
    const parts = [b64.slice(0, 100), b64.slice(100, 1001), b64.slice(1001)];
    expect(Buffer.from(decodeCmdlineConfig(parts)).toString()).toBe(worker);
  });

  it('names what is wrong: base64, then zstd', () => {
    expect(() => decodeCmdlineConfig(['not*base64!'])).toThrow(/not valid base64/);
    expect(() => decodeCmdlineConfig(['KLUv/QRo'.slice(0, 7)])).toThrow(/not valid base64/);
    // valid base64 of something that is no zstd frame
    expect(() => decodeCmdlineConfig([deflateRawSync('x: 1').toString('base64').padEnd(12, '=')])).toThrow(
      /base64|zstd/,
    );
    expect(() => decodeCmdlineConfig([Buffer.from('plain yaml: 1\n').toString('base64')])).toThrow(
      /not valid zstd/,
    );
  });
});

/** zstdRle frames `blocks` RLE blocks of 128 KiB each: a few bytes that expand without end. */
function zstdRle(blocks: number): Buffer {
  // no single segment and no content size: a window descriptor of 2^21 bytes instead
  const parts = [Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x58])];
  for (let i = 0; i < blocks; i++) {
    const bh = Buffer.alloc(4);
    bh.writeUIntLE(((128 * 1024) << 3) | (1 << 1) | (i === blocks - 1 ? 1 : 0), 0, 3); // block type 1: RLE
    bh[3] = 0x23; // '#': a YAML comment, byte after byte
    parts.push(bh);
  }
  return Buffer.concat(parts);
}

describe('decodeCmdlineConfig limits', () => {
  it('takes an RLE frame up to the limit, and refuses one that expands past it', () => {
    expect(decodeCmdlineConfig([zstdRle(2).toString('base64')]).length).toBe(256 * 1024);
    const blocks = MAX_CMDLINE_CONFIG_BYTES / (128 * 1024) + 1;
    expect(() => decodeCmdlineConfig([zstdRle(blocks).toString('base64')])).toThrow(
      /decompresses to more than 4 MiB/,
    );
  });
});

describe('acquireConfig', () => {
  it('takes STATE first, and looks no further', () => {
    const out = acquireConfig(
      inputs({
        state: present(worker),
        embedded: present(controlplane),
        cmdline: `talos.config.early=${arg(controlplane)}`,
      }),
      'metal',
    );
    expect(out.kind).toBe('config');
    if (out.kind !== 'config') return;
    expect(out.config.source).toBe('state');
    expect(out.config.text).toBe(worker);
    expect(out.sources).toEqual(['state']);
    expect(out.notes).toEqual([]);
  });

  it('goes on to the embedded config, then talos.config.early=, then talos.config.inline=', () => {
    const both = `talos.config.early=${arg(worker)} quiet talos.config.inline=${arg(controlplane)}`;
    const embedded = acquireConfig(inputs({ embedded: present(controlplane), cmdline: both }), 'metal');
    expect(embedded.kind === 'config' && embedded.config.source).toBe('embedded');
    const early = acquireConfig(inputs({ cmdline: both }), 'metal');
    expect(early.kind === 'config' && early.config.source).toBe('cmdline-early');
    expect(early.kind === 'config' && early.config.text).toBe(worker);
    const late = acquireConfig(inputs({ cmdline: `talos.config.inline=${arg(controlplane)}` }), 'metal');
    expect(late.kind === 'config' && late.config.source).toBe('cmdline-late');
    expect(late.kind === 'config' && late.config.text).toBe(controlplane);
  });

  it('is maintenance mode when no source holds anything', () => {
    expect(acquireConfig(inputs({ cmdline: 'console=ttyS0 quiet' }), 'metal')).toEqual({
      kind: 'maintenance',
      sources: [],
      notes: [],
    });
  });

  it('keeps a partial config until a later source completes it', () => {
    const cmdline = `talos.config.early=${ZSTD_HOSTNAME_B64} talos.config.inline=${arg(worker)}`;
    const out = acquireConfig(inputs({ cmdline }), 'metal');
    expect(out.kind).toBe('config');
    if (out.kind !== 'config') return;
    expect(out.config.source).toBe('cmdline-late');
    expect(out.sources).toEqual(['cmdline-early', 'cmdline-late']);
    expect(out.notes).toEqual([
      'config: cmdline-early (talos.config.early=): not complete for boot, kept until a source completes it',
    ]);
  });

  it('enters maintenance mode with the last partial config when nothing completes it', () => {
    const out = acquireConfig(
      inputs({ embedded: present(HOSTNAME_DOC), cmdline: `talos.config.inline=${ZSTD_HOSTNAME_B64}` }),
      'metal',
    );
    expect(out.kind).toBe('maintenance');
    if (out.kind !== 'maintenance') return;
    expect(out.sources).toEqual(['embedded', 'cmdline-late']);
    expect(out.partial?.source).toBe('cmdline-late');
    expect(hostnameOf(out.partial?.text ?? '')).toBe('cmdline-node-0001');
  });

  it('takes a partial config on STATE to maintenance mode at once, as upstream', () => {
    const out = acquireConfig(
      inputs({ state: present(HOSTNAME_DOC), cmdline: `talos.config.early=${arg(worker)}` }),
      'metal',
    );
    expect(out.kind).toBe('maintenance');
    expect(out.kind === 'maintenance' && out.partial?.source).toBe('state');
    expect(out.sources).toEqual(['state']);
  });

  it('notes each bad source, naming it and what is wrong, and tries the next', () => {
    const cmdline = [
      'talos.config.early=@@not-base64@@',
      `talos.config.inline=${Buffer.from('no zstd here').toString('base64')}`,
    ].join(' ');
    const out = acquireConfig(
      inputs({
        state: present('machine: [unclosed\n'),
        embedded: present('version: v1alpha1\nmachine:\n  type: nonsense\n'),
        cmdline,
      }),
      'metal',
    );
    expect(out.kind).toBe('maintenance');
    expect(out.sources).toEqual([]);
    expect(out.notes).toHaveLength(4);
    expect(out.notes[0]).toMatch(
      /^config: state \(config.yaml on STATE\): .*decode.*; trying the next source$/,
    );
    expect(out.notes[1]).toMatch(/^config: embedded \(the embedded config\): .*validation failed.*nonsense/);
    expect(out.notes[2]).toMatch(/^config: cmdline-early \(talos.config.early=\): not valid base64/);
    expect(out.notes[3]).toMatch(/^config: cmdline-late \(talos.config.inline=\): not valid zstd/);
  });

  it('notes a valid encoding of invalid YAML, and a source it could not read', () => {
    const out = acquireConfig(
      inputs({
        state: { kind: 'unreadable', error: 'EACCES: permission denied' },
        cmdline: `talos.config.early=${arg('a: [b\n')} talos.config.inline=${arg(worker)}`,
      }),
      'metal',
    );
    expect(out.kind === 'config' && out.config.source).toBe('cmdline-late');
    expect(out.notes[0]).toBe(
      'config: state (config.yaml on STATE): cannot read: EACCES: permission denied; trying the next source',
    );
    expect(out.notes[1]).toMatch(/^config: cmdline-early \(talos.config.early=\): failed to decode/);
  });

  it('says that talos.config=<url> is not supported yet, naming the argument', () => {
    const out = acquireConfig(inputs({ cmdline: 'talos.config=http://10.0.2.2/c.yaml' }), 'metal');
    expect(out).toEqual({
      kind: 'maintenance',
      sources: [],
      notes: ['config: talos.config= (a platform download) is not supported yet, ignored'],
    });
  });

  it('reads quoted arguments as the kernel does', () => {
    const out = acquireConfig(inputs({ cmdline: `"talos.config.inline=${arg(worker)}"` }), 'metal');
    expect(out.kind === 'config' && out.config.source).toBe('cmdline-late');
  });
});
