// A real kube-apiserver for tests: the binary from the Kubernetes component's build, run with the
// arguments Keel's static pod gives it (its files moved under a temporary root, etcd and the port the
// test's), until it serves the admin kubeconfig the kube-system namespace. startControlPlane runs it, and a
// real etcd, from what Keel's secrets and render controllers make of a control plane config.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'vitest';
import { MachineTypeController } from '../../../controllers/config/index.js';
import {
  ControlPlaneAdmissionControlController,
  ControlPlaneAPIServerController,
  ControlPlaneAuditPolicyController,
  ControlPlaneAuthorizationController,
  ControlPlaneSchedulerController,
  renderConfigsStaticPodController,
  renderSecretsStaticPodController,
  staticPodDirsUnder,
} from '../../../controllers/k8s/index.js';
import { apiServerCommand } from '../../../controllers/k8s/internal/apiserver-pod.js';
import { secretsControllers } from '../../../controllers/secrets/index.js';
import {
  APISERVER_ID,
  APIServerConfig,
  CONFIG_STATUS_STATIC_POD_ID,
  ConfigStatus,
  SecretsStatus,
  STATIC_POD_SECRETS_STATIC_POD_ID,
} from '../../../resources/k8s/index.js';
import {
  ETCD_ID,
  ETCD_ROOT_ID,
  Etcd,
  EtcdRoot,
  KUBERNETES_ID,
  Kubernetes,
} from '../../../resources/secrets/index.js';
import type { Controller } from '../../../src/cosi/controller/index.js';
import type { State } from '../../../src/cosi/state/state.js';
import { assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { KubeClient } from '../../../src/k8s/index.js';
import { componentDir, type EtcdPKI, type RunningEtcd, startEtcd } from '../../etcd/fixtures.js';

export interface RunningAPIServer {
  readonly process: ChildProcess;
  log(): string;
  stop(): Promise<void>;
}

export interface APIServerOptions {
  /** the static pod's command (the binary first, then its flags) */
  readonly command: readonly string[];
  /** where the pod's /system and /var paths live on the host */
  readonly root: string;
  /** flags replaced or added (`etcd-servers`, `bind-address`, …) */
  readonly overrides: Readonly<Record<string, string>>;
  /** the kubeconfig to ask whether it is up with */
  readonly kubeconfig: string;
  readonly timeoutMs?: number;
}

/** hostArgs moves each flag's pod path under root and applies the overrides. */
export function hostArgs(
  command: readonly string[],
  root: string,
  overrides: Readonly<Record<string, string>>,
) {
  const flags = new Map<string, string>();
  for (const a of command.slice(1)) {
    const m = /^--([^=]+)=(.*)$/s.exec(a);
    if (!m) continue;
    const v = m[2]!;
    flags.set(m[1]!, /^\/(system|var)\//.test(v) ? join(root, v) : v);
  }
  for (const [k, v] of Object.entries(overrides)) flags.set(k, v);
  return [...flags].map(([k, v]) => `--${k}=${v}`);
}

export async function startAPIServer(o: APIServerOptions): Promise<RunningAPIServer> {
  const bin = join(componentDir('kubernetes'), 'kube-apiserver');
  const proc = spawn(bin, hostArgs(o.command, o.root, o.overrides), { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  proc.stderr!.on('data', (b: Buffer) => {
    log = (log + b.toString()).slice(-16_000);
  });
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      const gone = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGKILL');
      await gone;
    }
  };
  const client = KubeClient.fromKubeconfig(o.kubeconfig, { timeoutMs: 5_000 });
  try {
    const deadline = Date.now() + (o.timeoutMs ?? 90_000);
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`kube-apiserver exited ${proc.exitCode}: ${log}`);
      try {
        // JSON, unlike /readyz; and there once the server's own controllers have run
        await client.get('/api/v1/namespaces/kube-system');
        break;
      } catch (e) {
        if (Date.now() > deadline)
          throw new Error(`kube-apiserver not ready: ${(e as Error).message}\n${log}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  } catch (e) {
    await stop();
    throw e;
  } finally {
    client.close();
  }
  return { process: proc, log: () => log, stop };
}

/**
 * controlPlaneControllers make a control plane's API server from its config: the secrets, the static pod's
 * definition, and the files it reads, rendered under `root`.
 */
export function controlPlaneControllers(root: string): Controller[] {
  const dirs = staticPodDirsUnder(root);
  return [
    MachineTypeController,
    ...secretsControllers(),
    ControlPlaneAPIServerController,
    ControlPlaneSchedulerController,
    ControlPlaneAdmissionControlController,
    ControlPlaneAuditPolicyController,
    ControlPlaneAuthorizationController,
    renderSecretsStaticPodController({ secretsDir: dirs.secretsDir, owned: false }),
    renderConfigsStaticPodController({
      configDir: dirs.configDir,
      auditLogDir: dirs.auditLogDir,
      owned: false,
    }),
  ];
}

export interface RunningControlPlane {
  readonly etcd: RunningEtcd;
  /** etcd's CA and certificates, `admin` being Talos' own client */
  readonly etcdPKI: EtcdPKI;
  readonly apiServer: RunningAPIServer;
  /** the admin kubeconfig for the local endpoint (KubePrism's port, which the API server answers here) */
  readonly kubeconfig: string;
  stop(): Promise<void>;
}

/**
 * startControlPlane waits until controlPlaneControllers, running on `state` with a control plane's config
 * and the node's identity, have written the static pod's files under `root`, then runs etcd and the API
 * server on loopback from their certificates and the pod's arguments.
 */
export async function startControlPlane(state: State, root: string): Promise<RunningControlPlane> {
  // a fresh bound for each wait
  const wait = () => ({ signal: AbortSignal.timeout(90_000) });
  const ready = (r: { spec: { ready: boolean } }) => expect(r.spec.ready).toBe(true);
  await assertResource(state, SecretsStatus, STATIC_POD_SECRETS_STATIC_POD_ID, ready, wait());
  await assertResource(state, ConfigStatus, CONFIG_STATUS_STATIC_POD_ID, ready, wait());
  const apiConfig = await assertResource(state, APIServerConfig, APISERVER_ID, () => {}, wait());
  const certs = await assertResource(state, Etcd, ETCD_ID, () => {}, wait());
  const etcdRoot = await assertResource(state, EtcdRoot, ETCD_ROOT_ID, () => {}, wait());
  const kubeconfigs = await assertResource(state, Kubernetes, KUBERNETES_ID, () => {}, wait());

  const etcdCA = etcdRoot.spec.etcdCA!.crt;
  const etcdAdmin = certs.spec.etcdAdmin!;
  const etcdPKI = {
    ca: etcdCA,
    certs: certs.spec,
    admin: { ca: etcdCA, cert: etcdAdmin.crt, key: etcdAdmin.key },
  };
  const etcd = await startEtcd(etcdPKI);
  const kubeconfig = kubeconfigs.spec.localhostAdminKubeconfig;
  let apiServer: RunningAPIServer;
  try {
    apiServer = await startAPIServer({
      command: apiServerCommand(apiConfig.spec),
      root,
      overrides: {
        'etcd-servers': etcd.endpoint,
        'bind-address': '127.0.0.1',
        'advertise-address': '127.0.0.1',
      },
      kubeconfig,
    });
  } catch (e) {
    await etcd.stop();
    throw e;
  }
  return {
    etcd,
    etcdPKI,
    apiServer,
    kubeconfig,
    async stop() {
      await apiServer.stop();
      await etcd.stop();
    },
  };
}
