// Real containerd for the tests: the components cache's containerd, shim, ctr and runc in a throw-away
// root, and the layer's toolbox image (busybox) imported with the layer's ctr.
// Everything a test starts here is stopped and removed by `stop`, which also runs when the test failed.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
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
import { componentDir } from '../../../etcd/fixtures.js';

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

/**
 * importToolbox imports the components layer's toolbox image (busybox, from the components cache) into a
 * namespace and tags it `ref`, so a test names the image it runs without depending on its version.
 */
export function importToolbox(c: TestContainerd, namespace: string, ref: string): void {
  const box = componentDir('toolbox');
  const shipped = (JSON.parse(readFileSync(join(box, 'image.json'), 'utf8')) as { ref: string }).ref;
  c.ctrIn(namespace, 'images', 'import', join(box, 'toolbox.tar'));
  c.ctrIn(namespace, 'images', 'tag', '--force', shipped, ref);
}
