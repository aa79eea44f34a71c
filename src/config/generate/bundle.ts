// The secrets bundle (`gen secrets` output) in talosctl's YAML layout: lower-case Go field names,
// every certificate and key as base64 of PEM.
import { createPrivateKey } from 'node:crypto';
import { decodeSingle } from '../decoder/single.js';
import { lineOf } from '../document.js';
import { ordered } from '../encoder.js';
import { ConfigError, ConfigErrors } from '../errors.js';
import { certAndKey, keyOnly } from '../types/common.js';
import { str, struct } from '../types/schema.js';
import { isBase64Key32, isCertificate, isPrivateKey, isToken, pemLabel } from '../validate/formats.js';
import { emitDocument } from '../yaml-emit.js';

export interface BundleCertAndKey {
  crt: string;
  key: string;
}
export interface SecretsBundle {
  cluster: { id: string; secret: string };
  secrets: { bootstraptoken: string; aescbcencryptionsecret?: string; secretboxencryptionsecret?: string };
  trustdinfo: { token: string };
  certs: {
    etcd: BundleCertAndKey;
    k8s: BundleCertAndKey;
    k8saggregator: BundleCertAndKey;
    k8sserviceaccount: { key: string };
    os: BundleCertAndKey;
  };
}

export const bundleSchema = struct({
  cluster: struct({ id: str, secret: str }),
  secrets: struct({ bootstraptoken: str, aescbcencryptionsecret: str, secretboxencryptionsecret: str }),
  trustdinfo: struct({ token: str }),
  certs: struct({
    etcd: certAndKey,
    k8s: certAndKey,
    k8saggregator: certAndKey,
    k8sserviceaccount: keyOnly,
    os: certAndKey,
  }),
});

const DOC = 'secrets';
const ED25519_LABEL = 'ED25519 PRIVATE KEY';

/** decodeSecretsBundle reads and checks a bundle; an Ed25519 OS key under either PEM label is accepted. */
export function decodeSecretsBundle(source: string): SecretsBundle {
  const { value, lines } = decodeSingle(source, bundleSchema, DOC);
  const b = value as Partial<SecretsBundle>;
  const errors: ConfigError[] = [];
  const need = (path: string, v: string | undefined, ok: (s: string) => boolean, what: string) => {
    if (!v) errors.push(new ConfigError('invalid', DOC, path, lineOf(lines, path), `${path} is required`));
    else if (!ok(v)) errors.push(new ConfigError('invalid', DOC, path, lineOf(lines, path), what));
  };
  need('cluster.id', b.cluster?.id, isBase64Key32, 'must be base64 of 32 bytes');
  need('cluster.secret', b.cluster?.secret, isBase64Key32, 'must be base64 of 32 bytes');
  need(
    'secrets.bootstraptoken',
    b.secrets?.bootstraptoken,
    isToken,
    'invalid token: expected [a-z0-9]{6}.[a-z0-9]{16}',
  );
  const box = b.secrets?.secretboxencryptionsecret ?? b.secrets?.aescbcencryptionsecret;
  need('secrets.secretboxencryptionsecret', box, isBase64Key32, 'must be base64 of 32 bytes');
  need('trustdinfo.token', b.trustdinfo?.token, isToken, 'invalid token: expected [a-z0-9]{6}.[a-z0-9]{16}');
  for (const ca of ['etcd', 'k8s', 'k8saggregator', 'os'] as const) {
    need(`certs.${ca}.crt`, b.certs?.[ca]?.crt, isCertificate, 'not a base64 PEM certificate');
    need(`certs.${ca}.key`, b.certs?.[ca]?.key, isPrivateKey, 'not a base64 PEM private key');
  }
  need(
    'certs.k8sserviceaccount.key',
    b.certs?.k8sserviceaccount?.key,
    isPrivateKey,
    'not a base64 PEM private key',
  );
  if (errors.length > 0) throw new ConfigErrors(errors);
  const bundle = b as SecretsBundle;
  return {
    ...bundle,
    certs: { ...bundle.certs, os: { ...bundle.certs.os, key: talosEd25519Label(bundle.certs.os.key) } },
  };
}

export const encodeSecretsBundle = (b: SecretsBundle): string =>
  emitDocument(ordered(b, bundleSchema) as Record<string, unknown>);

/**
 * talosEd25519Label rewrites a PKCS#8 Ed25519 key written as `PRIVATE KEY` (OpenSSL's label) to
 * `ED25519 PRIVATE KEY`, the label talosctl writes; other keys are returned unchanged. Input and output are base64.
 */
export function talosEd25519Label(b64: string): string {
  if (pemLabel(b64) !== 'PRIVATE KEY') return b64;
  const pem = Buffer.from(b64, 'base64').toString('utf8');
  if (createPrivateKey(pem).asymmetricKeyType !== 'ed25519') return b64;
  return Buffer.from(
    pem
      .replaceAll('-----BEGIN PRIVATE KEY-----', `-----BEGIN ${ED25519_LABEL}-----`)
      .replaceAll('-----END PRIVATE KEY-----', `-----END ${ED25519_LABEL}-----`),
  ).toString('base64');
}
