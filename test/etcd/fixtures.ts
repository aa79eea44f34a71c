// A real etcd for tests: the pinned binary (built once from its Go module and cached), mutual TLS from
// certificates minted by src/pki as the node's secrets controllers mint them, on free loopback ports.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { etcdCerts } from '../../controllers/secrets/etcd.js';
import type { EtcdCertsSpec } from '../../resources/secrets/index.js';
import { EtcdClient, type EtcdTLS } from '../../src/etcd/index.js';
import { newCertificateAuthority } from '../../src/pki/index.js';
import { freePort } from '../machined/node/harness.js';

let dir: string | undefined;
/** componentDir builds (once, then from the cache) and finds a pinned component's binaries. */
export function componentDir(name: string): string {
  if (name === 'etcd' && dir) return dir;
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/components.ts', name], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
  if (name === 'etcd') dir = out;
  return out;
}

export interface EtcdPKI {
  readonly ca: string;
  readonly certs: EtcdCertsSpec;
  /** the `talos` client: what machined uses */
  readonly admin: EtcdTLS;
}

/** etcdPKI mints an etcd CA and the four certificates for a node named `name` with these addresses. */
export async function etcdPKI(name: string, ips: readonly string[]): Promise<EtcdPKI> {
  const ca = await newCertificateAuthority({ keyType: 'ecdsa-p256', organizations: ['etcd'] });
  const certs = await etcdCerts(
    { etcdCA: ca },
    { hostname: name, dnsNames: [name], ipAddresses: [...ips] },
    undefined,
    new Date(),
  );
  return { ca: ca.crt, certs, admin: { ca: ca.crt, cert: certs.etcdAdmin!.crt, key: certs.etcdAdmin!.key } };
}

export interface RunningEtcd {
  readonly endpoint: string;
  readonly process: ChildProcess;
  client(): EtcdClient;
  stop(): Promise<void>;
}

/** startEtcd runs a single-member etcd with TLS on free loopback ports and waits until it answers. */
export async function startEtcd(pki: EtcdPKI): Promise<RunningEtcd> {
  const work = mkdtempSync(join(tmpdir(), 'keel-etcd-'));
  const file = (n: string, content: string) => {
    writeFileSync(join(work, n), content, { mode: 0o600 });
    return join(work, n);
  };
  const [client, peer] = [await freePort(), await freePort()];
  const c = pki.certs;
  const args = [
    '--name=node',
    `--data-dir=${join(work, 'data')}`,
    `--listen-client-urls=https://127.0.0.1:${client}`,
    `--advertise-client-urls=https://127.0.0.1:${client}`,
    `--listen-peer-urls=https://127.0.0.1:${peer}`,
    `--initial-advertise-peer-urls=https://127.0.0.1:${peer}`,
    `--initial-cluster=node=https://127.0.0.1:${peer}`,
    '--initial-cluster-state=new',
    '--client-cert-auth=true',
    `--trusted-ca-file=${file('ca.crt', pki.ca)}`,
    `--cert-file=${file('server.crt', c.etcd!.crt)}`,
    `--key-file=${file('server.key', c.etcd!.key)}`,
    '--peer-client-cert-auth=true',
    `--peer-trusted-ca-file=${join(work, 'ca.crt')}`,
    `--peer-cert-file=${file('peer.crt', c.etcdPeer!.crt)}`,
    `--peer-key-file=${file('peer.key', c.etcdPeer!.key)}`,
  ];
  const proc = spawn(join(componentDir('etcd'), 'etcd'), args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  proc.stderr!.on('data', (b: Buffer) => {
    log = (log + b.toString()).slice(-8000);
  });
  const endpoint = `https://127.0.0.1:${client}`;
  const clients: EtcdClient[] = [];
  const stop = async () => {
    for (const x of clients) x.close();
    if (proc.exitCode === null && proc.signalCode === null) {
      const gone = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGKILL');
      await gone;
    }
    rmSync(work, { recursive: true, force: true });
  };
  const newClient = () => {
    const x = new EtcdClient({ endpoints: [endpoint], tls: pki.admin, timeoutMs: 5_000 });
    clients.push(x);
    return x;
  };
  try {
    const probe = newClient();
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`etcd exited: ${log}`);
      try {
        await probe.status();
        break;
      } catch (e) {
        if (Date.now() > deadline) throw new Error(`etcd did not answer: ${(e as Error).message}\n${log}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } catch (e) {
    await stop();
    throw e;
  }
  return { endpoint, process: proc, client: newClient, stop };
}
