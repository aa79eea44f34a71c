// The shared libraries of programs in an unpacked tree (scripts/components/shared-libraries.ts), on a tree
// made of the host's /usr/bin/true, its C library and loader, laid out as Debian's packages lay them out.
import { copyFile, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveInTree, sharedLibraries } from '../../../scripts/components/shared-libraries.js';

const LIBC = '/lib/x86_64-linux-gnu/libc.so.6';
const LOADER = '/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2';

let root = '';
const put = async (path: string, from: string) => {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await copyFile(await realpath(from), join(root, path));
};
const link = async (path: string, target: string) => {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await symlink(target, join(root, path));
};

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'keel-shared-libraries-'));
  await put('/usr/bin/true', '/usr/bin/true');
  await put(LIBC, LIBC);
  await put(LOADER, LOADER);
  // as libc6's: an absolute link, which must be read in the tree, not on the host
  await link('/lib64/ld-linux-x86-64.so.2', LOADER);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('shared libraries', () => {
  it('finds the loader through its link and each DT_NEEDED name, recursively', async () => {
    expect(await sharedLibraries(root, ['/usr/bin/true'])).toEqual([
      LOADER,
      LIBC,
      '/lib64/ld-linux-x86-64.so.2',
    ]);
  });

  it('follows a library name through its links, and a script needs nothing', async () => {
    await rm(join(root, LIBC));
    await put('/lib/x86_64-linux-gnu/libc-2.36.so', LIBC);
    await link(LIBC, 'libc-2.36.so');
    await writeFile(join(root, 'usr/bin/script'), '#!/bin/sh\n');
    expect(await sharedLibraries(root, ['/usr/bin/true', '/usr/bin/script'])).toEqual([
      LOADER,
      '/lib/x86_64-linux-gnu/libc-2.36.so',
      LIBC,
      '/lib64/ld-linux-x86-64.so.2',
    ]);
  });

  it('fails on a name no package holds', async () => {
    await rm(join(root, LIBC));
    await expect(sharedLibraries(root, ['/usr/bin/true'])).rejects.toThrow(
      '/usr/bin/true needs libc.so.6, which no package holds',
    );
  });

  it('resolves links in the tree, never on the host', async () => {
    await link('/etc/hosts', '/etc/hostname');
    expect(await resolveInTree(root, '/etc/hosts')).toBeUndefined();
    await link('/loop', '/loop');
    await expect(resolveInTree(root, '/loop')).rejects.toThrow('more than 40 links');
    expect(await resolveInTree(root, '/lib64/ld-linux-x86-64.so.2')).toEqual([
      '/lib64/ld-linux-x86-64.so.2',
      LOADER,
    ]);
  });
});
