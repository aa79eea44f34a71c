// Assembles the root filesystem: fetch the manifest's packages, select files, stage them with fixed
// modes, refuse shells and scripts, check the library closure, and write a reproducible squashfs.
import {
  chmod,
  copyFile,
  lstat,
  mkdir,
  mkdtemp,
  open,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { KOFFI_NODE_PATH, PREFAULT_PATH, READ_AHEAD_PLAN_PATH } from '../lib/image-layout.js';
import { type Deb, debCacheDir, extractDeb, fetchDeb } from './debs.js';
import { RootfsError } from './errors.js';
import { parseManifest } from './manifest.js';
import { renderOsRelease } from './os-release.js';
import { readAheadPlanFor } from './read-ahead.js';
import { run } from './run.js';
import { MERGED_USR, PackageIndex, select } from './select.js';
import { checkClosure, lookupDir, type Unresolved } from './tree.js';

export interface BuildOptions {
  /** directory holding machined (the SEA) and koffi.node */
  sea: string;
  /** stage 1's preload for machined (scripts/init.sh's prefault.so) */
  prefault: string;
  out: string;
  manifest: string;
  osRelease: string;
  version: string;
  /** where .debs are cached; default debCacheDir() */
  cache?: string;
  /** start traces of node builds (images/start-trace), which order the read-ahead; none: file order */
  startTraces?: string;
  log?: (line: string) => void;
}

export interface BuildResult {
  size: number;
  packages: Deb[];
  largest: { path: string; size: number }[];
}

export const SEA_PATH = '/usr/sbin/init';
/**
 * Directories machined and stage 1 mount over (/dev /proc /sys moved in, tmpfs on /run /system /tmp,
 * cgroup2 inside /sys, EPHEMERAL on /var) plus the merged-/usr targets; nothing else is pre-created.
 */
/** Files of /etc the node's controllers write (files.EtcFileController), linked into its managed directory. */
export const ETC_MANAGED = ['hosts', 'resolv.conf'] as const;
const MANAGED_ETC = '/system/etc';
/** root and nobody, neither of which logs in */
export const ETC_PASSWD =
  'root:x:0:0:root:/root:/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin\n';
export const ETC_GROUP = 'root:x:0:\nnobody:x:65534:\n';

export const BASE_DIRS = [
  '/dev',
  '/proc',
  '/sys',
  '/run',
  '/system',
  '/tmp',
  '/var',
  '/etc',
  // mount points of the writable overlays machined mounts on /var (src/machined/node/overlay-mounts.ts)
  '/etc/cni',
  '/etc/kubernetes',
  '/usr/bin',
  '/usr/sbin',
  '/usr/lib',
  '/usr/lib64',
  // mount sources of kube-proxy's pod (hostPath /lib/modules and /etc/ssl/certs), which containerd would
  // otherwise try to make on the read-only root: the kernel is built without modules, and the node keeps
  // no CA bundle of its own yet, so both stay empty
  '/usr/lib/modules',
  '/etc/ssl/certs',
];
/** Names that would mean a shell or a package manager slipped in. */
export const FORBIDDEN = [
  'sh',
  'bash',
  'dash',
  'ash',
  'zsh',
  'ksh',
  'mksh',
  'busybox',
  'apt',
  'apt-get',
  'dpkg',
];

/**
 * Squashfs settings, measured on the unpacked image with node 20 (98.9 MB) standing in for the SEA, on
 * 2 cores shared with a kernel build (so build times are rough). Read = the SEA via the kernel from a
 * cold page cache; start = `chroot … /sbin/init -e 0` from a cold cache (best of 3):
 *   zstd-15 128K: 40.16 MB, build 18 s, unsquashfs -cat 0.19 s, read 0.29 s, start 0.33 s
 *   zstd-15 1M:   40.39 MB, build 47 s, unsquashfs -cat 0.23 s, read 0.21 s, start 0.25 s
 *   zstd-19 128K: 39.81 MB, build 93 s, unsquashfs -cat 0.21 s, read 0.31 s, start 0.41 s
 *   zstd-19 1M:   36.37 MB, build 46 s, unsquashfs -cat 0.11 s, read 0.21 s, start 0.22 s
 * zstd-19 with 1M blocks is the smallest. The image uses 128K blocks all the same (the stripped SEA:
 * 36.8 MB instead of 34.1 MB): the kernel decompresses a block whole for whoever touches it first, and
 * under TCG machined's start waited on blocks the read-ahead child was decompressing in file order while
 * it needed others. With 128K blocks the start's scattered pages (about 38 of node's 88 MB) cost less
 * decompression, and a start trace can put them in the order the start needs them (read-ahead.ts):
 * exec -> machined's first JavaScript 2.74 -> 2.25 s (medians of 8 interleaved boots in a slow period of
 * the host, 7 shorter).
 * The level: zstd decompresses every block the start touches, in the guest, and under TCG that was about
 * half of the guest's work from exec to the API. With node's ICU data trimmed (scripts/sea/icu-trim.ts)
 * the image has room for a faster level. Instructions exec -> API ready (make bench-boot's counted boot)
 * and initramfs size: level 19 1,255 M, 26.3 MB; 9 1,129 M, 28.6 MB; 3 1,106 M, 30.7 MB; 1 1,076 M,
 * 32.5 MB. Level 1 does the least work, stays inside the initramfs's 40 MB, and builds in seconds.
 */
export const SQUASHFS_BLOCK_SIZE = 128 * 1024;
export const MKSQUASHFS_ARGS = [
  '-comp',
  'zstd',
  '-Xcompression-level',
  '1',
  '-b',
  String(SQUASHFS_BLOCK_SIZE),
];

export async function buildRootfs(o: BuildOptions): Promise<BuildResult> {
  const log = o.log ?? (() => {});
  const manifest = parseManifest(await readFile(o.manifest, 'utf8'), o.manifest);
  const osRelease = renderOsRelease(await readFile(o.osRelease, 'utf8'), o.version);
  const sea = join(o.sea, 'machined');
  const koffi = join(o.sea, 'koffi.node');
  for (const [flag, f] of [
    ['--sea', sea],
    ['--sea', koffi],
    ['--prefault', o.prefault],
  ] as const) {
    if (!(await stat(f).catch(() => undefined))?.isFile())
      throw new RootfsError('usage', `${flag}: ${f} is missing`);
  }
  const arch = (await run('dpkg', ['--print-architecture'], { pkg: 'dpkg' })).trim();
  if (arch !== 'amd64')
    throw new RootfsError('usage', `only amd64 hosts are supported (this one is ${arch})`);

  const tmp = await mkdtemp(join(tmpdir(), 'keel-rootfs-'));
  try {
    const cache = o.cache ?? debCacheDir();
    const names = [...[...manifest.packages.keys()].sort(), ...[...manifest.libraries].sort()];
    const index = new PackageIndex();
    const debs = new Map<string, Deb>();
    for (const name of names) {
      const deb = await fetchDeb(name, cache);
      log(`package ${deb.name} ${deb.version}`);
      await extractDeb(deb, join(tmp, 'pkgs', name));
      await index.addTree(name, join(tmp, 'pkgs', name));
      debs.set(name, deb);
    }
    index.add('keel', SEA_PATH, { kind: 'file', host: sea, mode: 0o755 });
    index.add('keel', KOFFI_NODE_PATH, { kind: 'file', host: koffi, mode: 0o644 });
    index.add('keel', PREFAULT_PATH, { kind: 'file', host: o.prefault, mode: 0o644 });

    const { entries, missing } = await select(index, manifest, [SEA_PATH, KOFFI_NODE_PATH, PREFAULT_PATH]);
    if (missing.length) throw new RootfsError('closure', await describeMissing(missing));
    const used = new Set([...entries.values()].map((e) => e.pkg));
    for (const l of manifest.libraries)
      if (!used.has(l)) log(`warning: libraries: ${l} supplies no file; drop it`);
    const packages = [...debs.values()]
      .filter((d) => used.has(d.name))
      .sort((a, b) => (a.name < b.name ? -1 : 1));

    // stage with fixed modes: the squashfs flags fix owners and times
    const root = join(tmp, 'root');
    await mkdir(root);
    for (const d of BASE_DIRS) await mkdir(join(root, d), { recursive: true });
    for (const d of MERGED_USR) await symlink(`usr/${d}`, join(root, d));
    for (const [path, e] of [...entries].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const dst = join(root, path);
      await mkdir(posix.dirname(dst), { recursive: true });
      if (e.kind === 'symlink') await symlink(e.target!, dst);
      else {
        await copyFile(e.host!, dst);
        await chmod(dst, e.mode & 0o111 ? 0o755 : 0o644);
      }
    }
    await writeData(root, '/etc/os-release', osRelease);
    // the user database: the kubelet runs on the host, and its static Go build reads /etc/passwd when it
    // starts (user namespaces: it looks up its own user, and refuses to run without the file)
    await writeData(root, '/etc/passwd', ETC_PASSWD);
    await writeData(root, '/etc/group', ETC_GROUP);
    // the network controllers keep these in the managed etc directory, replacing them atomically there
    for (const f of ETC_MANAGED) await symlink(`${MANAGED_ETC}/${f}`, join(root, 'etc', f));
    // koffi's addon where the trace puts it, or first: machined loads it while its modules evaluate, and
    // it is blocks of the squashfs PID 1 otherwise decompresses itself (under TCG, before the traced
    // order: JS start -> API ready 1.50 -> 1.33 s, medians of 8 interleaved boots)
    const plan = await readAheadPlanFor(sea, (await stat(sea)).size, {
      first: [KOFFI_NODE_PATH],
      ...(o.startTraces ? { traces: { dir: o.startTraces, blockSize: SQUASHFS_BLOCK_SIZE } } : {}),
    });
    if (plan.trace) log(`read-ahead follows the start trace ${plan.trace}`);
    else if (plan.staleTrace)
      log(
        `warning: the start trace ${plan.staleTrace} was recorded on other ICU data than this executable's: the read-ahead goes in file order (make start-trace records it anew)`,
      );
    else if (o.startTraces)
      log(
        `warning: no start trace for this node build in ${o.startTraces}: the read-ahead goes in file order (make start-trace records one)`,
      );
    for (const c of plan.cold) log(`read-ahead leaves out ${c.name} (${(c.size / 2 ** 20).toFixed(1)} MiB)`);
    await writeData(root, READ_AHEAD_PLAN_PATH, plan.text);
    await writeData(
      root,
      '/usr/share/keel/packages.txt',
      packages.map((d) => `${d.name} ${d.version}\n`).join(''),
    );

    const files = await normalizeTree(root);
    await refuseShells(root, files);
    const regular = files.filter((f) => f.kind === 'file').map((f) => f.path);
    const { unresolved: broken } = await checkClosure(lookupDir(root), regular);
    if (broken.length)
      throw new RootfsError('closure', `staged image is incomplete:\n${await describeMissing(broken)}`);

    const partial = `${o.out}.tmp`;
    await rm(partial, { force: true });
    await run(
      'mksquashfs',
      [
        root,
        partial,
        ...MKSQUASHFS_ARGS,
        '-noappend',
        '-all-root',
        '-no-xattrs',
        '-mkfs-time',
        '0',
        '-all-time',
        '0',
        '-reproducible',
        '-quiet',
      ],
      { pkg: 'squashfs-tools' },
    );
    await rename(partial, o.out);
    const largest = files
      .filter((f) => f.kind === 'file')
      .sort((a, b) => b.size - a.size || (a.path < b.path ? -1 : 1))
      .slice(0, 10)
      .map(({ path, size }) => ({ path, size }));
    return { size: (await stat(o.out)).size, packages, largest };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

async function writeData(root: string, path: string, text: string): Promise<void> {
  await mkdir(posix.dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), text, { mode: 0o644 });
}

interface StagedFile {
  path: string;
  kind: 'file' | 'dir' | 'symlink';
  size: number;
}

/** normalizeTree sets every directory to 0755 (mkdir obeys the umask) and lists the tree, sorted. */
async function normalizeTree(root: string): Promise<StagedFile[]> {
  const out: StagedFile[] = [];
  await chmod(root, 0o755);
  const walk = async (rel: string): Promise<void> => {
    for (const name of (await readdir(join(root, rel))).sort()) {
      const path = posix.join(rel, name);
      const st = await lstat(join(root, path));
      if (st.isDirectory()) {
        await chmod(join(root, path), 0o755);
        out.push({ path, kind: 'dir', size: 0 });
        await walk(path);
      } else out.push({ path, kind: st.isSymbolicLink() ? 'symlink' : 'file', size: st.size });
    }
  };
  await walk('/');
  return out;
}

/** refuseShells fails on any shell or package manager by name and on any script by its #! line. */
async function refuseShells(root: string, files: readonly StagedFile[]): Promise<void> {
  const bad: string[] = [];
  for (const f of files) {
    if (FORBIDDEN.includes(posix.basename(f.path)))
      bad.push(`${f.path}: named like a shell or package manager`);
    if (f.kind !== 'file' || f.size < 2) continue;
    const fh = await open(join(root, f.path), 'r');
    try {
      const head = Buffer.alloc(2);
      await fh.read(head, 0, 2, 0);
      if (head.toString('latin1') === '#!')
        bad.push(`${f.path}: is a script (#!), and the image has no interpreter`);
    } finally {
      await fh.close();
    }
  }
  if (bad.length) throw new RootfsError('forbidden', `image would contain:\n  ${bad.join('\n  ')}`);
}

/** describeMissing names binary and soname, and which Debian package ships it if the host knows. */
async function describeMissing(missing: readonly Unresolved[]): Promise<string> {
  const lines: string[] = [];
  for (const m of missing) {
    const owners = await ownersOf(m.soname);
    const guess = owners.length ? undefined : await policyName(m.soname);
    const hint = owners.length
      ? `add ${owners.join(' or ')} to libraries: in the manifest`
      : guess
        ? `probably ${guess} by Debian's library naming; add it to libraries: in the manifest`
        : 'no package on this host ships it; search the Debian archive for that file name';
    lines.push(
      `  ${m.binary}${m.for ? ` (for ${m.for})` : ''} needs ${m.soname}, which no listed package provides (${hint})`,
    );
  }
  return `shared-library closure is incomplete:\n${lines.join('\n')}`;
}

/** policyName applies Debian's library package naming (libfoo.so.1 → libfoo1, libfoo2.so.0 → libfoo2-0). */
async function policyName(soname: string): Promise<string | undefined> {
  const m = /^(lib.+)\.so\.(\d+)$/.exec(posix.basename(soname));
  if (!m) return undefined;
  const name = `${m[1]!.toLowerCase().replaceAll('_', '-')}${/\d$/.test(m[1]!) ? '-' : ''}${m[2]}`;
  const known = await run('apt-cache', ['show', '--no-all-versions', name]).then(
    () => true,
    () => false,
  );
  return known ? name : undefined;
}

async function ownersOf(soname: string): Promise<string[]> {
  const out = await run('dpkg', ['-S', `*/${posix.basename(soname)}`]).catch(() => '');
  const pkgs = new Set<string>();
  for (const line of out.split('\n')) {
    const m = /^(.+?): (\/.*)$/.exec(line);
    if (!m || posix.basename(m[2]!) !== posix.basename(soname)) continue;
    for (const p of m[1]!.split(', ')) pkgs.add(p.replace(/:[a-z0-9]+$/, ''));
  }
  return [...pkgs].sort();
}
