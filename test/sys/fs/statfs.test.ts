import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isFsNotFound, statfsDirectory, statfsSizes } from '../../../src/sys/fs/index.js';

const dir = mkdtempSync(join(tmpdir(), 'keel-statfs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('statfsSizes', () => {
  it('agrees with df on the size of /', async () => {
    const [, size] = execFileSync('df', ['-B1', '--output=source,size', '/'], { encoding: 'utf8' })
      .trim()
      .split('\n')[1]!
      .trim()
      .split(/\s+/);
    const s = await statfsSizes('/');
    expect(s.size).toBe(BigInt(size!));
    expect(s.available).toBeLessThanOrEqual(s.size);
  });

  it('reports a missing path as not-found', async () => {
    expect(isFsNotFound(await statfsSizes(join(dir, 'nope')).catch((e: unknown) => e))).toBe(true);
  });

  it('statfsDirectory leaves out files', async () => {
    writeFileSync(join(dir, 'f'), '');
    expect(await statfsDirectory(join(dir, 'f'))).toBeUndefined();
    expect(await statfsDirectory(dir)).toMatchObject({ size: expect.any(BigInt) });
  });
});
