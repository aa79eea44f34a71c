// Builds the real root filesystem from the real manifest, with node standing in for the SEA, and checks
// the image from the outside: reproducible, complete library closure, no shell, tools run chrooted.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, lstat, mkdir, mkdtemp, open, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildRootfs,
  ETC_GROUP,
  ETC_PASSWD,
  FORBIDDEN,
  SQUASHFS_BLOCK_SIZE,
} from '../../scripts/rootfs/build.js';
import { RootfsError } from '../../scripts/rootfs/errors.js';
import { readAheadPlanFor } from '../../scripts/rootfs/read-ahead.js';
import { checkClosure, lookupDir } from '../../scripts/rootfs/tree.js';

const exec = promisify(execFile);
const repo = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));
const fixture = (name: string) => repo(`test/scripts/fixtures/rootfs/${name}`);
const VERSION = '1.2.3-test';
const BUILD_TIMEOUT = 600_000; // two builds of a 99 MB executable on 2 busy cores, plus the first download

let tmp = '';
let sea = '';
let prefault = '';
let image = '';
let unpacked = '';
let listing = new Map<string, string>();

async function cli(out: string, ...extra: string[]) {
  return exec(
    process.execPath,
    [
      '--import',
      'tsx',
      repo('scripts/rootfs.ts'),
      '--sea',
      sea,
      '--prefault',
      prefault,
      '--out',
      out,
      '--version',
      VERSION,
      ...extra,
    ],
    { cwd: repo(''), maxBuffer: 16 << 20 },
  );
}

async function sha256(file: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(file))
    .digest('hex');
}

/** files lists every path under root (as image paths), sorted. */
async function files(root: string, rel = '/'): Promise<{ path: string; kind: 'file' | 'dir' | 'symlink' }[]> {
  const out: { path: string; kind: 'file' | 'dir' | 'symlink' }[] = [];
  for (const name of (await readdir(join(root, rel))).sort()) {
    const path = posix.join(rel, name);
    const st = await lstat(join(root, path));
    const kind = st.isSymbolicLink() ? 'symlink' : st.isDirectory() ? 'dir' : 'file';
    out.push({ path, kind });
    if (kind === 'dir') out.push(...(await files(root, path)));
  }
  return out;
}

