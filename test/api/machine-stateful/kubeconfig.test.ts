// MachineService.Kubeconfig through a real normal-mode API server (mutual TLS): a control plane answers one
// Data holding a tar.gz of `kubeconfig`; a worker and a node without a config answer upstream's refusal.
import { X509Certificate } from 'node:crypto';
import { type Client, status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { kubeconfigHandler } from '../../../src/api/machine-stateful/index.js';
import { type ApiServer, startApiServer } from '../../../src/api/server.js';
import { fileFromTarGz } from '../../../src/cli/archive/index.js';
import { type Config, generateConfigs, mintSecrets, v1alpha1Of } from '../../../src/config/index.js';
import { callStream, errorOf, mintPKI, mtls, nodeState, serviceClient, type TestPKI } from '../fixtures.js';

let pki: TestPKI;
let server: ApiServer;
let admin: Client;
let reader: Client;
let controlplane: Config;
let worker: Config;
let active: Config | undefined;

beforeAll(async () => {
  pki = await mintPKI();
  const secrets = await mintSecrets();
  ({ controlplane, worker } = generateConfigs({
    clusterName: 'demo',
    endpoint: 'https://10.5.0.2:6443',
    secrets,
  }));
  server = await startApiServer({
    address: '127.0.0.1:0',
    mode: 'normal',
    state: await nodeState(),
    identity: { ca: pki.osCA.crt, server: pki.server },
    handlers: { '/machine.MachineService/Kubeconfig': kubeconfigHandler({ active: () => active }) },
  });
  admin = serviceClient('machine.MachineService', server.address, mtls(pki.osCA.crt, pki.admin));
  reader = serviceClient('machine.MachineService', server.address, mtls(pki.osCA.crt, pki.reader));
});

afterAll(async () => {
  for (const c of [admin, reader]) c?.close();
  await server?.close({ signal: AbortSignal.timeout(5_000) });
});

describe('MachineService.Kubeconfig', () => {
  it('sends one Data: a tar.gz whose kubeconfig names the endpoint and holds an admin certificate from the cluster CA', async () => {
    active = controlplane;
    const chunks = await callStream(admin, 'Kubeconfig', {});
    expect(chunks).toHaveLength(1);
    const doc = parse(fileFromTarGz(chunks[0]!.bytes as Buffer, 'kubeconfig').toString('utf8'));
    expect(doc.clusters[0].cluster.server).toBe('https://10.5.0.2:6443');
    expect(doc['current-context']).toBe('admin@demo');
    const crt = new X509Certificate(Buffer.from(doc.users[0].user['client-certificate-data'], 'base64'));
    const ca = new X509Certificate(Buffer.from(v1alpha1Of(controlplane)!.cluster!.ca!.crt!, 'base64'));
    expect(crt.verify(ca.publicKey)).toBe(true);
    expect(crt.subject).toBe('O=system:masters\nCN=admin');
  });

  it('mints a new certificate on every call, as upstream', async () => {
    active = controlplane;
    const certOf = async () => {
      const [data] = await callStream(admin, 'Kubeconfig', {});
      return parse(fileFromTarGz(data!.bytes as Buffer, 'kubeconfig').toString()).users[0].user;
    };
    expect(await certOf()).not.toEqual(await certOf());
  });

  it.each([
    ['a worker', () => worker],
    ['a node without a config', () => undefined],
  ])('refuses on %s: UNIMPLEMENTED, only on control plane nodes', async (_what, cfg) => {
    active = cfg();
    const err = await errorOf(callStream(admin, 'Kubeconfig', {}));
    expect(err.code).toBe(status.UNIMPLEMENTED);
    expect(err.details).toBe('kubeconfig is only available on control plane nodes');
  });

  it('is for admins only', async () => {
    active = controlplane;
    const err = await errorOf(callStream(reader, 'Kubeconfig', {}));
    expect(err.code).toBe(status.PERMISSION_DENIED);
  });
});
