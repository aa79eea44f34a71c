// The containerd runner: a service as a container of the node's containerd, run by the components layer's
// ctr as machined's supervised child. `ctr run --rm` stays attached: it forwards the stop signal to the
// task, its exit code is the task's, and the task's stdout and stderr are its own, so they become the
// service's log. What an earlier run left behind (machined crashed or was killed) is swept away first.
import { randomBytes } from 'node:crypto';
import { type CtrMount, ctrRunArgs } from './ctr-args.js';
import { type CtrOps, ctrOps } from './ctr-ops.js';
import { ServiceError } from './errors.js';
import { processRunner, type SpawnFn } from './process-runner.js';
import { failure, type Runner, type RunnerContext, type RunOutcome } from './runner.js';

/**
 * ContainerdRunnerOptions describe a service run as a container, the way upstream runs apid, trustd,
 * etcd and kubelet: from a rootfs path or an image, on a given containerd socket and namespace.
 */
export interface ContainerdRunnerOptions {
  /** the service's id: it names the containers and owns them for the stale sweep */
  readonly id: string;
  /** the components layer's ctr, e.g. <layer>/usr/bin/ctr */
  readonly ctr: string;
  /** containerd's socket, e.g. /run/containerd/containerd.sock */
  readonly address: string;
  /** containerd namespace, e.g. `system` */
  readonly namespace: string;
  /** exactly one of a read-only rootfs directory or an image reference (present locally: nothing is pulled) */
  readonly source:
    | { readonly type: 'rootfs'; readonly path: string }
    | { readonly type: 'image'; readonly ref: string };
  /** the process; empty: the image's command */
  readonly args: readonly string[];
  /** added to the image's environment */
  readonly env?: Readonly<Record<string, string>>;
  readonly uid?: number;
  readonly gid?: number;
  /** capability names to drop (apid drops all) */
  readonly dropCapabilities?: readonly string[];
  /** absent: containerd's default, /<namespace>/<container id> */
  readonly cgroupPath?: string;
  readonly hostNetwork?: boolean;
  readonly mounts?: readonly CtrMount[];
  /** SIGTERM (forwarded to the task), then SIGKILL after this long; default 10 s, as upstream */
  readonly gracefulShutdownTimeoutMs?: number;
  /** how ctr is started; default child_process.spawn (PID 1 passes its own) */
  readonly spawn?: SpawnFn;
}

/** ContainerdRunnerFactory makes a Runner for a container; the supervisor only needs the Runner. */
export type ContainerdRunnerFactory = (opts: ContainerdRunnerOptions) => Runner;

/** the owner label of a service's containers */
export const serviceOwner = (id: string): string => `service-${id}`;

export const containerdRunner: ContainerdRunnerFactory = (opts) => {
  const what = opts.source.type === 'image' ? opts.source.ref : opts.source.path;
  const name = `Container(${opts.id}, ${what})`;
  return { kind: 'containerd', toString: () => name, run: (ctx) => runContainer(name, opts, ctx) };
};

async function runContainer(
  name: string,
  o: ContainerdRunnerOptions,
  ctx: RunnerContext,
): Promise<RunOutcome> {
  const target = { ctr: o.ctr, address: o.address, namespace: o.namespace };
  const ops = ctrOps(target, o.spawn);
  const owner = serviceOwner(o.id);
  try {
    await ops.sweep(owner);
    if (o.source.type === 'image') {
      const ref = o.source.ref;
      if (!(await ops.images({ signal: ctx.signal })).some((i) => i.name === ref))
        return failure(new ServiceError('spawn-failed', missingImage(name, ref, o.namespace)));
    }
  } catch (cause) {
    if (ctx.signal.aborted) return { type: 'stopped' };
    return failure(new ServiceError('spawn-failed', `${name}: ${(cause as Error).message}`, { cause }));
  }
  // a fresh id each run: a ctr left from a killed machined may still delete its own container by id
  const id = `${o.id}-${randomBytes(4).toString('hex')}`;
  let args: string[];
  try {
    args = [o.ctr, ...ctrRunArgs(target, { ...o, id, owner })];
  } catch (e) {
    return failure(e);
  }
  // ctr is killed outright only after the grace period: it forwards signals only once the task has
  // started, so a stop is sent to the task itself
  const hardKill = new AbortController();
  const child = processRunner({ args, gracefulShutdownTimeoutMs: 0, ...(o.spawn ? { spawn: o.spawn } : {}) });
  const childName = child.toString();
  let stopping = false;
  let ended = false;
  let timer: NodeJS.Timeout | undefined;
  const stop = () => {
    stopping = true;
    timer = setTimeout(() => hardKill.abort(), o.gracefulShutdownTimeoutMs ?? DEFAULT_GRACE_MS);
    void terminate(ops, id, () => ended).catch(() => hardKill.abort());
  };
  if (ctx.signal.aborted) return { type: 'stopped' };
  ctx.signal.addEventListener('abort', stop, { once: true });
  try {
    const outcome = await child.run({
      ...ctx,
      signal: hardKill.signal,
      sink: (state, message) =>
        ctx.sink(state, state === 'Running' ? `Container ${id} (${o.namespace}) started` : message),
    });
    ended = true;
    if (stopping) return { type: 'stopped' };
    // the ctr argv is long and says nothing the service's name does not
    if (outcome.type === 'failure' && outcome.error.message.startsWith(childName))
      return failure(new ServiceError('exited', `${name}${outcome.error.message.slice(childName.length)}`));
    return outcome;
  } finally {
    ended = true;
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', stop);
    // ctr killed after the grace period leaves its task running: take it down with the container
    await ops
      .sweep(owner)
      .catch((e: Error) => ctx.log.write(`[keel] ${name}: sweep after the run: ${e.message}\n`));
  }
}

const DEFAULT_GRACE_MS = 10_000;
/** how often a stop asks again for a task ctr has not created yet */
const TASK_POLL_MS = 100;

/** terminate sends SIGTERM to the task, waiting for it to exist (a stop can come as ctr starts it). */
async function terminate(ops: CtrOps, id: string, ended: () => boolean): Promise<void> {
  while (!ended()) {
    if (await ops.kill(id, 'SIGTERM')) return;
    await new Promise((r) => setTimeout(r, TASK_POLL_MS));
  }
}

/** missingImage: Keel ships images in the node and imports them; a run never pulls. */
export const missingImage = (name: string, ref: string, namespace: string): string =>
  `${name}: image ${JSON.stringify(ref)} is not in containerd's ${JSON.stringify(namespace)} namespace, and Keel pulls no images at run time`;
