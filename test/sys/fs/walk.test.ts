import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isFsNotFound, normalizeRoot, type WalkEntry, walk } from '../../../src/sys/fs/index.js';
import { makeTree, TREE_ENTRIES } from './tree.js';

let root: string;
beforeAll(() => {
  root = makeTree();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const collect = async (it: AsyncIterable<WalkEntry>) => {
  const out: WalkEntry[] = [];
  for await (const e of it) out.push(e);
  return out;
};

describe('walk', () => {
  it('lists everything in lexical depth-first order, the root as "."', async () => {
    const all = await collect(walk(root));
    expect(all.map((e) => e.relPath)).toEqual(['.', ...TREE_ENTRIES]);
    expect(all[0]!.fullPath).toBe(root);
    expect(all.find((e) => e.relPath === 'link')!.link).toBe('a.txt');
  });

  it.each([
    // as upstream: a directory at depth ≥ maxDepth is listed but not entered, so 0 and 1 list the same
    [0, ['.', 'a.txt', 'b', 'link', expect.any(String)]],
    [1, ['.', 'a.txt', 'b', 'link', expect.any(String)]],
    [2, ['.', 'a.txt', 'b', 'b/c.bin', 'b/d', 'link', expect.any(String)]],
  ])('maxDepth %i stops entering directories', async (maxDepth, want) => {
    expect((await collect(walk(root, { maxDepth }))).map((e) => e.relPath)).toEqual(want);
  });

  it.each([
    [['regular'], ['a.txt', 'b/c.bin', 'b/d/e.txt', expect.stringMatching(/^n+\.txt$/)]],
    [['directory'], ['.', 'b', 'b/d']],
    [['symlink'], ['link']],
  ] as const)('filters types %j', async (types, want) => {
    expect((await collect(walk(root, { types }))).map((e) => e.relPath)).toEqual(want);
  });

  it('skips a directory root on request', async () => {
    expect((await collect(walk(root, { skipRoot: true }))).map((e) => e.relPath)).toEqual(TREE_ENTRIES);
  });

  it('names a file root by its base name', async () => {
    expect((await collect(walk(join(root, 'b', 'c.bin')))).map((e) => e.relPath)).toEqual(['c.bin']);
  });

  it('follows a symlinked root', async () => {
    const all = await collect(walk(join(root, 'link')));
    expect(all.map((e) => [e.fullPath, e.relPath])).toEqual([[join(root, 'a.txt'), 'a.txt']]);
  });

  it('throws not-found for a missing root, naming it', async () => {
    const err = await collect(walk(join(root, 'nope'))).catch((e: unknown) => e);
    expect(isFsNotFound(err)).toBe(true);
    expect((err as Error).message).toContain(join(root, 'nope'));
  });

  it('stops when the signal aborts', async () => {
    const ac = new AbortController();
    const seen: string[] = [];
    const err = await (async () => {
      for await (const e of walk(root, { signal: ac.signal })) {
        seen.push(e.relPath);
        ac.abort(new Error('enough'));
      }
    })().catch((e: unknown) => e);
    expect((err as Error).message).toBe('enough');
    expect(seen).toEqual(['.']);
  });
});

describe('normalizeRoot', () => {
  it.each([
    ['', '/'],
    ['/', '/'],
    ['var/log/', '/var/log'],
    ['/etc', '/etc'],
  ])('%j → %j', (p, want) => {
    expect(normalizeRoot(p)).toBe(want);
  });
});
