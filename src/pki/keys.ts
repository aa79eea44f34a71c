// Private keys: generation (Ed25519, ECDSA P-256, RSA-4096) and PEM in the forms Talos writes and reads.
// Generation is async throughout: RSA-4096 takes seconds and must run off the event loop.
import { createPrivateKey, generateKeyPair, type KeyObject } from 'node:crypto';
import { PKIError } from './errors.js';
import { decodePEM, encodePEM, PEMLabel } from './pem.js';

/** KeyType is a key Keel mints: the OS CA's Ed25519, the ECDSA P-256 of etcd/Kubernetes, RSA-4096 for SA. */
export type KeyType = 'ed25519' | 'ecdsa-p256' | 'rsa-4096';

/** KeyAlgorithm describes any key read back from a certificate or PEM (kubeadm CAs are often rsa-2048). */
export type KeyAlgorithm = 'ed25519' | `ecdsa-${string}` | `rsa-${number}`;

export interface KeyPair {
  readonly type: KeyType;
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
}

const abortIfAborted = (signal?: AbortSignal) => {
  if (signal?.aborted) throw signal.reason;
};

/** generateKey makes a fresh key on the libuv pool; an aborted signal discards the result. */
export async function generateKey(
  type: KeyType,
  { signal }: { signal?: AbortSignal } = {},
): Promise<KeyPair> {
  abortIfAborted(signal);
  const done =
    (resolve: (k: KeyPair) => void, reject: (e: unknown) => void) =>
    (err: Error | null, publicKey: KeyObject, privateKey: KeyObject) => {
      if (err)
        reject(new PKIError('unsupported-key', `generating ${type} key: ${err.message}`, { cause: err }));
      else resolve({ type, privateKey, publicKey });
    };
  const pair = await new Promise<KeyPair>((resolve, reject) => {
    switch (type) {
      case 'ed25519':
        generateKeyPair('ed25519', undefined, done(resolve, reject));
        return;
      case 'ecdsa-p256':
        generateKeyPair('ec', { namedCurve: 'P-256' }, done(resolve, reject));
        return;
      case 'rsa-4096':
        // same exponent as Go's rsa.GenerateKey
        generateKeyPair('rsa', { modulusLength: 4096, publicExponent: 0x10001 }, done(resolve, reject));
        return;
    }
  });
  abortIfAborted(signal);
  return pair;
}

const CURVES: Record<string, string> = { prime256v1: 'p256', secp384r1: 'p384', secp521r1: 'p521' };

/** keyAlgorithmOf names a public or private key, e.g. `ecdsa-p256` or `rsa-2048`. */
export function keyAlgorithmOf(key: KeyObject): KeyAlgorithm {
  const d = key.asymmetricKeyDetails;
  switch (key.asymmetricKeyType) {
    case 'ed25519':
      return 'ed25519';
    case 'ec':
      return `ecdsa-${CURVES[d?.namedCurve ?? ''] ?? d?.namedCurve ?? 'unknown'}`;
    case 'rsa':
      return `rsa-${d?.modulusLength ?? 0}`;
    default:
      throw new PKIError('unsupported-key', `unsupported key type ${key.asymmetricKeyType ?? key.type}`);
  }
}

/**
 * leafKeyTypeFor is the key a CA of this algorithm gives its leaves (siderolabs/crypto's NewKeyPair):
 * Ed25519 stays Ed25519, an ECDSA CA of any curve issues P-256, an RSA CA (kubeadm imports) RSA-4096.
 */
export const leafKeyTypeFor = (ca: KeyAlgorithm): KeyType =>
  ca === 'ed25519' ? 'ed25519' : ca.startsWith('ecdsa-') ? 'ecdsa-p256' : 'rsa-4096';

/** Ed25519 key label: `talos` is upstream's `ED25519 PRIVATE KEY`, `standard` is `PRIVATE KEY`. */
export type Ed25519Label = 'talos' | 'standard';

/**
 * encodePrivateKey writes a key the way siderolabs/crypto does, so bundles stay byte-compatible with
 * `talosctl gen secrets`: Ed25519 as PKCS#8 under `ED25519 PRIVATE KEY`, ECDSA as SEC 1 under
 * `EC PRIVATE KEY`, RSA as PKCS#1 under `RSA PRIVATE KEY`. Every talosctl and Talos release reads the
 * Ed25519 label (older ones read only it); pass `ed25519Label: 'standard'` for OpenSSL-based consumers.
 */
export function encodePrivateKey(
  key: KeyObject,
  { ed25519Label = 'talos' }: { ed25519Label?: Ed25519Label } = {},
): string {
  switch (key.asymmetricKeyType) {
    case 'ed25519':
      return encodePEM(
        ed25519Label === 'talos' ? PEMLabel.ed25519PrivateKey : PEMLabel.privateKey,
        key.export({ type: 'pkcs8', format: 'der' }),
      );
    case 'ec':
      return encodePEM(PEMLabel.ecPrivateKey, key.export({ type: 'sec1', format: 'der' }));
    case 'rsa':
      return encodePEM(PEMLabel.rsaPrivateKey, key.export({ type: 'pkcs1', format: 'der' }));
    default:
      throw new PKIError('unsupported-key', `cannot encode ${key.asymmetricKeyType ?? key.type} private key`);
  }
}

const KEY_LABELS = [
  PEMLabel.ed25519PrivateKey,
  PEMLabel.privateKey,
  PEMLabel.ecPrivateKey,
  PEMLabel.rsaPrivateKey,
];

/** decodePrivateKey reads any of the four labels upstream accepts; `what` names the input in errors. */
export function decodePrivateKey(pem: string, what = 'private key'): KeyObject {
  const { label, der } = decodePEM(pem, what, KEY_LABELS);
  let key: KeyObject;
  try {
    switch (label) {
      case PEMLabel.ecPrivateKey:
        key = createPrivateKey({ key: der, format: 'der', type: 'sec1' });
        break;
      case PEMLabel.rsaPrivateKey:
        key = createPrivateKey({ key: der, format: 'der', type: 'pkcs1' });
        break;
      default:
        key = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
    }
  } catch (cause) {
    throw new PKIError('invalid-key', `${what}: ${label} block does not decode`, { cause });
  }
  if (label === PEMLabel.ed25519PrivateKey && key.asymmetricKeyType !== 'ed25519')
    throw new PKIError('invalid-key', `${what}: ${label} block holds a ${key.asymmetricKeyType} key`);
  return key;
}
