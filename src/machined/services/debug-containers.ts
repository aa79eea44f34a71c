// The node's side of DebugService.ContainerRun: a privileged container as upstream's debug container is
// (host network, PID and IPC namespaces, every capability and device, the host's / at /host and a
// writable /sys), run attached by the layer's ctr with its stdin, stdout and stderr piped to the call.
import { spawn as nodeSpawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { constants } from 'node:os';
import { PassThrough } from 'node:stream';
import type { DebugContainer, DebugDeps, DebugRun } from '../../api/debug/index.js';
import { ContainerdClient } from '../../containerd/index.js';
import { ctrRunArgs } from './ctr-args.js';
import { ctrOps } from './ctr-ops.js';
import { ServiceError } from './errors.js';

export interface DebugContainersOptions {
  /** the layer's ctr, once the components layer is there */
  readonly ctr: () => Promise<string | undefined>;
  /** containerd's socket */
  readonly address: string;
  /** the namespaces to share: machined's own (the host's) */
  readonly hostPid?: number;
  readonly spawn?: typeof nodeSpawn;
}

/** how often a closing stdin asks whether ctr has started the task yet */
const TASK_POLL_MS = 50;
/** how long ctr may take to remove a killed container before it is killed too */
const REMOVE_MS = 10_000;

export function debugContainers(o: DebugContainersOptions): DebugDeps {
  const target = async (namespace: string) => {
    const ctr = await o.ctr();
    if (!ctr)
      throw new ServiceError('unsupported', 'containerd is not available: the node has no components layer');
    return { ctr, address: o.address, namespace };
  };
  return {
    // containerd's own API: answers (or says containerd is down) even before the layer's ctr is known
    images: async (namespace, { signal }) => {
      const client = new ContainerdClient({ socket: o.address });
      try {
        const list = await client.images({ namespace, signal });
        return list.map((i) => ({ name: i.name, digest: i.target.digest }));
      } finally {
        client.close();
      }
    },
    run: async (req, { signal }) => start(await target(req.namespace), req, signal, o),
  };
}

function start(
  t: { ctr: string; address: string; namespace: string },
  req: DebugRun,
  signal: AbortSignal,
  o: DebugContainersOptions,
): DebugContainer {
  signal.throwIfAborted();
  const id = `debug-${randomBytes(8).toString('hex')}`;
  const ops = ctrOps(t);
  const host = o.hostPid ?? process.pid;
  const args = ctrRunArgs(t, {
    id,
    owner: id,
    source: { type: 'image', ref: req.image },
    args: req.args,
    env: req.env,
    hostNetwork: true,
    mounts: [
      { source: '/', destination: '/host', readOnly: false },
      { source: '/sys', destination: '/sys', readOnly: false },
    ],
    privileged: { joinNamespaces: { pid: `/proc/${host}/ns/pid`, ipc: `/proc/${host}/ns/ipc` } },
  });
  const child = (o.spawn ?? nodeSpawn)(t.ctr, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  child.on('error', () => {}); // a failed start ends in 'close' too, with no code
  child.stdin.on('error', () => {}); // writes after the container ended
  const output = new PassThrough();
  let open = 2;
  for (const s of [child.stdout, child.stderr]) {
    s.pipe(output, { end: false });
    s.once('close', () => {
      if (--open === 0) output.end();
    });
  }
  const closed = new Promise<number>((resolve) =>
    child.once('close', (code, sig) => resolve(code ?? (sig ? 128 + signalNumber(sig) : 255))),
  );
  // the client left: kill the task; ctr --rm then removes the container, or the sweep does
  const kill = () => {
    void ops.kill(id, 'SIGKILL').catch(() => {});
    const t = setTimeout(() => child.kill('SIGKILL'), REMOVE_MS);
    void closed.finally(() => clearTimeout(t));
  };
  signal.addEventListener('abort', kill, { once: true });
  const exited = closed.then(async (code) => {
    signal.removeEventListener('abort', kill);
    await ops.sweep(id).catch(() => {});
    return code;
  });
  let ended = false;
  let gone = false;
  void closed.then(() => {
    gone = true;
  });
  const taskMade = async () => {
    while (!gone && !(await ops.taskStarted(id).catch(() => false)))
      await new Promise((r) => setTimeout(r, TASK_POLL_MS));
  };
  return {
    output,
    write: (data) =>
      new Promise<void>((resolve) => {
        if (child.stdin.destroyed || child.stdin.writableEnded) return resolve();
        if (child.stdin.write(data)) resolve();
        else child.stdin.once('drain', resolve).once('close', resolve);
      }),
    closeStdin: () => {
      if (ended) return;
      ended = true;
      // ctr passes our EOF on to the task only once it has made it (it starts it after): an earlier EOF is lost
      void taskMade().then(() => child.stdin.end());
    },
    signal: async (signo) => {
      await ops.kill(id, signo);
    },
    exited,
  };
}

const signalNumber = (sig: NodeJS.Signals): number => constants.signals[sig] ?? 0;
