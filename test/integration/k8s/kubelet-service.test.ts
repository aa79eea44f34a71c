// The real kubelet (the Kubernetes layer's) started from the ServiceSpec Keel derives, with a container
// node's paths under a temporary state directory and a real containerd as its CRI: it must take its
// arguments and the KubeletConfiguration, trust the CA bundle, reach the CRI, and serve its healthz, with
// the API server it bootstraps against absent. It runs in a network namespace of its own (its ports are
// fixed) and a PID namespace of its own (it moves the processes it can see into its system cgroups).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeletPathsUnder } from '../../../controllers/k8s/kubelet-paths.js';
import { kubeletServiceSpec } from '../../../controllers/k8s/kubelet-service.js';
import { kubeletSpecOf } from '../../../controllers/k8s/kubelet-spec.js';
import { kubeletConfigZero } from '../../../resources/k8s/index.js';
import type { ServiceSpecSpec } from '../../../resources/v1alpha1/index.js';
import { writeServiceFiles } from '../../../src/machined/services/index.js';
import { newCertificateAuthority } from '../../../src/pki/index.js';
import { startContainerd, type TestContainerd } from '../../containerd/fixtures.js';
import { componentDir } from '../../etcd/fixtures.js';
import { type Peer, peerNetns } from '../../sys/netns.js';

let containerd: TestContainerd;
let work: string;
let peer: Peer;
let kubelet: ChildProcess;
let spec: ServiceSpecSpec;
let log = '';
/** the cgroups the kubelet makes at the hierarchies' roots which were not there before: removed after */
let madeCgroups: string[] = [];

const CGROUP_ROOT = '/sys/fs/cgroup';
/** each hierarchy's root: the unified one, or each v1 controller's */
const hierarchies = (): string[] =>
  existsSync(join(CGROUP_ROOT, 'cgroup.procs'))
    ? [CGROUP_ROOT]
    : readdirSync(CGROUP_ROOT)
        .map((d) => join(CGROUP_ROOT, d))
        .filter((d) => existsSync(join(d, 'cgroup.procs')));

/** removeCgroup removes a cgroup and its children, deepest first (their files go with them) */
function removeCgroup(dir: string): void {
  for (const e of readdirSync(dir, { withFileTypes: true }))
    if (e.isDirectory()) removeCgroup(join(dir, e.name));
  rmdirSync(dir);
}

beforeAll(async () => {
  expect(process.getuid?.(), 'the kubelet needs root').toBe(0);
  work = mkdtempSync(join(tmpdir(), 'keel-kubelet-'));
  // the layer's tree: `<root>/usr/bin/kubelet`
  mkdirSync(join(work, 'layer/usr/bin'), { recursive: true });
  symlinkSync(join(componentDir('kubernetes'), 'kubelet'), join(work, 'layer/usr/bin/kubelet'));
  containerd = await startContainerd();
  const paths = kubeletPathsUnder(join(work, 'state'), containerd.socket);
  const kubeletSpec = kubeletSpecOf({
    config: {
      ...kubeletConfigZero(),
      clusterDNS: ['10.96.0.10'],
      clusterDomain: 'cluster.local',
      staticPodListURL: 'http://127.0.0.1:1',
    },
    controlPlane: false,
    nodename: 'kubelet-test',
    nodeIPs: ['127.0.0.1'],
    container: true,
    paths,
  })!;
  const ca = await newCertificateAuthority({ keyType: 'ecdsa-p256', organizations: ['kubernetes'] });
  spec = kubeletServiceSpec({
    spec: kubeletSpec,
    secrets: {
      // nothing listens there: the kubelet must start without its API server
      endpoint: 'https://127.0.0.1:6443',
      acceptedCAs: [{ crt: ca.crt }],
      bootstrapTokenID: 'abcdef',
      bootstrapTokenSecret: '0123456789abcdef',
    },
    layerRoot: join(work, 'layer'),
    env: {},
    paths,
  });
  // what the process kind does before each start, then its program as the spec gives it
  writeServiceFiles(spec);
  madeCgroups = hierarchies()
    .flatMap((h) => ['kubepods', 'podruntime', 'system'].map((c) => join(h, c)))
    .filter((d) => !existsSync(d));
  peer = peerNetns('kubelet');
  peer.run('ip', 'link', 'set', 'lo', 'up');
  kubelet = spawn(
    // nsenter, not `ip netns exec`, which mounts a sysfs of its own without the cgroup mounts
    'nsenter',
    [
      `--net=/run/netns/${peer.name}`,
      'unshare',
      '--pid',
      '--fork',
      '--mount-proc',
      '--kill-child',
      ...spec.args,
    ],
    { env: spec.env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const keep = (b: Buffer) => {
    log = (log + b.toString()).slice(-20_000);
  };
  kubelet.stdout!.on('data', keep);
  kubelet.stderr!.on('data', keep);
}, 120_000);

afterAll(async () => {
  if (kubelet && kubelet.exitCode === null && kubelet.signalCode === null) {
    const gone = new Promise((r) => kubelet.once('exit', r));
    // unshare takes the kubelet and its namespace down with it
    kubelet.kill('SIGKILL');
    await gone;
  }
  await containerd?.stop();
  for (const d of madeCgroups) if (existsSync(d)) removeCgroup(d);
  if (work) rmSync(work, { recursive: true, force: true });
}, 60_000);

describe('the kubelet from its ServiceSpec', () => {
  it('parses its flags and config, reaches the CRI, and serves healthz without an API server', async () => {
    const health = spec.health.kind === 'http' ? spec.health.url : '';
    for (const deadline = Date.now() + 90_000; ; ) {
      expect(kubelet.exitCode, `the kubelet exited:\n${log}`).toBeNull();
      let body = '';
      try {
        body = peer.run('curl', '-sf', '--max-time', '2', health);
      } catch {}
      if (body === 'ok') break;
      expect(Date.now() < deadline, `healthz never answered ok:\n${log}`).toBe(true);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }, 120_000);
});
