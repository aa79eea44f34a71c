import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { probe, probePath } from '../../../../src/sys/block/probe/index.js';
import { bufferReadAt, expectAsBlkid, readRange, run, scratch, sparseFile, writeRange } from './tools.js';

const MiB = 1024 * 1024;

/** luksFormat formats a fresh 20 MiB image with a key file; pbkdf2 at 1000 iterations keeps it fast. */
function luksFormat(type: 'luks1' | 'luks2', args: readonly string[]): string {
  const dir = scratch();
  const key = join(dir, 'key');
  writeFileSync(key, 'not a secret, a test key', { mode: 0o600 });
  const img = sparseFile(dir, 'luks.img', 20 * MiB);
  const pbkdf = type === 'luks2' ? ['--pbkdf', 'pbkdf2'] : [];
  run(
    'cryptsetup',
    ['luksFormat', '--type', type, '--batch-mode', ...pbkdf, '--pbkdf-force-iterations', '1000'].concat([
      '--key-file',
      key,
      ...args,
      img,
    ]),
  );
  return img;
}

/** luksDump is cryptsetup's reading of the header; note that it repairs a damaged primary from the secondary. */
function luksDump(img: string): { ok: boolean; fields: Record<string, string> } {
  const r = spawnSync('cryptsetup', ['luksDump', img], { encoding: 'utf8' });
  const fields: Record<string, string> = {};
  for (const line of r.stdout.split('\n')) {
    const m = /^(\w[\w ]*):\s+(.*)$/.exec(line);
    if (m) fields[m[1]!] = m[2]!;
  }
  return { ok: r.status === 0, fields };
}

describe('LUKS on real images', () => {
  it('reads a LUKS2 UUID, label and subsystem as blkid does', () => {
    const uuid = '33333333-4444-4555-8666-777777777777';
    const img = luksFormat('luks2', ['--label', 'keel state', '--subsystem', 'keel', '--uuid', uuid]);
    const ours = probePath(img);
    const tags = expectAsBlkid(ours, img);
    expect([tags.UUID, tags.LABEL, tags.SUBSYSTEM]).toEqual([uuid, 'keel state', 'keel']);
  });

  it('reads a LUKS1 UUID as blkid does', () => {
    const uuid = '44444444-4444-4555-8666-777777777777';
    const img = luksFormat('luks1', ['--uuid', uuid]);
    const ours = probePath(img);
    const tags = expectAsBlkid(ours, img);
    expect([tags.VERSION, tags.UUID]).toEqual(['1', uuid]);
  });

  it.each(['16k', '64k'])(
    'falls back to the secondary LUKS2 header (after %s of metadata) when the primary fails its checksum',
    (metadata) => {
      const img = luksFormat('luks2', ['--label', 'orig', '--luks2-metadata-size', metadata]);
      writeRange(img, 24, Buffer.from('X')); // the primary's label, under its sha256
      const ours = probePath(img);
      const dump = luksDump(img); // cryptsetup reads (and repairs) the same way
      expect(dump.ok).toBe(true);
      expect(ours).toMatchObject({ type: 'crypto_LUKS', label: dump.fields.Label, uuid: dump.fields.UUID });
      expect(ours?.label).toBe('orig');
    },
  );

  it('finds nothing when both LUKS2 headers fail their checksums, as cryptsetup', () => {
    const img = luksFormat('luks2', ['--label', 'orig']);
    writeRange(img, 24, Buffer.from('X'));
    writeRange(img, 16 * 1024 + 24, Buffer.from('X'));
    expect(probePath(img)).toBeUndefined();
    expect(luksDump(img).ok).toBe(false);
  });

  it('finds nothing in a header cut short by the end of the device', () => {
    const img = luksFormat('luks2', []);
    const head = readRange(img, 0, 64 * 1024);
    expect(probe(bufferReadAt(head), head.length)?.type).toBe('crypto_LUKS');
    // the checksum covers the 16 KiB header area, and the secondary starts where it ends
    for (const size of [6, 511, 4096, 16 * 1024 - 1]) expect(probe(bufferReadAt(head), size)).toBeUndefined();
  });
});
