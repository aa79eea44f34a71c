// The stock talosctl reads StaticPodStatuses: the type resolves by its names and alias, its definition is
// upstream's, an empty list prints the header with the READY column, and a kubelet's pod statuses (a
// control plane's apiserver running, its scheduler crash-looping on a flag it does not know) print in the
// table, as YAML and as JSON. The statuses are served in-process from a node's registered state: the
// container-mode node of container.test.ts runs no real kubelet (test/integration/k8s/kubelet-static-pod
// .test.ts has the real one fill them).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { K8S_NAMESPACE, StaticPodStatus } from '../../../resources/k8s/index.js';
import type { ApiServer } from '../../../src/api/server.js';
import { registerDefault } from '../../../src/cosi/resource/meta/index.js';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';
import type { State } from '../../../src/cosi/state/state.js';
import { wrapCore } from '../../../src/cosi/state/wrap.js';
import { registerNodeResources } from '../../../src/machined/node/node-resources.js';
import { startInProcessApi } from './in-process-api.js';
import { killTalosctls, type Run, talosctl, talosctlPath } from './talosctl.js';

let bin: string;
let dir: string;
let state: State;
let server: ApiServer;

const tc = (...args: string[]) =>
  talosctl(bin, ['-e', server.address, '-n', '127.0.0.1', ...args], {
    talosconfig: join(dir, 'talosconfig'),
    cwd: dir,
  });

function works(r: Run): string {
  expect(r.timedOut, r.output).toBe(false);
  expect(r.code, r.output).toBe(0);
  expect(r.stderr, r.output).not.toMatch(/rpc error|unmarshal|proto:|panic/i);
  return r.stdout;
}

/** as the kubelet reports them (JSON of a v1 PodStatus) */
const APISERVER = {
  phase: 'Running',
  conditions: [
    {
      type: 'PodReadyToStartContainers',
      status: 'True',
      lastProbeTime: null,
      lastTransitionTime: '2025-01-02T03:04:05Z',
    },
    { type: 'Initialized', status: 'True', lastProbeTime: null, lastTransitionTime: '2025-01-02T03:04:05Z' },
    { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: '2025-01-02T03:04:09Z' },
  ],
  hostIP: '10.5.0.2',
  hostIPs: [{ ip: '10.5.0.2' }],
  podIP: '10.5.0.2',
  startTime: '2025-01-02T03:04:05Z',
  containerStatuses: [
    {
      name: 'kube-apiserver',
      state: { running: { startedAt: '2025-01-02T03:04:06Z' } },
      lastState: {},
      ready: true,
      restartCount: 0,
      image: 'registry.k8s.io/kube-apiserver:v1.34.4',
      imageID: 'sha256:8bd1',
      containerID: 'containerd://4a51',
      started: true,
    },
  ],
  qosClass: 'Burstable',
};

const SCHEDULER = {
  phase: 'Running',
  conditions: [{ type: 'Ready', status: 'False', lastProbeTime: null, reason: 'ContainersNotReady' }],
  containerStatuses: [
    {
      name: 'kube-scheduler',
      state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 20s restarting failed container' } },
      lastState: {
        terminated: {
          exitCode: 1,
          reason: 'Error',
          message:
            '      --version version[=true]   --version, --version=raw prints version information and quits\n\nError: unknown flag: --keel-bogus-flag\n',
          startedAt: '2025-01-02T03:04:06Z',
          finishedAt: '2025-01-02T03:04:06Z',
        },
      },
      ready: false,
      restartCount: 2,
      started: false,
    },
  ],
};

beforeAll(async () => {
  bin = talosctlPath();
  dir = mkdtempSync(join(tmpdir(), 'keel-podstatus-'));
  const gen = await talosctl(bin, ['gen', 'config', 'keel-podstatus', 'https://127.0.0.1:6443', '-o', dir], {
    cwd: dir,
  });
  expect(gen.code, gen.output).toBe(0);
  // what a control plane node registers and serves
  state = wrapCore(newInmemState());
  await registerDefault(state);
  await registerNodeResources(state);
  server = await startInProcessApi(join(dir, 'controlplane.yaml'), {}, state);
}, 10 * 60_000);

afterAll(async () => {
  killTalosctls();
  await server?.close({ signal: AbortSignal.timeout(5_000) });
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('talosctl get staticpodstatus', () => {
  it('resolves the type by its names and alias; none yet is the header alone', async () => {
    for (const name of [
      'staticpodstatus',
      'staticpodstatuses',
      'podstatus',
      'StaticPodStatuses.kubernetes.talos.dev',
    ])
      expect(works(await tc('get', name)).trim(), name).toMatch(
        /^NODE\s+NAMESPACE\s+TYPE\s+ID\s+VERSION\s+READY$/,
      );
    const rd = works(await tc('get', 'rd', 'staticpodstatuses.kubernetes.talos.dev', '-o', 'yaml'));
    expect(rd).toContain('    type: StaticPodStatuses.kubernetes.talos.dev\n');
    expect(rd).toContain('    displayType: StaticPodStatus\n');
    expect(rd).toContain('    defaultNamespace: k8s\n');
    expect(rd).toMatch(/ {4}aliases:\n {8}- podstatus\n/);
    expect(rd).toContain(`          jsonPath: '{.conditions[?(@.type=="Ready")].status}'\n`);
  });

  it('prints a kubelet’s statuses: the Ready condition in the table, the status as YAML and JSON', async () => {
    await state.create(
      StaticPodStatus.new(K8S_NAMESPACE, 'kube-system/kube-apiserver-cp-1', { podStatus: APISERVER }),
    );
    await state.create(
      StaticPodStatus.new(K8S_NAMESPACE, 'kube-system/kube-scheduler-cp-1', { podStatus: SCHEDULER }),
    );
    expect(works(await tc('get', 'podstatus'))).toMatch(
      new RegExp(
        '^NODE\\s+NAMESPACE\\s+TYPE\\s+ID\\s+VERSION\\s+READY\\n' +
          '127\\.0\\.0\\.1\\s+k8s\\s+StaticPodStatus\\s+kube-system/kube-apiserver-cp-1\\s+1\\s+True\\n' +
          '127\\.0\\.0\\.1\\s+k8s\\s+StaticPodStatus\\s+kube-system/kube-scheduler-cp-1\\s+1\\s+False\\n$',
      ),
    );
    const yaml = works(await tc('get', 'podstatus', 'kube-system/kube-scheduler-cp-1', '-o', 'yaml'));
    expect(yaml).toMatch(
      /^node: 127\.0\.0\.1\nmetadata:\n {4}namespace: k8s\n {4}type: StaticPodStatuses\.kubernetes\.talos\.dev\n/,
    );
    expect(yaml).toContain('                Error: unknown flag: --keel-bogus-flag\n');
    const json = JSON.parse(
      works(await tc('get', 'podstatus', 'kube-system/kube-apiserver-cp-1', '-o', 'json')),
    ) as { spec: unknown };
    expect(json.spec).toEqual(APISERVER);
  });
});
