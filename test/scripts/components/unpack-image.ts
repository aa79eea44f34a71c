// Writes the layer of an image the image writer made to a directory, as containerd's snapshotter would
// unpack it: directories, files with their modes, and links as they are.
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ImageRead } from './read-image.js';

/** unpackImage writes the files of `image` under `dir`, parents before children (the layer's order) */
export async function unpackImage(image: ImageRead, dir: string): Promise<void> {
  for (const [path, f] of image.files) {
    const at = join(dir, path);
    if (f.type === '5') await mkdir(at, { recursive: true, mode: f.mode });
    else if (f.type === '2') await symlink(f.linkname, at);
    else if (f.type === '0') {
      await writeFile(at, f.data);
      await chmod(at, f.mode);
    } else throw new Error(`${path}: tar entry type ${f.type} is not one the writer makes`);
  }
}
