// StaticPodStatus from the real kubelet (the Kubernetes layer's) running static pods on a real containerd,
// with images from the components layer: the kubelet reads pods from Keel's static pod server (http) and
// from its manifests directory (file), and k8s.KubeletStaticPodController asks its API on :10250 with the
// API server's kubelet client certificate minted by the secrets code, trusting the self-signed serving
// certificate the kubelet writes. The kube-scheduler pod is Keel's own, given a flag it does not know: its
// status carries the scheduler's last log lines (FallbackToLogsOnError). The kubelet runs standalone (no
// API server: node registration skipped, so it authorizes every authenticated client) in this file's
// network namespace (its ports are fixed) and a PID namespace of its own (it moves the processes it can
// see into its system cgroups).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { schedulerPod } from '../../../controllers/k8s/internal/scheduler-pod.js';
import { kubeletFiles, kubeletPathsUnder } from '../../../controllers/k8s/kubelet-paths.js';
import { kubeletStaticPodController } from '../../../controllers/k8s/kubelet-static-pod.js';
import { staticPodDirsUnder } from '../../../controllers/k8s/static-pod-paths.js';
import { StaticPodServerController } from '../../../controllers/k8s/static-pod-server.js';
import { kubernetesDynamicCerts } from '../../../controllers/secrets/kubernetes-dynamic-certs.js';
import {
  K8S_NAMESPACE,
  NODENAME_ID,
  Nodename,
  STATIC_POD_SERVER_STATUS_ID,
  StaticPod,
  StaticPodServerStatus,
  StaticPodStatus,
} from '../../../resources/k8s/index.js';
import {
  KUBERNETES_DYNAMIC_CERTS_ID,
  KUBERNETES_ROOT_ID,
  KubernetesDynamicCerts,
  KubernetesRoot,
  type KubernetesRootSpec,
  SECRETS_NAMESPACE,
} from '../../../resources/secrets/index.js';
import { Service, V1ALPHA1_NAMESPACE } from '../../../resources/v1alpha1/index.js';
import { lineLogger } from '../../../src/cosi/controller/index.js';
import {
  assertLength,
  assertNoResource,
  assertResource,
} from '../../../src/cosi/testing/assert-resources.js';
import { newCertificateAuthority } from '../../../src/pki/index.js';
import { startContainerd, type TestContainerd } from '../../containerd/fixtures.js';
import { type RuntimeEnv, startRuntime } from '../../controllers/secrets/env.js';
import { componentDir } from '../../etcd/fixtures.js';
import { enterNetns } from '../../sys/netns.js';
import { kubeletService, type RunningKubelet, startKubelet } from './kubelet.js';

enterNetns();

const NODENAME = 'keel-spst';

let containerd: TestContainerd;
let work: string;
let env: RuntimeEnv;
/** the controllers' log lines, shown with the kubelet's when a check fails */
const controllerLog: string[] = [];
let kubelet: RunningKubelet | undefined;
let manifests: string;
const images: Record<string, string> = {};

/** importImage imports a components-layer image into the CRI's namespace and returns its reference. */
async function importImage(name: string): Promise<string> {
  const dir = componentDir(name);
  const meta = JSON.parse(readFileSync(join(dir, 'image.json'), 'utf8')) as { ref: string; file: string };
  await containerd.importImage('k8s.io', readFileSync(join(dir, meta.file)));
  return meta.ref;
}

const pod = (name: string, container: Record<string, unknown>) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'kube-system' },
  // no CNI here: the host's (this file's) network
  spec: { hostNetwork: true, containers: [{ name, imagePullPolicy: 'Never', ...container }] },
});

const statusID = (name: string) => `kube-system/${name}-${NODENAME}`;

const logTail = () =>
  `${(kubelet?.log() ?? '').split('\n').slice(-30).join('\n')}\ncontrollers:\n${controllerLog.slice(-20).join('')}`;

