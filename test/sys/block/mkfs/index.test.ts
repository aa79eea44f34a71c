// mkfs.xfs from src/sys: the command line, a real small filesystem (the 100 MiB STATE is under
// xfsprogs' 300 MB floor), and a failure carrying the program's reason.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { isMkfsError, mkfsXfs, toolPath, xfsArgs } from '../../../../src/sys/block/mkfs/index.js';

function image(bytes: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'keel-mkfs-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'fs.img');
  writeFileSync(file, '');
  truncateSync(file, bytes);
  return file;
}

it('forces over stale signatures and labels when asked', () => {
  expect(xfsArgs('/dev/vda4', 'STATE')).toEqual(['-f', '-L', 'STATE', '/dev/vda4']);
  expect(xfsArgs('/dev/vda5')).toEqual(['-f', '/dev/vda5']);
});

it("finds mkfs in the system directories a node's PATH leaves out", () => {
  expect(toolPath('/usr/bin:/usr/local/sbin:/usr/local/bin:/opt/cni/bin')).toBe(
    '/usr/bin:/usr/local/sbin:/usr/local/bin:/opt/cni/bin:/usr/sbin:/sbin:/bin',
  );
  expect(toolPath(undefined)).toBe('/usr/sbin:/sbin:/usr/bin:/bin');
});

it('makes a 100 MiB xfs', async () => {
  const file = image(100 * 2 ** 20);
  await mkfsXfs(file, { label: 'STATE' });
  const out = execFileSync('blkid', ['-p', '-o', 'export', file], { encoding: 'utf8' });
  expect(out).toContain('TYPE=xfs');
  expect(out).toContain('LABEL=STATE');
});

it('fails with the reason mkfs.xfs gives', async () => {
  const file = image(4 * 2 ** 20); // below any xfs
  const err = await mkfsXfs(file).catch((e: unknown) => e);
  expect(isMkfsError(err)).toBe(true);
  expect((err as Error).message).toMatch(/^mkfs\.xfs .*fs\.img: \S/);
  expect((err as Error).message).not.toContain('Usage');
});
