import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diskUsage, type UsageEntry } from '../../../src/sys/fs/index.js';
import { makeTree } from './tree.js';

let root: string;
beforeAll(() => {
  root = makeTree();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const collect = async (path: string) => {
  const out: UsageEntry[] = [];
  for await (const e of diskUsage(path)) out.push(e);
  return out;
};

describe('diskUsage', () => {
  it('matches du -b for every directory', async () => {
    const du = new Map(
      execFileSync('du', ['-b', root], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .map((l) => {
          const [size, path] = l.split('\t');
          return [path!, Number(size)] as const;
        }),
    );
    const dirs = (await collect(root)).filter((e) => e.isDir);
    expect(new Map(dirs.map((e) => [e.fullPath, e.size]))).toEqual(du);
  });

  it('matches du -b -a for every entry', async () => {
    const du = execFileSync('du', ['-b', '-a', root], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((l) => l.split('\t'))
      .map(([size, path]) => [path, Number(size)]);
    const ours = (await collect(root)).map((e) => [e.fullPath, e.size]);
    expect(new Map(ours as [string, number][])).toEqual(new Map(du as [string, number][]));
  });

  it('yields contents before their directory, with depths and relative names', async () => {
    const all = await collect(root);
    expect(all.at(-1)).toMatchObject({ relPath: '.', depth: 0, isDir: true });
    const e = all.find((x) => x.relPath === 'b/d/e.txt')!;
    expect(e).toMatchObject({ depth: 3, isDir: false, size: 4 });
    expect(all.findIndex((x) => x.relPath === 'b/d/e.txt')).toBeLessThan(
      all.findIndex((x) => x.relPath === 'b/d'),
    );
  });

  it('reports a missing root as an entry with an error', async () => {
    const [only, ...rest] = await collect(join(root, 'missing'));
    expect(rest).toEqual([]);
    expect(only!.error).toContain(join(root, 'missing'));
  });
});
