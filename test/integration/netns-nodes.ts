// Container-mode nodes for integration tests, each in a network namespace of its own on one bridge so that
// it has an address of its own and its etcd the usual ports: the components layer they run from, the
// bridge, starting a node and reading what it prints, and stopping them; `eventually` for the waits.
import { type ChildProcess, execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { componentDir } from '../etcd/fixtures.js';
import { ip, type Peer, peerNetns, vethTo } from '../sys/netns.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ENTRY = join(ROOT, 'src/machined/container-entry.ts');

export interface NetnsNode {
  readonly name: string;
  readonly ip: string;
  readonly peer: Peer;
  readonly child: ChildProcess;
  /** what it printed, line by line, stderr's prefixed `stderr: ` */
  readonly lines: string[];
  readonly stateDir: string;
}

/** eventually retries `check` every 500 ms until it passes or `ms` runs out, then throws its last error. */
export async function eventually<T>(what: string, ms: number, check: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      return await check();
    } catch (e) {
      last = e;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  throw new Error(`${what}: ${(last as Error)?.message ?? last}`);
}

/**
 * componentsLayer fills `<work>/components/usr/bin` with etcd, containerd and runc, as the layer has them,
 * and returns the layer's root.
 */
export function componentsLayer(work: string): string {
  const components = join(work, 'components');
  mkdirSync(join(components, 'usr/bin'), { recursive: true });
  // copied, not linked: etcd runs as its own user (60), which cannot reach into root's cache
  chmodSync(work, 0o755);
  for (const [c, bins] of [
    ['etcd', ['etcd', 'etcdutl']],
    ['containerd', ['containerd', 'containerd-shim-runc-v2', 'ctr']],
    ['runc', ['runc']],
  ] as const)
    for (const b of bins) copyFileSync(join(componentDir(c), b), join(components, 'usr/bin', b));
  return components;
}

/** addBridge makes the bridge the nodes are put on, itself at `<subnet>.254/24`, in this file's namespace. */
export function addBridge(name: string, subnet: string): void {
  ip('link', 'add', name, 'type', 'bridge');
  ip('link', 'set', name, 'up');
  ip('address', 'add', `${subnet}.254/24`, 'dev', name);
}

export interface NodeOptions {
  readonly name: string;
  /** the bridge's /24 without its last octet (`10.77.0`) */
  readonly subnet: string;
  /** the node's last octet */
  readonly host: number;
  readonly bridge: string;
  /** the name of the veth's end on the bridge (at most 15 characters, unique on the host) */
  readonly veth: string;
  /** the node's state directory is made at `<work>/<name>` */
  readonly work: string;
  readonly config: string;
  readonly components: string;
}

/** startNode makes a namespace on the bridge and runs a container-mode node in it with the given config. */
export function startNode(o: NodeOptions): NetnsNode {
  const peer = peerNetns(o.name);
  vethTo(peer, o.veth, 'eth0');
  ip('link', 'set', o.veth, 'master', o.bridge);
  peer.run('ip', 'link', 'set', 'lo', 'up');
  peer.run('ip', 'address', 'add', `${o.subnet}.${o.host}/24`, 'dev', 'eth0');
  const stateDir = join(o.work, o.name);
  mkdirSync(stateDir);
  const child = peer.start(process.execPath, [
    '--import',
    'tsx',
    ENTRY,
    '--state-dir',
    stateDir,
    '--api-address',
    `${o.subnet}.${o.host}:50000`,
    '--config',
    o.config,
    '--components',
    o.components,
    '--hostname',
    o.name,
  ]);
  const lines: string[] = [];
  createInterface({ input: child.stdout! }).on('line', (l) => lines.push(l));
  createInterface({ input: child.stderr! }).on('line', (l) => lines.push(`stderr: ${l}`));
  return { name: o.name, ip: `${o.subnet}.${o.host}`, peer, child, lines, stateDir };
}

/** waitForLine waits until the node has printed a line matching `re`, else fails with its last lines. */
export const waitForLine = (n: NetnsNode, re: RegExp, ms = 120_000) =>
  eventually(`${n.name}: ${re}`, ms, async () => {
    if (!n.lines.some((l) => re.test(l)))
      throw new Error(`not yet; last lines:\n${n.lines.slice(-15).join('\n')}`);
  });

/** stopNodes stops the nodes gracefully (they stop their etcd), killing any still running after 20 s. */
export async function stopNodes(nodes: Iterable<NetnsNode>): Promise<void> {
  await Promise.all(
    [...nodes].map(
      (n) =>
        new Promise<void>((resolve) => {
          if (n.child.exitCode !== null || n.child.signalCode !== null) return resolve();
          const t = setTimeout(() => n.child.kill('SIGKILL'), 20_000);
          n.child.once('exit', () => {
            clearTimeout(t);
            resolve();
          });
          n.child.kill('SIGTERM');
        }),
    ),
  );
}

/**
 * removeNetns deletes the nodes' namespaces: made after the file's collection, their own teardown could no
 * longer be registered.
 */
export function removeNetns(nodes: Iterable<NetnsNode>): void {
  for (const n of nodes)
    try {
      execFileSync('ip', ['netns', 'del', n.peer.name]);
    } catch {
      // already gone
    }
}