const chroot = (...args: string[]) =>
  exec('chroot', [unpacked, ...args], { env: { PATH: '/usr/sbin:/usr/bin' }, encoding: 'utf8' });

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'keel-rootfs-test-'));
  sea = join(tmp, 'sea');
  await mkdir(sea);
  await copyFile(process.execPath, join(sea, 'machined'));
  await copyFile(repo('node_modules/@koromix/koffi-linux-x64/linux_x64/koffi.node'), join(sea, 'koffi.node'));
  await exec(repo('scripts/init.sh'), [join(tmp, 'init')], { cwd: repo('') });
  prefault = join(tmp, 'init/prefault.so');

  image = join(tmp, 'rootfs.sqsh');
  await cli(image);
  unpacked = join(tmp, 'unpacked');
  await exec('unsquashfs', ['-no-progress', '-d', unpacked, image]);
  // unsquashfs -lls: "mode owner size date time squashfs-root/path[ -> target]"
  const { stdout } = await exec('unsquashfs', ['-lls', image], { maxBuffer: 16 << 20 });
  listing = new Map(
    stdout
      .split('\n')
      .map((l) => /^(\S+)\s+\S+\s+\d+\s+\S+\s+\S+\s+squashfs-root(\/\S*)(?: -> (.*))?$/.exec(l))
      .filter((m) => m !== null)
      .map((m) => [m[2]!, m[3] ? `${m[1]} -> ${m[3]}` : m[1]!]),
  );
}, BUILD_TIMEOUT);

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('scripts/rootfs.ts with the real manifest', () => {
  it(
    'builds a byte-identical image from the same inputs',
    async () => {
      const again = join(tmp, 'again.sqsh');
      const { stdout } = await cli(again);
      expect(stdout).toMatch(/again\.sqsh: [\d.]+ MB/);
      expect(await sha256(again)).toBe(await sha256(image));
      await rm(again);
    },
    BUILD_TIMEOUT,
  );

  it('lays out the SEA, koffi.node, prefault.so, the read-ahead plan, os-release, mount points and tools', async () => {
    expect(listing.get('/sbin')).toBe('lrwxrwxrwx -> usr/sbin');
    expect(listing.get('/lib64')).toBe('lrwxrwxrwx -> usr/lib64');
    expect(listing.get('/usr/sbin/init')).toBe('-rwxr-xr-x');
    expect(listing.get('/usr/lib/keel/koffi.node')).toBe('-rw-r--r--');
    expect(listing.get('/usr/lib/keel/prefault.so')).toBe('-rw-r--r--');
    // the stand-in's own plan: its start trace's order when images/start-trace has one for this node,
    // else everything but ICU's data (test/scripts/rootfs-read-ahead.test.ts)
    const { size } = await stat(process.execPath);
    expect(await readFile(join(unpacked, 'usr/lib/keel/init.read-ahead'), 'utf8')).toBe(
      (
        await readAheadPlanFor(process.execPath, size, {
          first: ['/usr/lib/keel/koffi.node'],
          traces: { dir: repo('images/start-trace'), blockSize: SQUASHFS_BLOCK_SIZE },
        })
      ).text,
    );
    for (const d of ['/dev', '/proc', '/sys', '/run', '/system', '/tmp', '/var', '/etc']) {
      expect(listing.get(d), d).toBe('drwxr-xr-x');
    }
    for (const tool of ['mkfs.xfs', 'xfs_repair', 'xfs_growfs', 'cryptsetup', 'mkfs.fat', 'fsck.fat']) {
      expect(listing.get(`/usr/sbin/${tool}`), tool).toBe('-rwxr-xr-x');
    }
    expect(listing.get('/usr/sbin/mkfs.vfat')).toBe('lrwxrwxrwx -> mkfs.fat');
    expect(listing.get('/usr/lib/systemd/systemd-udevd')).toBe('lrwxrwxrwx -> /bin/udevadm');
    expect(listing.get('/usr/lib/udev/rules.d/60-persistent-storage.rules')).toBe('-rw-r--r--');
    // written by the node's controllers into its managed etc directory
    expect(listing.get('/etc/resolv.conf')).toBe('lrwxrwxrwx -> /system/etc/resolv.conf');
    expect(listing.get('/etc/hosts')).toBe('lrwxrwxrwx -> /system/etc/hosts');
    // the user database the kubelet reads: root and nobody, no login
    expect(await readFile(join(unpacked, 'etc/passwd'), 'utf8')).toBe(ETC_PASSWD);
    expect(await readFile(join(unpacked, 'etc/group'), 'utf8')).toBe(ETC_GROUP);

    const osRelease = await readFile(join(unpacked, 'etc/os-release'), 'utf8');
    expect(osRelease).toContain(`VERSION_ID=${VERSION}\n`);
    expect(osRelease).toContain('ID=keel\n');

    const packages = (await readFile(join(unpacked, 'usr/share/keel/packages.txt'), 'utf8'))
      .trimEnd()
      .split('\n');
    expect(packages).toEqual([...packages].sort());
    for (const p of packages) expect(p).toMatch(/^[a-z0-9][a-z0-9+.-]+ [0-9][A-Za-z0-9.+~:-]*$/);
    expect(packages.map((p) => p.split(' ')[0])).toEqual(
      expect.arrayContaining(['xfsprogs', 'cryptsetup-bin', 'dosfstools', 'udev', 'libc6', 'libstdc++6']),
    );
  });

  it('contains no shell, package manager or script', async () => {
    for (const f of await files(unpacked)) {
      expect(FORBIDDEN, f.path).not.toContain(posix.basename(f.path));
      if (f.kind !== 'file') continue;
      const fh = await open(join(unpacked, f.path), 'r');
      const head = Buffer.alloc(2);
      await fh.read(head, 0, 2, 0).finally(() => fh.close());
      expect(head.toString('latin1'), f.path).not.toBe('#!');
    }
  });

  it("resolves every ELF's interpreter and DT_NEEDED inside the image", async () => {
    const regular = (await files(unpacked)).filter((f) => f.kind === 'file').map((f) => f.path);
    const { elfFiles, unresolved } = await checkClosure(lookupDir(unpacked), regular);
    expect(unresolved).toEqual([]);
    expect(elfFiles).toBeGreaterThan(30);
  });

  it('runs the SEA stand-in and the tools chrooted into the image', async () => {
    expect(process.getuid?.(), 'chroot needs root').toBe(0);
    expect((await chroot('/sbin/init', '-e', 'console.log(1)')).stdout).toBe('1\n');
    const koffi = await chroot(
      '/sbin/init',
      '-e',
      'console.log(typeof require("/usr/lib/keel/koffi.node").load)',
    );
    expect(koffi.stdout).toBe('function\n');
    // stage 1's preload loads against the image's own libc (ld.so would say so on stderr if not), and
    // machined does not hand it on; the chrooted node starts the preloaded one, so chroot itself has none
    const preloaded = await chroot(
      '/sbin/init',
      '-e',
      `require('node:child_process').execFileSync('/sbin/init', ['-e', 'console.log(process.env.LD_PRELOAD ?? process.env.GLIBC_TUNABLES ?? "not inherited")'], { env: { LD_PRELOAD: '/usr/lib/keel/prefault.so', GLIBC_TUNABLES: 'glibc.malloc.top_pad=4194304' }, stdio: 'inherit' })`,
    );
    expect(preloaded).toEqual({ stdout: 'not inherited\n', stderr: '' });
    expect((await chroot('/usr/sbin/mkfs.xfs', '-V')).stdout).toMatch(/^mkfs\.xfs version /);
    expect((await chroot('/sbin/cryptsetup', '--version')).stdout).toMatch(/^cryptsetup 2\./);
    expect((await chroot('/usr/lib/systemd/systemd-udevd', '--version')).stdout).toMatch(/^\d+/);
    expect((await chroot('/usr/sbin/xfs_db', '-V')).stdout).toMatch(/^xfs_db version /);
  });
});

