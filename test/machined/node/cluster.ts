// A generated cluster for node tests: the secrets bundle, the controlplane config for an endpoint, and
// admin credentials signed by the bundle's OS CA — what `keelctl gen config` would hand a user, but for
// KubePrism's port: a free one, as a container node listens on its host's network (the fixed 7445 would
// have two tests' nodes contend for it; a VM does not mind).
import type { ChannelCredentials } from '@grpc/grpc-js';
import { freePort } from '../../../scripts/lib/free-port.js';
import {
  type Config,
  generateConfigs,
  mintAdminCertificate,
  mintSecrets,
  type SecretsBundle,
} from '../../../src/config/index.js';
import { applyPatches, loadPatch } from '../../../src/config/patch/index.js';
import { mtls } from '../../api/fixtures.js';

export interface TestCluster {
  readonly bundle: SecretsBundle;
  readonly controlplane: Config;
  /** the worker config of the same cluster */
  readonly worker: Config;
  /** the admin client certificate and key, PEM */
  readonly admin: { readonly crt: string; readonly key: string };
  /** mutual TLS as the admin, trusting the OS CA */
  adminCreds(): ChannelCredentials;
}

const pem = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');

export async function testCluster(clusterName: string, endpoint: string): Promise<TestCluster> {
  const bundle = await mintSecrets();
  const generated = generateConfigs({ clusterName, endpoint, secrets: bundle });
  const prism = { machine: { features: { kubePrism: { port: await freePort() } } } };
  const controlplane = applyPatches(generated.controlplane, [loadPatch(JSON.stringify(prism))]);
  const worker = applyPatches(generated.worker, [loadPatch(JSON.stringify(prism))]);
  const a = await mintAdminCertificate(bundle);
  const admin = { crt: pem(a.crt), key: pem(a.key) };
  return { bundle, controlplane, worker, admin, adminCreds: () => mtls(pem(bundle.certs.os.crt), admin) };
}
