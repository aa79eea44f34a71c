// The toolbox image as scripts/components/image.ts builds it from the pinned busybox-static: what its
// archive holds, and the same bytes from a cold cache.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it, onTestFinished } from 'vitest';
import { cacheDir } from '../../../scripts/components/build.js';
import { buildImage } from '../../../scripts/components/image.js';
import { parseImages } from '../../../scripts/components/image-manifest.js';
import { readTar } from './read-tar.js';

const exec = promisify(execFile);
const manifest = fileURLToPath(new URL('../../../images/components.yaml', import.meta.url));

describe('the toolbox image', () => {
  it('holds busybox, /bin/sh and the applets, names itself, and is the same from a cold cache', async () => {
    const toolbox = parseImages(await readFile(manifest, 'utf8')).find((i) => i.name === 'toolbox')!;
    const built = await buildImage(toolbox);
    const tar = await readFile(join(built.dir, built.info.file));
    expect(built.info).toMatchObject({
      ref: toolbox.ref,
      aliases: [],
      from: ['debs=busybox-static=1:1.35.0-4+deb12u1+b1'],
    });

    const outer = new Map(readTar(tar).map((e) => [e.name, e.data]));
    const index = JSON.parse(outer.get('index.json')!.toString());
    expect(index.manifests[0].annotations['io.containerd.image.name']).toBe(toolbox.ref);
    expect(index.manifests[0].digest).toBe(built.info.digest);
    const m = JSON.parse(outer.get(`blobs/sha256/${built.info.digest.slice(7)}`)!.toString());
    const config = JSON.parse(outer.get(`blobs/sha256/${m.config.digest.slice(7)}`)!.toString());
    expect(config.config.Cmd).toEqual(['/bin/sh']);
    const layer = new Map(
      readTar(outer.get(`blobs/sha256/${m.layers[0].digest.slice(7)}`)!).map((e) => [e.name, e]),
    );
    expect(layer.get('bin/sh')).toMatchObject({ type: '2', linkname: '/bin/busybox' });
    expect(layer.get('usr/bin/wget')).toMatchObject({ type: '2', linkname: '/bin/busybox' });
    const busybox = layer.get('bin/busybox')!;
    expect(busybox.mode).toBe(0o755);

    // the binary is the package's: run it from a scratch copy
    const dir = await mkdtemp(join(tmpdir(), 'keel-toolbox-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    await writeFile(join(dir, 'busybox'), busybox.data, { mode: 0o755 });
    expect((await exec(join(dir, 'busybox'), ['echo', 'ok'])).stdout).toBe('ok\n');

    // a cold cache (the Debian packages shared, so nothing is downloaded) writes the same bytes
    await symlink(join(cacheDir(), 'debs'), join(dir, 'debs'));
    const again = await buildImage(toolbox, { cache: dir });
    expect(again.hit).toBe(false);
    expect((await readFile(join(again.dir, again.info.file))).equals(tar)).toBe(true);
  });
});
