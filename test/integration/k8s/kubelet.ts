// The real kubelet for tests: the Kubernetes layer's binary in a layer tree of its own, started from the
// ServiceSpec Keel derives for a container node on loopback, in a PID namespace of its own (it moves the
// processes it can see into its system cgroups), what it prints kept, and the cgroups it makes at the
// hierarchies' roots removed after.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { KubeletPaths } from '../../../controllers/k8s/kubelet-paths.js';
import { kubeletServiceSpec } from '../../../controllers/k8s/kubelet-service.js';
import { kubeletSpecOf } from '../../../controllers/k8s/kubelet-spec.js';
import { type KubeletConfigSpec, kubeletConfigZero } from '../../../resources/k8s/index.js';
import type { ServiceSpecSpec } from '../../../resources/v1alpha1/index.js';
import { writeServiceFiles } from '../../../src/machined/services/index.js';
import { componentDir } from '../../etcd/fixtures.js';
import type { Peer } from '../../sys/netns.js';

const CGROUP_ROOT = '/sys/fs/cgroup';

export interface KubeletServiceOptions {
  /** the layer's tree is made under it */
  readonly work: string;
  readonly paths: KubeletPaths;
  readonly nodename: string;
  readonly controlPlane: boolean;
  /** the cluster CA's certificate, which it trusts */
  readonly ca: string;
  /** the KubeletConfig beyond the cluster's DNS */
  readonly config: Partial<KubeletConfigSpec>;
}

/**
 * kubeletService is the kubelet's ServiceSpec, with its files written and its layer made, as the process
 * kind finds them before each start.
 */
export function kubeletService(o: KubeletServiceOptions): ServiceSpecSpec {
  const kubeletSpec = kubeletSpecOf({
    config: {
      ...kubeletConfigZero(),
      clusterDNS: ['10.96.0.10'],
      clusterDomain: 'cluster.local',
      ...o.config,
    },
    controlPlane: o.controlPlane,
    nodename: o.nodename,
    nodeIPs: ['127.0.0.1'],
    container: true,
    paths: o.paths,
  })!;
  const spec = kubeletServiceSpec({
    spec: kubeletSpec,
    secrets: {
      // nothing listens there: the kubelet must start without its API server
      endpoint: 'https://127.0.0.1:6443',
      acceptedCAs: [{ crt: o.ca }],
      bootstrapTokenID: 'abcdef',
      bootstrapTokenSecret: '0123456789abcdef',
    },
    layerRoot: kubeletLayer(o.work),
    env: {},
    paths: o.paths,
  });
  writeServiceFiles(spec);
  return spec;
}

/** kubeletLayer makes the layer's tree, `<work>/layer/usr/bin/kubelet`, and returns its root. */
function kubeletLayer(work: string): string {
  const layer = join(work, 'layer');
  mkdirSync(join(layer, 'usr/bin'), { recursive: true });
  symlinkSync(join(componentDir('kubernetes'), 'kubelet'), join(layer, 'usr/bin/kubelet'));
  return layer;
}

export interface RunningKubelet {
  readonly process: ChildProcess;
  /** the last of what it printed */
  log(): string;
  /** stop kills it; unshare takes it and its namespace down with it */
  stop(): Promise<void>;
  /** removeCgroups removes the cgroups it made, once the processes in them are gone */
  removeCgroups(): Promise<void>;
}

export interface KubeletOptions {
  /** the network namespace to run it in; this file's when absent */
  readonly netns?: Peer;
  /** how much of what it prints to keep, in characters */
  readonly logChars: number;
}

/** startKubelet starts the program of a kubelet ServiceSpec whose files are written. */
export function startKubelet(spec: ServiceSpecSpec, o: KubeletOptions): RunningKubelet {
  const made = hierarchies()
    .flatMap((h) => ['kubepods', 'podruntime', 'system'].map((c) => join(h, c)))
    .filter((d) => !existsSync(d));
  const unshare = ['unshare', '--pid', '--fork', '--mount-proc', '--kill-child', ...spec.args];
  // nsenter, not `ip netns exec`, which mounts a sysfs of its own without the cgroup mounts
  const [cmd, ...args] = o.netns ? ['nsenter', `--net=/run/netns/${o.netns.name}`, ...unshare] : unshare;
  const proc = spawn(cmd!, args, { env: spec.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const keep = (b: Buffer) => {
    log = (log + b.toString()).slice(-o.logChars);
  };
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  return {
    process: proc,
    log: () => log,
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const gone = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGKILL');
      await gone;
    },
    async removeCgroups() {
      for (const d of made) if (existsSync(d)) await removeCgroup(d);
    },
  };
}

/** each hierarchy's root: the unified one, or each v1 controller's */
const hierarchies = (): string[] =>
  existsSync(join(CGROUP_ROOT, 'cgroup.procs'))
    ? [CGROUP_ROOT]
    : readdirSync(CGROUP_ROOT)
        .map((d) => join(CGROUP_ROOT, d))
        .filter((d) => existsSync(join(d, 'cgroup.procs')));

/** how long a cgroup may stay busy after its processes were killed */
const EMPTYING_MS = 10_000;

/**
 * removeCgroup removes a cgroup and its children, deepest first (their files go with them). The kubelet's
 * exit does not wait for the rest of its PID namespace: the kernel kills those after it, and a cgroup
 * refuses rmdir (EBUSY) until its last process has gone, so each is given a moment to empty.
 */
async function removeCgroup(dir: string): Promise<void> {
  for (const e of readdirSync(dir, { withFileTypes: true }))
    if (e.isDirectory()) await removeCgroup(join(dir, e.name));
  const deadline = Date.now() + EMPTYING_MS;
  for (;;) {
    try {
      rmdirSync(dir);
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EBUSY' || Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