describe('scripts/rootfs.ts manifest errors', () => {
  const build = (manifest: string) =>
    buildRootfs({
      sea,
      prefault,
      out: join(tmp, 'bad.sqsh'),
      manifest: fixture(manifest),
      osRelease: repo('images/os-release.in'),
      version: VERSION,
    });

  it('names the package and the path it does not contain', async () => {
    await expect(build('missing-path.yaml')).rejects.toThrow(
      'packages.dosfstools: package dosfstools does not contain /sbin/mkfs.nope',
    );
  });

  it('names an unknown top-level key', async () => {
    await expect(build('unknown-key.yaml')).rejects.toThrow("unknown top-level key 'extras'");
    const res = await cli(join(tmp, 'bad.sqsh'), '--manifest', fixture('unknown-key.yaml')).catch((e) => e);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("unknown-key.yaml: unknown top-level key 'extras'");
  });

  it('names the binary, the soname and the package to add when a library is missing', async () => {
    const err = await build('missing-library.yaml').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RootfsError);
    expect((err as RootfsError).code).toBe('closure');
    expect((err as Error).message).toContain('/usr/sbin/mkfs.fat needs libc.so.6');
    expect((err as Error).message).toContain('add libc6 to libraries:');
  });

  it('refuses a shell script', async () => {
    await expect(build('shell-script.yaml')).rejects.toThrow('/usr/sbin/fsck.xfs: is a script (#!)');
  });
});