/** gone waits until a status is destroyed, or fails with the logs */
const gone = (id: string) =>
  assertNoResource(env.state, StaticPodStatus, id, { timeoutMs: 90_000 }).catch((e: Error) => {
    throw new Error(`${e.message}\nkubelet:\n${logTail()}`, { cause: e });
  });

beforeAll(async () => {
  expect(process.getuid?.(), 'the kubelet needs root').toBe(0);
  work = mkdtempSync(join(tmpdir(), 'keel-static-pod-status-'));
  containerd = await startContainerd();
  // the sandbox answers to containerd's default name too; nothing is pulled
  images.pause = await importImage('pause');
  images.toolbox = await importImage('toolbox');
  images.scheduler = await importImage('kube-scheduler');

  // the cluster CA and the API server's kubelet client certificate, as the secrets controllers mint them
  const issuingCA = await newCertificateAuthority({ keyType: 'ecdsa-p256', organizations: ['kubernetes'] });
  const aggregatorCA = await newCertificateAuthority({ keyType: 'ecdsa-p256', commonName: 'front-proxy' });
  const root: KubernetesRootSpec = { ...KubernetesRoot.codec.empty(), issuingCA, aggregatorCA };
  const dynamic = await kubernetesDynamicCerts(
    root,
    { ips: ['127.0.0.1'], dnsNames: ['localhost'], fqdn: '' },
    undefined,
    new Date(),
  );

  const paths = kubeletPathsUnder(join(work, 'state'), containerd.socket);
  manifests = kubeletFiles(paths).manifests;
  env = startRuntime(
    [StaticPodServerController, kubeletStaticPodController({ kubelet: paths, refreshMs: 2_000 })],
    lineLogger((l) => controllerLog.push(l), 'debug'),
  );
  await env.state.create(
    Nodename.new(K8S_NAMESPACE, NODENAME_ID, { ...Nodename.codec.empty(), nodename: NODENAME }),
  );
  await env.state.create(KubernetesRoot.new(SECRETS_NAMESPACE, KUBERNETES_ROOT_ID, root));
  await env.state.create(KubernetesDynamicCerts.new(SECRETS_NAMESPACE, KUBERNETES_DYNAMIC_CERTS_ID, dynamic));
  const server = await assertResource(env.state, StaticPodServerStatus, STATIC_POD_SERVER_STATUS_ID, (r) =>
    expect(r.spec.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/),
  );

  const spec = kubeletService({
    work,
    paths,
    nodename: NODENAME,
    controlPlane: true,
    ca: issuingCA.crt,
    config: {
      staticPodListURL: server.spec.url,
      // no API server: the kubelet runs standalone and authorizes whoever its client CA authenticates
      skipNodeRegistration: true,
      // the kubelet's sources are read every 20 s by default: faster here
      extraConfig: { httpCheckFrequency: '1s', fileCheckFrequency: '1s' },
    },
  });
  // the pods' resolv.conf, which network.EtcFileController writes on a node: no sandbox without it
  mkdirSync(join(paths.podResolvConf, '..'), { recursive: true });
  writeFileSync(paths.podResolvConf, 'nameserver 127.0.0.1\n');
  kubelet = startKubelet(spec, { logChars: 40_000 });
  // what the supervisor publishes once the process runs
  await env.state.create(
    Service.new(V1ALPHA1_NAMESPACE, 'kubelet', { running: true, healthy: false, unknown: true }),
  );
}, 240_000);

afterAll(async () => {
  await env?.stop();
  await kubelet?.stop();
  // the pods outlive the kubelet: containerd's stop removes them
  await containerd?.stop();
  await kubelet?.removeCgroups();
  if (work) rmSync(work, { recursive: true, force: true });
}, 120_000);

