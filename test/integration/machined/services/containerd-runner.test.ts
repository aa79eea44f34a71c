// The containerd runner against a real containerd (the components cache's, with runc): a service runs as a
// container of an image imported with the layer's ctr, its output is its log, its exit code its outcome; a
// stop reaches the task, a task that ignores it is killed after the grace period; what a killed machined
// left (a container and the ctr attached to it) is swept before the next start; a missing image is named.
// Supervised through the `container` kind, a killed task is restarted as a process would be.
import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLines } from '../../../../src/machined/logging/lines.js';
import { LogRing } from '../../../../src/machined/logging/ring.js';
import { containerKind } from '../../../../src/machined/services/container-kind.js';
import {
  type ContainerdRunnerOptions,
  containerdRunner,
  serviceOwner,
} from '../../../../src/machined/services/containerd-runner.js';
import { ctrGlobal, OWNER_LABEL } from '../../../../src/machined/services/ctr-args.js';
import type { RunOutcome } from '../../../../src/machined/services/runner.js';
import { newSupervisor, waitService } from '../../../machined/services/helpers.js';
import { importToolbox, startContainerd, type TestContainerd } from './containerd-fixtures.js';

const IMAGE = 'keel.dev/test/busybox:v1';
const NS = 'system';
let c: TestContainerd;

beforeAll(async () => {
  c = await startContainerd();
  importToolbox(c, NS, IMAGE);
}, 120_000);
afterAll(() => c?.stop());

const opts = (
  id: string,
  args: string[],
  more: Partial<ContainerdRunnerOptions> = {},
): ContainerdRunnerOptions => ({
  id,
  ctr: c.ctr,
  address: c.address,
  namespace: NS,
  source: { type: 'image', ref: IMAGE },
  args,
  ...more,
});

/** run runs one attempt of a container service, its log and state messages kept. */
function run(o: ContainerdRunnerOptions, signal = new AbortController().signal) {
  const log = new LogRing();
  const states: string[] = [];
  const outcome: Promise<RunOutcome> = containerdRunner(o).run({
    signal,
    log,
    sink: (s, m) => states.push(`${s}: ${m}`),
  });
  return { log, states, outcome };
}

/** line resolves once the log holds a line matching `re`. */
async function line(log: LogRing, re: RegExp): Promise<string> {
  const ac = new AbortController();
  try {
    for await (const l of readLines(log, { signal: ac.signal, follow: true })) if (re.test(l)) return l;
  } finally {
    ac.abort();
  }
  throw new Error('log ended');
}

const containersOf = (id: string) =>
  c
    .ctrIn(NS, 'containers', 'ls', '-q', `labels."${OWNER_LABEL}"==${serviceOwner(id)}`)
    .split('\n')
    .filter(Boolean);

