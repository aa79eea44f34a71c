// The check every component's binary passes: no symbol table, no dynamic loader, no shared library.
import { expect } from 'vitest';
import { sectionNames } from '../../../scripts/components/elf.js';
import { readElfDeps } from '../../../scripts/rootfs/elf.js';

export async function expectStrippedStatic(file: string): Promise<void> {
  expect(await sectionNames(file), file).not.toContain('.symtab');
  const deps = await readElfDeps(file);
  expect({ file, interpreter: deps?.interpreter, needed: deps?.needed }).toEqual({
    file,
    interpreter: undefined,
    needed: [],
  });
}
