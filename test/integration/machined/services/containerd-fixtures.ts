// Real containerd for the tests: the components cache's containerd, shim, ctr and runc in a throw-away
// root, and a one-binary busybox image written as an OCI archive and imported with the layer's ctr.
// Everything a test starts here is stopped and removed by `stop`, which also runs when the test failed.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TAR_END, tarHeader, tarPadding } from '../../../../src/sys/fs/index.js';
import { componentDir } from '../../../etcd/fixtures.js';

/** a static busybox from Debian's busybox-static: the image's only file, and its sh */
export const BUSYBOX = '/bin/busybox';

export interface TestContainerd {
  /** its socket */
  readonly address: string;
  /** a directory holding containerd, its shim, ctr and runc, laid out as the components layer's usr/bin */
  readonly bin: string;
  readonly ctr: string;
  /** ctr against this containerd in `namespace`, its stdout returned */
  ctrIn(namespace: string, ...args: string[]): string;
  /** kills containerd, with every shim and container it started, and removes its directories */
  stop(): Promise<void>;
}

/** binDir copies the layer's binaries into `dir/usr/bin` (copied: containerd finds its shim on PATH). */
export function componentsTree(dir: string): string {
  const bin = join(dir, 'usr/bin');
  mkdirSync(bin, { recursive: true });
  for (const [c, bins] of [
    ['containerd', ['containerd', 'containerd-shim-runc-v2', 'ctr']],
    ['runc', ['runc']],
  ] as const)
    for (const b of bins) copyFileSync(join(componentDir(c), b), join(bin, b));
  return bin;
}

/** startContainerd runs a containerd of the test's own and waits for its socket. */
export async function startContainerd(): Promise<TestContainerd> {
  const work = mkdtempSync(join(tmpdir(), 'keel-ctrd-'));
  const bin = componentsTree(join(work, 'layer'));
  const address = join(work, 'run/containerd.sock');
  const config = join(work, 'config.toml');
  writeFileSync(
    config,
    [
      'version = 3',
      `root = ${JSON.stringify(join(work, 'root'))}`,
      `state = ${JSON.stringify(join(work, 'run'))}`,
      '[grpc]',
      `  address = ${JSON.stringify(address)}`,
      '',
    ].join('\n'),
  );
  const env = { ...process.env, PATH: `${bin}:${process.env.PATH}` };
  const child: ChildProcess = spawn(join(bin, 'containerd'), ['--config', config], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr!.on('data', (b: Buffer) => {
    log = (log + b.toString()).slice(-4000);
  });
  const ctr = join(bin, 'ctr');
  const ctrIn = (namespace: string, ...args: string[]) =>
    execFileSync(ctr, ['--address', address, '--namespace', namespace, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  const stop = async () => {
    // the shims outlive containerd: kill every task first (their containers die with them)
    for (const ns of ['system', 'k8s.io'])
      try {
        for (const id of ctrIn(ns, 'tasks', 'ls', '-q').split('\n').filter(Boolean))
          execFileSync(ctr, ['-a', address, '-n', ns, 'tasks', 'delete', '-f', id], { stdio: 'ignore' });
      } catch {
        // no such namespace, or containerd already gone
      }
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await gone;
    }
    // overlay mounts of containers that were never cleaned would keep the directory busy
    try {
      execFileSync('sh', [
        '-c',
        `grep -o ' ${work}[^ ]*' /proc/self/mounts | sort -r | xargs -r -n1 umount -l`,
      ]);
    } catch {
      // nothing mounted
    }
    rmSync(work, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  while (!existsSync(address)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`containerd did not start:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { address, bin, ctr, ctrIn, stop };
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** tarOf writes an uncompressed layer: busybox at /bin/busybox, /bin/sh a link to it, and /tmp. */
function busyboxLayer(): Buffer {
  const bb = readFileSync(BUSYBOX);
  const entry = { mode: 0o755, uid: 0, gid: 0, mtime: 0 };
  return Buffer.concat([
    tarHeader({ ...entry, name: 'bin/', type: 'directory', size: 0 }),
    tarHeader({ ...entry, name: 'bin/busybox', type: 'file', size: bb.length }),
    bb,
    tarPadding(bb.length),
    tarHeader({ ...entry, name: 'bin/sh', type: 'symlink', size: 0, linkname: 'busybox' }),
    tarHeader({ ...entry, name: 'tmp/', type: 'directory', size: 0, mode: 0o1777 }),
    TAR_END,
  ]);
}

/**
 * writeBusyboxArchive writes an OCI image layout as a tar, its index naming the image `ref` (the
 * annotation ctr's import reads), and returns the manifest's digest.
 */
export function writeBusyboxArchive(path: string, ref: string): string {
  if (!existsSync(BUSYBOX))
    throw new Error(`${BUSYBOX} is missing: the image fixture needs Debian's busybox-static package`);
  const blobs: Buffer[] = [];
  const blob = (b: Buffer, mediaType: string) => {
    blobs.push(b);
    return { mediaType, digest: `sha256:${sha256(b)}`, size: b.length };
  };
  const layer = busyboxLayer();
  const layerDesc = blob(layer, 'application/vnd.oci.image.layer.v1.tar');
  const config = blob(
    Buffer.from(
      JSON.stringify({
        architecture: 'amd64',
        os: 'linux',
        config: { Env: ['PATH=/bin'], Cmd: ['/bin/sh'] },
        rootfs: { type: 'layers', diff_ids: [layerDesc.digest] },
      }),
    ),
    'application/vnd.oci.image.config.v1+json',
  );
  const manifest = blob(
    Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: 'application/vnd.oci.image.manifest.v1+json',
        config,
        layers: [layerDesc],
      }),
    ),
    'application/vnd.oci.image.manifest.v1+json',
  );
  const index = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      manifests: [
        {
          ...manifest,
          platform: { architecture: 'amd64', os: 'linux' },
          annotations: { 'io.containerd.image.name': ref },
        },
      ],
    }),
  );
  const file = (name: string, data: Buffer) => [
    tarHeader({ name, type: 'file', mode: 0o644, uid: 0, gid: 0, mtime: 0, size: data.length }),
    data,
    tarPadding(data.length),
  ];
  const parts = [
    ...file('oci-layout', Buffer.from('{"imageLayoutVersion":"1.0.0"}')),
    ...file('index.json', index),
    ...blobs.flatMap((b) => file(`blobs/sha256/${sha256(b)}`, b)),
    TAR_END,
  ];
  writeFileSync(path, Buffer.concat(parts));
  return manifest.digest;
}

/** importBusybox imports the fixture image as `ref` into a namespace and returns its digest. */
export function importBusybox(c: TestContainerd, namespace: string, ref: string): string {
  const archive = join(tmpdir(), `keel-busybox-${process.pid}-${Date.now()}.tar`);
  try {
    const digest = writeBusyboxArchive(archive, ref);
    c.ctrIn(namespace, 'images', 'import', archive);
    return digest;
  } finally {
    rmSync(archive, { force: true });
  }
}
