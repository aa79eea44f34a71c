// The few file operations an install does on a boot partition, on two kinds of access: a mounted
// directory (a node: its kernel has vfat and xfs) or mtools on the FAT partition itself (a host whose
// kernel has no vfat, such as a build machine writing a disk image). Paths are relative, with '/'.
import { copyFile, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { ToolRunner } from './disk.js';

export interface FileTree {
  /** a file's text; undefined when it does not exist */
  readText(path: string): Promise<string | undefined>;
  /** the names in a directory; none when it does not exist */
  list(dir: string): Promise<string[]>;
  /** removes a file; a missing one is fine */
  remove(path: string): Promise<void>;
  /** copies a file from the host's file system in, replacing any */
  copyIn(from: string, path: string): Promise<void>;
  /** writes a file so that a reader sees the old or the new text whole */
  writeText(path: string, text: string): Promise<void>;
  /** makes a directory and its parents */
  mkdirs(path: string): Promise<void>;
}

const missing = (e: unknown) => (e as NodeJS.ErrnoException).code === 'ENOENT';

/** dirTree is a file tree under a directory (a mounted partition). */
export function dirTree(root: string): FileTree {
  const at = (p: string) => join(root, p);
  return {
    readText: (p) =>
      readFile(at(p), 'utf8').catch((e) => {
        if (missing(e)) return undefined;
        throw e;
      }),
    list: (d) =>
      readdir(at(d)).catch((e) => {
        if (missing(e)) return [];
        throw e;
      }),
    remove: (p) => rm(at(p), { force: true }),
    copyIn: (from, p) => copyFile(from, at(p)),
    async writeText(p, text) {
      await writeFile(`${at(p)}.new`, text);
      await rename(`${at(p)}.new`, at(p));
    },
    mkdirs: async (d) => {
      await mkdir(at(d), { recursive: true });
    },
  };
}

/** mtoolsTree is a file tree on a FAT partition (or image) through mtools, without mounting it. */
export function mtoolsTree(device: string, run: ToolRunner): FileTree {
  const env = { MTOOLS_SKIP_CHECK: '1' };
  const m = (tool: string, ...args: string[]) => run(tool, ['-i', device, ...args], { env });
  const fat = (p: string) => `::/${p}`;
  const absent = async <T>(p: Promise<T>, fallback: T): Promise<T> => {
    try {
      return await p;
    } catch (e) {
      if (/not found/i.test((e as Error).message)) return fallback;
      throw e;
    }
  };
  return {
    readText: (p) => absent<string | undefined>(m('mtype', fat(p)), undefined),
    list: async (d) =>
      (await absent(m('mdir', '-b', fat(d)), ''))
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => basename(l.trim())),
    remove: async (p) => {
      await absent(m('mdel', fat(p)), '');
    },
    copyIn: async (from, p) => {
      await m('mcopy', '-o', from, fat(p));
    },
    async writeText(p, text) {
      // FAT through mtools has no rename over a file: the new text is copied in whole, one call
      const dir = await mkdtemp(join(tmpdir(), 'keel-mtools-'));
      try {
        await writeFile(join(dir, 'f'), text);
        await m('mcopy', '-o', join(dir, 'f'), fat(p));
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    async mkdirs(d) {
      const parts = d.split('/').filter(Boolean);
      for (let i = 1; i <= parts.length; i++) {
        const sub = parts.slice(0, i).join('/');
        const parent = parts.slice(0, i - 1).join('/');
        if (!(await this.list(parent)).some((n) => n.toLowerCase() === parts[i - 1]!.toLowerCase()))
          await m('mmd', fat(sub));
      }
    },
  };
}
