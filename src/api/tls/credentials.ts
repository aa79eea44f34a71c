// Server credentials for the API: mutual TLS against the OS CA (normal) or server-only TLS (maintenance),
// both rotatable in place.
import { experimental, type ServerCredentials } from '@grpc/grpc-js';
import { type CertificateAndKey, checkKeyPair, parseCertificate, standardKeyLabel } from '../../pki/index.js';
import { ApiError } from '../errors.js';
import { memoryCertificateProvider } from './provider.js';

/** ApiIdentity is what a configured node serves with: the accepted client CA(s) and its API certificate. */
export interface ApiIdentity {
  /** PEM of the CA(s) client certificates must chain to (the OS CA) */
  readonly ca: string;
  /** the API server certificate (signed by the OS CA) and its key */
  readonly server: CertificateAndKey;
}

export interface RotatableCredentials {
  readonly credentials: ServerCredentials;
  /** rotate swaps the served pair (and, in normal mode, the accepted CAs) for new handshakes. */
  rotate(next: { readonly server: CertificateAndKey; readonly ca?: string }): void;
}

/**
 * checkServerPair fails early, naming what is wrong, instead of letting the TLS layer drop connections.
 * A pair `minted` in this process is only relabelled: comparing it means parsing both halves again.
 */
function checkServerPair(pair: CertificateAndKey, minted = false): CertificateAndKey {
  const key = standardKeyLabel(pair.key); // OpenSSL refuses Talos' `ED25519 PRIVATE KEY` label
  if (minted) return { crt: pair.crt, key };
  try {
    checkKeyPair({ crt: pair.crt, key }, 'api server certificate');
  } catch (cause) {
    throw new ApiError('invalid-argument', `api server certificate: ${(cause as Error).message}`, { cause });
  }
  return { crt: pair.crt, key };
}

function checkCa(ca: string): string {
  try {
    const info = parseCertificate(ca, 'api client CA');
    if (!info.isCA) throw new Error('not a CA certificate');
  } catch (cause) {
    throw new ApiError('invalid-argument', `api client CA: ${(cause as Error).message}`, { cause });
  }
  return ca;
}

/**
 * primed gives the credentials a watcher of their own. grpc-js subscribes credentials to their provider
 * only when a watcher is added, and a server adds its watcher after making its TLS server from whatever
 * options the credentials already hold: without this, none, so every bind built a TLS context with no
 * certificate and then, once the provider answered, the real one. With it, the provider answers first
 * (before the bind, a microtask later) and the server's TLS context is made once, with the certificate.
 */
function primed(credentials: ServerCredentials): ServerCredentials {
  credentials._addWatcher(() => {});
  return credentials;
}

/** mutualTLSCredentials requires and verifies a client certificate chained to `identity.ca`. */
export function mutualTLSCredentials(identity: ApiIdentity): RotatableCredentials {
  const provider = memoryCertificateProvider();
  const server = checkServerPair(identity.server);
  provider.setCa(checkCa(identity.ca));
  provider.setIdentity(server.crt, server.key);
  // grpc-js' parameter names are swapped: the first provider is the identity, the second the CA.
  const credentials = primed(
    experimental.createCertificateProviderServerCredentials(provider, provider, true),
  );
  return {
    credentials,
    rotate(next) {
      const pair = checkServerPair(next.server);
      if (next.ca !== undefined) provider.setCa(checkCa(next.ca));
      provider.setIdentity(pair.crt, pair.key);
    },
  };
}

/**
 * serverOnlyTLSCredentials asks no client certificate: maintenance mode, where everyone is a reader.
 * `minted`: the pair was just made in this process (the throw-away identity), so it is not checked.
 */
export function serverOnlyTLSCredentials(
  server: CertificateAndKey,
  opts: { readonly minted?: boolean } = {},
): RotatableCredentials {
  const provider = memoryCertificateProvider();
  const pair = checkServerPair(server, opts.minted);
  provider.setIdentity(pair.crt, pair.key);
  const credentials = primed(experimental.createCertificateProviderServerCredentials(provider, null, false));
  return {
    credentials,
    rotate(next) {
      const p = checkServerPair(next.server);
      provider.setIdentity(p.crt, p.key);
    },
  };
}
