import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseMaps, residentBytes } from '../../src/machined/memory-trim.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const fixture = join(ROOT, 'test/machined/fixtures/trim.ts');
const loadFixture = join(ROOT, 'test/machined/fixtures/load-trim.ts');

describe('start-up memory trim', () => {
  it('parses /proc/<pid>/maps lines, skipping anonymous mappings', () => {
    const text = [
      '55d0c0a00000-55d0c2400000 r--p 00000000 fd:01 1234   /usr/sbin/init',
      '55d0c2400000-55d0c4000000 r-xp 01a00000 fd:01 1234   /usr/sbin/init',
      '7f0000000000-7f0000021000 rw-p 00000000 00:00 0 ',
      '7ffd1e9f0000-7ffd1ea11000 rw-p 00000000 00:00 0      [stack]',
    ].join('\n');
    expect(parseMaps(text)).toEqual([
      { start: 0x55d0c0a00000n, end: 0x55d0c2400000n, path: '/usr/sbin/init' },
      { start: 0x55d0c2400000n, end: 0x55d0c4000000n, path: '/usr/sbin/init' },
      { start: 0x7ffd1e9f0000n, end: 0x7ffd1ea11000n, path: '[stack]' },
    ]);
  });

  it("pages out the executable's file pages, which only this process maps", () => {
    // a private copy of node: pages of the shared node binary are mapped by other processes too, and the
    // kernel only pages out what one process alone maps (as machined alone maps /sbin/init on a node)
    const dir = mkdtempSync(join(tmpdir(), 'keel-trim-'));
    try {
      const node = join(dir, 'node');
      copyFileSync(process.execPath, node);
      chmodSync(node, 0o755);
      const res = spawnSync(node, ['--import', 'tsx', fixture], { cwd: ROOT, encoding: 'utf8' });
      expect(res.status, res.stderr).toBe(0);
      const r = JSON.parse(res.stdout) as { before: number; after: number; mappings: number };
      expect(r.mappings).toBeGreaterThan(0);
      expect(r.after).toBeLessThan(r.before / 2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("gives back the C heap's freed blocks that a full collection alone leaves resident", () => {
    const res = spawnSync(process.execPath, ['--import', 'tsx', loadFixture], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(res.status, res.stderr).toBe(0);
    const r = JSON.parse(res.stdout) as { collected: number; before: number; after: number };
    // 128 MiB of 32 KiB blocks were freed, one in 64 kept
    expect(r.collected - r.after, JSON.stringify(r)).toBeGreaterThan(64 * 1024 * 1024);
  }, 60_000);

  it('reads its own resident set', () => {
    expect(residentBytes()).toBeGreaterThan(1024 * 1024);
  });
});
