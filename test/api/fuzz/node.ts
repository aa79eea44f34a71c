// The fuzz's target: a container node as its own process, given a control-plane config and running, with
// an admin's and a reader's credentials, and its trustd (a control plane's) with the machine token.
// Shared by the test and the benchmark.
import { connect as tlsConnect } from 'node:tls';
import { credentials } from '@grpc/grpc-js';
import { encode } from '../../../src/config/index.js';
import { mintTalosAPIClientCertificate, Role } from '../../../src/pki/index.js';
import { testCluster } from '../../machined/node/cluster.js';
import { freePort, type NodeProcess, spawnNode, tempStateDir } from '../../machined/node/harness.js';
import { callUnary, mtls, serviceClient, tlsOnly } from '../fixtures.js';
import type { FuzzTarget } from './campaign.js';

const pem = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');

export interface FuzzNode extends FuzzTarget {
  readonly node: NodeProcess;
  /** stillServing is the node's Version, as os:reader, or a throw */
  stillServing(): Promise<void>;
}

/** fuzzNode spawns a container node, applies a generated control-plane config and waits until it runs. */
export async function fuzzNode(): Promise<FuzzNode> {
  const cluster = await testCluster('keel-fuzz', 'https://127.0.0.1:6443');
  const trustd = `127.0.0.1:${await freePort()}`;
  const node = await spawnNode(tempStateDir(), await freePort(), ['--trustd-address', trustd]);
  await node.waitForLine(/server certificate fingerprint: /);
  const config = encode(cluster.controlplane);
  const insecure = credentials.createSsl(null, null, null, {
    rejectUnauthorized: false,
    checkServerIdentity: () => undefined,
  });
  const maintenance = serviceClient('machine.MachineService', node.address, insecure);
  try {
    await callUnary(maintenance, 'ApplyConfiguration', { data: Buffer.from(config), mode: 'AUTO' });
  } finally {
    maintenance.close();
  }
  await node.waitForLine(/node running/);
  const ca = pem(cluster.bundle.certs.os.crt);
  await listening(trustd, ca);
  const os = { crt: ca, key: pem(cluster.bundle.certs.os.key) };
  const r = await mintTalosAPIClientCertificate(os, { roles: [Role.reader] });
  const reader = () => mtls(ca, r);
  return {
    node,
    address: node.address,
    admin: cluster.adminCreds(),
    reader: reader(),
    config,
    trustd: { address: trustd, creds: tlsOnly(ca), ca, token: cluster.bundle.trustdinfo.token },
    async stillServing() {
      const c = serviceClient('machine.MachineService', node.address, reader());
      try {
        await callUnary(c, 'Version', {});
      } finally {
        c.close();
      }
    },
  };
}

/** listening waits until trustd (started once the config is in) completes a TLS handshake with `ca` */
async function listening(address: string, ca: string): Promise<void> {
  const at = address.lastIndexOf(':');
  const opts = {
    host: address.slice(0, at),
    port: Number(address.slice(at + 1)),
    ca,
    servername: 'localhost',
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = tlsConnect({ ...opts, checkServerIdentity: () => undefined }, () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`trustd is not listening on ${address} after 60 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** the lines of the node's log that say it met an error it did not expect */
export const emergencies = (node: NodeProcess): string[] =>
  node.lines.filter((l) => /emergency:|uncaught|unhandled rejection/i.test(l));