describe('StaticPodStatus from the real kubelet', () => {
  it('appears for the static pods of both sources with their phase, and goes with each pod', async () => {
    const running = (name: string) =>
      assertResource(
        env.state,
        StaticPodStatus,
        statusID(name),
        (r) => {
          expect(kubelet?.process.exitCode, `the kubelet exited:\n${logTail()}`).toBeNull();
          expect(r.spec.podStatus.phase).toBe('Running');
          const conditions = r.spec.podStatus.conditions as { type: string; status: string }[];
          expect(conditions).toContainEqual(expect.objectContaining({ type: 'Ready', status: 'True' }));
        },
        { timeoutMs: 150_000 },
      ).catch((e: Error) => {
        throw new Error(`${e.message}\nkubelet:\n${logTail()}`, { cause: e });
      });
    // one pod from the static pod server, one from the manifests directory
    await env.state.create(
      StaticPod.new(K8S_NAMESPACE, 'keel-pause', { pod: pod('keel-pause', { image: images.pause }) }),
    );
    mkdirSync(manifests, { recursive: true });
    const file = join(manifests, 'keel-toolbox.yaml');
    writeFileSync(
      file,
      YAML.stringify(
        pod('keel-toolbox', { image: images.toolbox, command: ['/bin/sh', '-c', 'exec sleep 100000'] }),
      ),
    );
    const fromURL = await running('keel-pause');
    const fromFile = await running('keel-toolbox');
    expect(fromURL.metadata.owner).toBe('k8s.KubeletStaticPodController');
    const started = (fromFile.spec.podStatus.containerStatuses as Record<string, unknown>[])[0]!;
    expect(started).toMatchObject({ name: 'keel-toolbox', ready: true, state: { running: {} } });

    // the pod leaves the server: its status goes, the other stays
    await env.state.destroy(StaticPod.pointer('keel-pause'));
    await gone(statusID('keel-pause'));
    expect(await env.state.get(StaticPodStatus.pointer(statusID('keel-toolbox')))).toBeDefined();
    unlinkSync(file);
    await gone(statusID('keel-toolbox'));
  }, 400_000);

  it("carries a failing component's last log lines: Keel's scheduler pod with a flag it does not know", async () => {
    const scheduler = schedulerPod(
      {
        enabled: true,
        image: images.scheduler!,
        extraArgs: { 'keel-bogus-flag': { values: ['1'] } },
        extraVolumes: [],
        environmentVariables: {},
        resources: { requests: { cpu: '', memory: '' } },
        config: {},
      },
      { secrets: '1', config: '1' },
      staticPodDirsUnder(join(work, 'state')),
    );
    // the host paths it mounts: the scheduler exits on its flags before it reads them
    for (const v of (scheduler.spec as { volumes: { hostPath: { path: string } }[] }).volumes)
      mkdirSync(v.hostPath.path, { recursive: true });
    await env.state.create(StaticPod.new(K8S_NAMESPACE, 'kube-scheduler', { pod: scheduler }));
    await assertResource(
      env.state,
      StaticPodStatus,
      statusID('kube-scheduler'),
      (r) => {
        const c = (
          r.spec.podStatus.containerStatuses as Record<string, Record<string, unknown>>[] | undefined
        )?.[0];
        const terminated = (c?.state?.terminated ?? c?.lastState?.terminated) as
          | Record<string, unknown>
          | undefined;
        expect(terminated?.exitCode).toBe(1);
        expect(terminated?.message).toMatch(/unknown flag: --keel-bogus-flag\n?$/);
      },
      { timeoutMs: 150_000 },
    ).catch((e: Error) => {
      throw new Error(`${e.message}\nkubelet:\n${logTail()}`, { cause: e });
    });

    // the kubelet service stops: every status goes
    await env.state.modify(Service.new(V1ALPHA1_NAMESPACE, 'kubelet'), (r) => {
      r.spec = { running: false, healthy: false, unknown: false };
    });
    await assertLength(env.state, StaticPodStatus, 0);
  }, 300_000);
});
