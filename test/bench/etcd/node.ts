// One container-mode control-plane node for the etcd benchmark, as the cluster test runs them: machined as
// a process with `--components` holding the layer's binaries, a generated controlplane config, and
// clients for its machine API (admin) and its etcd (the `talos` client certificate of the config's etcd CA).
// It runs from the sources (through tsx, as `make container-node` does) or from a bundle, and dies with
// this process.
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { Client } from '@grpc/grpc-js';
import { etcdCerts } from '../../../controllers/secrets/etcd.js';
import { encode, generateConfigs, mintAdminCertificate, mintSecrets } from '../../../src/config/index.js';
import type { EtcdTLS } from '../../../src/etcd/index.js';
import { callUnary, mtls, type Reply, serviceClient } from '../../api/fixtures.js';
import { componentDir } from '../../etcd/fixtures.js';
import type { BundledEntry } from './bundle.js';
import { pidsMentioning } from './proc.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const API_PORT = 50_000;

/** the layer's binaries a control plane starts: etcd (etcdutl restores) and containerd with runc */
const LAYER: readonly [string, readonly string[]][] = [
  ['etcd', ['etcd', 'etcdutl']],
  ['containerd', ['containerd', 'containerd-shim-runc-v2', 'ctr']],
  ['runc', ['runc']],
];

export interface ServiceInfo {
  readonly id: string;
  readonly state: string;
  readonly health?: { readonly healthy?: boolean };
}

export interface ControlPlane {
  /** machined's pid (setpriv execs it: the spawned process itself) */
  readonly pid: number;
  /** what it printed */
  readonly lines: readonly string[];
  readonly api: Client;
  readonly etcdEndpoint: string;
  readonly etcdTLS: EtcdTLS;
  services(): Promise<ServiceInfo[]>;
  /** stop shuts the node down (SIGTERM, then SIGKILL), kills what it left and removes its files */
  stop(): Promise<void>;
}

/** running says whether a child has not exited yet. */
const running = (c: ChildProcess) => c.exitCode === null && c.signalCode === null;

/** waitForLine polls what the node printed for `re`; it fails early if the node exits. */
async function waitForLine(child: ChildProcess, lines: string[], re: RegExp, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!lines.some((l) => re.test(l))) {
    if (!running(child) || Date.now() > deadline)
      throw new Error(
        `node: no ${re} (${running(child) ? 'timed out' : 'exited'}):\n${lines.slice(-20).join('\n')}`,
      );
    await delay(50);
  }
}

/**
 * startControlPlane starts the node with `address` as its own (on a link of this thread's namespace),
 * from `bundled` when given, else from the sources.
 */
export async function startControlPlane(address: string, bundled?: BundledEntry): Promise<ControlPlane> {
  const work = mkdtempSync(join(tmpdir(), 'keel-bench-etcd-'));
  // etcd runs as its own user (60): it must reach its data directory and its binary, not root's cache
  chmodSync(work, 0o755);
  let child: ChildProcess | undefined;
  let api: Client | undefined;
  const stop = async () => {
    api?.close();
    if (child && running(child)) {
      const gone = new Promise((r) => child?.once('exit', r));
      const t = setTimeout(() => child?.kill('SIGKILL'), 20_000);
      child.kill('SIGTERM'); // machined stops its services first
      await gone;
      clearTimeout(t);
    }
    for (const pid of pidsMentioning(work))
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    rmSync(work, { recursive: true, force: true });
  };
  try {
    const bin = join(work, 'components/usr/bin');
    mkdirSync(bin, { recursive: true });
    for (const [c, files] of LAYER)
      for (const f of files) copyFileSync(join(componentDir(c), f), join(bin, f));
    const stateDir = join(work, 'node');
    mkdirSync(stateDir, { mode: 0o755 });

    const secrets = await mintSecrets();
    const config = join(work, 'controlplane.yaml');
    writeFileSync(
      config,
      encode(
        generateConfigs({ clusterName: 'keel-bench', endpoint: `https://${address}:6443`, secrets })
          .controlplane,
      ),
    );
    const pem = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');
    const admin = await mintAdminCertificate(secrets);
    const etcdCA = { crt: pem(secrets.certs.etcd.crt), key: pem(secrets.certs.etcd.key) };
    const { etcdAdmin } = await etcdCerts(
      { etcdCA },
      { hostname: 'bench', dnsNames: [], ipAddresses: [] },
      undefined,
      new Date(),
    );

    const entry = bundled
      ? [bundled.script]
      : ['--import', 'tsx', join(REPO, 'src/machined/container-entry.ts')];
    const args = [
      ...['--state-dir', stateDir, '--api-address', `127.0.0.1:${API_PORT}`, '--config', config],
      ...['--components', join(work, 'components'), '--hostname', 'keel-bench'],
    ];
    child = spawn('setpriv', ['--pdeathsig', 'KILL', process.execPath, ...entry, ...args], {
      cwd: REPO,
      env: { ...process.env, ...bundled?.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: string[] = [];
    createInterface({ input: child.stdout! }).on('line', (l) => lines.push(l));
    createInterface({ input: child.stderr! }).on('line', (l) => lines.push(`stderr: ${l}`));
    await waitForLine(child, lines, /api: serving with mutual TLS/, 120_000);
    api = serviceClient(
      'machine.MachineService',
      `127.0.0.1:${API_PORT}`,
      mtls(pem(secrets.certs.os.crt), { crt: pem(admin.crt), key: pem(admin.key) }),
    );
    const machine = api;
    return {
      pid: child.pid!,
      lines,
      api: machine,
      etcdEndpoint: `https://${address}:2379`,
      etcdTLS: { ca: etcdCA.crt, cert: etcdAdmin!.crt, key: etcdAdmin!.key },
      services: async () => {
        const r = await callUnary(machine, 'ServiceList', {});
        return ((r.messages as Reply[])[0]?.services ?? []) as ServiceInfo[];
      },
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}
