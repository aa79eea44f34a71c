// A small known tree for the fs tests: files, a nested directory, a symlink and a name longer than ustar's 100 bytes.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const LONG_NAME = `${'n'.repeat(120)}.txt`;

/** The relative paths of makeTree's entries, in walk (lexical, depth-first) order. */
export const TREE_ENTRIES = ['a.txt', 'b', 'b/c.bin', 'b/d', 'b/d/e.txt', 'link', LONG_NAME];

export function makeTree(): string {
  const root = mkdtempSync(join(tmpdir(), 'keel-fs-'));
  writeFileSync(join(root, 'a.txt'), 'hello\n');
  mkdirSync(join(root, 'b', 'd'), { recursive: true });
  writeFileSync(join(root, 'b', 'c.bin'), Buffer.alloc(1000, 7));
  writeFileSync(join(root, 'b', 'd', 'e.txt'), 'deep');
  symlinkSync('a.txt', join(root, 'link'));
  writeFileSync(join(root, LONG_NAME), 'long');
  return root;
}
