// A generated cluster for node tests: the secrets bundle, the controlplane config for an endpoint, and
// admin credentials signed by the bundle's OS CA — what `keelctl gen config` would hand a user.
import type { ChannelCredentials } from '@grpc/grpc-js';
import {
  type Config,
  generateConfigs,
  mintAdminCertificate,
  mintSecrets,
  type SecretsBundle,
} from '../../../src/config/index.js';
import { mtls } from '../../api/fixtures.js';

export interface TestCluster {
  readonly bundle: SecretsBundle;
  readonly controlplane: Config;
  /** the admin client certificate and key, PEM */
  readonly admin: { readonly crt: string; readonly key: string };
  /** mutual TLS as the admin, trusting the OS CA */
  adminCreds(): ChannelCredentials;
}

const pem = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');

export async function testCluster(clusterName: string, endpoint: string): Promise<TestCluster> {
  const bundle = await mintSecrets();
  const { controlplane } = generateConfigs({ clusterName, endpoint, secrets: bundle });
  const a = await mintAdminCertificate(bundle);
  const admin = { crt: pem(a.crt), key: pem(a.key) };
  return { bundle, controlplane, admin, adminCreds: () => mtls(pem(bundle.certs.os.crt), admin) };
}
