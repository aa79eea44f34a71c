// Mints a new secrets bundle and the talosconfig admin certificate through src/pki.
// The only impure part of generation: randomness and key generation.
import { mintSecretsBundle, mintTalosAPIClientCertificate, newSecret, newToken } from '../../pki/index.js';
import type { BundleCertAndKey, SecretsBundle } from './bundle.js';

const b64 = (pem: string): string => Buffer.from(pem, 'utf8').toString('base64');
const pem = (b: string): string => Buffer.from(b, 'base64').toString('utf8');
const pair = (c: { crt: string; key: string }): BundleCertAndKey => ({ crt: b64(c.crt), key: b64(c.key) });

export interface MintOptions {
  readonly now?: Date;
  readonly signal?: AbortSignal;
}

/** mintSecrets makes a bundle like `talosctl gen secrets`: random ids and tokens, four CAs, an RSA-4096 SA key. */
export async function mintSecrets(opts: MintOptions = {}): Promise<SecretsBundle> {
  const { certs } = await mintSecretsBundle({
    ...(opts.now ? { now: opts.now } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  return {
    cluster: { id: newSecret(32), secret: newSecret(32) },
    secrets: { bootstraptoken: newToken(), secretboxencryptionsecret: newSecret(32) },
    trustdinfo: { token: newToken() },
    certs: {
      etcd: pair(certs.etcd),
      k8s: pair(certs.k8s),
      k8saggregator: pair(certs.k8sAggregator),
      k8sserviceaccount: { key: b64(certs.k8sServiceAccount.key) },
      os: pair(certs.os),
    },
  };
}

/** mintAdminCertificate issues the `os:admin` client certificate for talosconfig from the bundle's OS CA. */
export async function mintAdminCertificate(
  bundle: SecretsBundle,
  opts: MintOptions = {},
): Promise<BundleCertAndKey> {
  const os = { crt: pem(bundle.certs.os.crt), key: pem(bundle.certs.os.key) };
  const cert = await mintTalosAPIClientCertificate(os, {
    ...(opts.now ? { now: opts.now } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  return pair(cert);
}