describe('containerd runner', () => {
  it('runs the image with the args, env and host network asked for; output is the log, exit 0 success', async () => {
    const r = run(
      opts(
        'hello',
        ['/bin/sh', '-c', 'echo "hello $GREETING from $(id -u):$(id -g)"; ls /sys/class/net | grep -c lo'],
        {
          env: { GREETING: 'there' },
          uid: 1000,
          gid: 1001,
          hostNetwork: true,
        },
      ),
    );
    expect(await r.outcome).toEqual({ type: 'success' });
    expect(await line(r.log, /hello/)).toBe('hello there from 1000:1001');
    expect(r.states[0]).toMatch(/^Running: Container hello-[0-9a-f]{8} \(system\) started$/);
    expect(containersOf('hello')).toEqual([]);
  });

  it('mounts a host directory read-only', async () => {
    const r = run(
      opts(
        'mounts',
        [
          '/bin/sh',
          '-c',
          'cat /etc-host/hostname >/dev/null && echo read; touch /etc-host/x || echo refused',
        ],
        {
          mounts: [{ source: '/etc', destination: '/etc-host', readOnly: true }],
        },
      ),
    );
    expect(await r.outcome).toEqual({ type: 'success' });
    expect(await line(r.log, /read/)).toBe('read');
    expect(await line(r.log, /refused/)).toBe('refused');
  });

  it('a non-zero exit is a failure with the code, under the service’s name', async () => {
    const r = run(opts('fails', ['/bin/sh', '-c', 'exit 3']));
    const out = await r.outcome;
    expect(out.type).toBe('failure');
    expect(out.type === 'failure' && out.error.message).toBe(
      `Container(fails, ${IMAGE}): exited with code 3`,
    );
    expect(containersOf('fails')).toEqual([]);
  });

  it('a missing image fails at once, naming it; nothing is pulled', async () => {
    const r = run(
      opts('missing', ['/bin/true'], { source: { type: 'image', ref: 'keel.dev/test/nope:v9' } }),
    );
    const out = await r.outcome;
    expect(out.type === 'failure' && out.error.message).toBe(
      'Container(missing, keel.dev/test/nope:v9): image "keel.dev/test/nope:v9" is not in containerd\'s "system" namespace, and Keel pulls no images at run time',
    );
  });

  it('a stop sends SIGTERM to the task and the container is removed', async () => {
    const ac = new AbortController();
    const r = run(
      opts('stops', [
        '/bin/sh',
        '-c',
        'trap "echo got TERM; exit 0" TERM; echo up; while :; do sleep 0.1; done',
      ]),
      ac.signal,
    );
    await line(r.log, /^up$/);
    ac.abort();
    expect(await r.outcome).toEqual({ type: 'stopped' });
    expect(await line(r.log, /got TERM/)).toBe('got TERM');
    expect(containersOf('stops')).toEqual([]);
  });

  it('a task that ignores SIGTERM is killed after the grace period, and removed', async () => {
    const ac = new AbortController();
    const r = run(
      opts('stubborn', ['/bin/sh', '-c', 'trap "" TERM; echo up; while :; do sleep 0.1; done'], {
        gracefulShutdownTimeoutMs: 300,
      }),
      ac.signal,
    );
    await line(r.log, /^up$/);
    ac.abort();
    expect(await r.outcome).toEqual({ type: 'stopped' });
    expect(containersOf('stubborn')).toEqual([]);
    expect(c.ctrIn(NS, 'tasks', 'ls', '-q')).not.toMatch(/stubborn/);
  });

  it('sweeps what a killed machined left: its container, and the ctr still attached to it', async () => {
    // what survives a kill -9 of machined in container mode: a `ctr run` whose parent is gone
    const orphan: ChildProcess = spawn(
      c.ctr,
      [
        ...ctrGlobal({ ctr: c.ctr, address: c.address, namespace: NS }),
        'run',
        '--rm',
        '--label',
        `${OWNER_LABEL}=${serviceOwner('crashy')}`,
        IMAGE,
        'crashy-old',
        '/bin/sh',
        '-c',
        'echo old; sleep 600',
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const orphanGone = new Promise((r) => orphan.once('exit', r));
    try {
      await new Promise<void>((resolve) => orphan.stdout!.once('data', () => resolve()));
      expect(containersOf('crashy')).toEqual(['crashy-old']);
      const r = run(opts('crashy', ['/bin/sh', '-c', 'echo new']));
      expect(await r.outcome).toEqual({ type: 'success' });
      expect(await line(r.log, /new/)).toBe('new');
      expect(containersOf('crashy')).toEqual([]);
      await orphanGone; // its task was killed under it
    } finally {
      orphan.kill('SIGKILL');
    }
  });
});

/** running waits until ctr has made the service's container and its task runs, and returns its id. */
async function running(id: string): Promise<string[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ids = containersOf(id);
    const tasks = c.ctrIn(NS, 'tasks', 'ls');
    if (ids.length === 1 && new RegExp(`^${ids[0]}\\s+\\d+\\s+RUNNING`, 'm').test(tasks)) return ids;
    if (Date.now() > deadline) throw new Error(`${id}: no running task; containers ${ids}, tasks:\n${tasks}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('the container kind under the supervisor', () => {
  it('runs from a ServiceSpec, restarts after its task is killed, and stops cleanly', async () => {
    const { supervisor, events } = newSupervisor();
    const def = containerKind(
      'web',
      {
        kind: 'container',
        image: IMAGE,
        args: ['/bin/sh', '-c', 'trap "exit 0" TERM; echo started; while :; do sleep 0.1; done'],
        env: {},
        uid: 0,
        gid: 0,
        dependsOn: [],
        files: [],
        health: { kind: 'none' },
        apiControl: true,
        cgroup: '',
        options: { ctr: c.ctr, address: c.address, namespace: NS },
      },
      {},
    );
    supervisor.load({ ...def, backoff: { delay: () => 50 } });
    try {
      supervisor.start('web');
      const [first] = await running('web');
      expect(first).toMatch(/^web-/);
      c.ctrIn(NS, 'tasks', 'kill', '--signal', 'SIGKILL', first!);
      await waitService(
        events,
        'web',
        (evs) => evs.filter((e) => e.action === 'RUNNING').length >= 2,
        30_000,
      );
      const [second] = await running('web');
      expect(second).not.toBe(first);
      await supervisor.stop('web');
      expect(containersOf('web')).toEqual([]);
    } finally {
      await supervisor.stopAll();
    }
  }, 60_000);
});
