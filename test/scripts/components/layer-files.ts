// The files of an unpacked layer, for the layers' tests: every regular file as a layer path, sorted.
import { readdir } from 'node:fs/promises';
import { join, posix } from 'node:path';

export async function layerFiles(dir: string, rel = '/'): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(join(dir, rel), { withFileTypes: true })) {
    const path = posix.join(rel, e.name);
    if (e.isDirectory()) out.push(...(await layerFiles(dir, path)));
    else out.push(path);
  }
  return out.sort();
}
