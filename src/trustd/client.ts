// requestCertificate: a worker's side of trustd (upstream's gen.RemoteGenerator). It sends a CSR with
// the machine token to the control plane endpoints, trusting only the accepted OS CAs, and asks again
// at a calm pace until one of them signs it or the caller gives up.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, credentials, type ServiceError, status } from '@grpc/grpc-js';
import { checkNamed, serverNameOptions } from '../pki/server-name.js';
import { joinHostPort, splitHostPort, TRUSTD_PORT, withPort } from './endpoints.js';
import { TrustdError } from './errors.js';
import { DEFAULT_RETRY, type RetrySettings, retryDelayMs } from './retry.js';
import {
  CERTIFICATE_METHOD,
  type CertificateResponseMessage,
  decodeCertificateResponse,
  encodeCertificateRequest,
} from './schema.js';
import { tokenMetadata } from './token.js';

export interface CertificateRequestOptions {
  /** control plane endpoints, `host` or `host:port`; names are resolved to their addresses at each try */
  readonly endpoints: readonly string[];
  /** the port of an endpoint that names none; default TRUSTD_PORT */
  readonly port?: number;
  /** the machine token (`machine.token`) */
  readonly token: string;
  /** PEM of the CAs trustd's certificate must chain to: the node's accepted OS CAs */
  readonly acceptedCAs: string;
  /** the PEM certificate signing request */
  readonly csr: string;
  readonly signal?: AbortSignal;
  /** one call's deadline; default 10 s, as upstream's attempt timeout */
  readonly attemptTimeoutMs?: number;
  readonly retry?: RetrySettings;
  /** told of each failed round (every endpoint tried) and the wait before the next */
  readonly onRetry?: (error: TrustdError, retryInMs: number) => void;
}

/** IssuedCertificate: trustd's answer as PEM text. */
export interface IssuedCertificate {
  /** the accepted CAs, concatenated */
  readonly ca: string;
  readonly crt: string;
}

/** CertificateRequester is requestCertificate's shape, for callers that take another in tests. */
export type CertificateRequester = (opts: CertificateRequestOptions) => Promise<IssuedCertificate>;

/** requestCertificate resolves with the first signed certificate; it rejects only when `signal` aborts. */
export async function requestCertificate(opts: CertificateRequestOptions): Promise<IssuedCertificate> {
  if (opts.endpoints.length === 0)
    throw new TrustdError('no-endpoints', 'trustd: at least one root of trust endpoint is required');
  const endpoints = withPort(opts.endpoints, opts.port ?? TRUSTD_PORT);
  const signal = opts.signal ?? new AbortController().signal;
  for (let attempt = 0; ; attempt++) {
    signal.throwIfAborted();
    let last: TrustdError | undefined;
    for (const target of shuffle(await resolveTargets(endpoints, signal))) {
      signal.throwIfAborted();
      try {
        return await callOnce(target, opts, signal);
      } catch (e) {
        signal.throwIfAborted();
        last = e as TrustdError;
      }
    }
    last ??= new TrustdError(
      'call-failed',
      `trustd: no address for ${endpoints.join(', ')}`,
      status.UNAVAILABLE,
    );
    const wait = retryDelayMs(attempt, opts.retry ?? DEFAULT_RETRY);
    opts.onRetry?.(last, wait);
    await sleep(wait, undefined, { signal }).catch(() => signal.throwIfAborted());
  }
}

/**
 * resolveTargets turns names into their addresses, as upstream's static endpoint controller does before
 * its resolver dials: the server certificate is then checked against the address, which trustd's
 * certificate names, rather than against a load balancer's name, which it may not. A name that does not
 * resolve now is left out of this round.
 */
async function resolveTargets(endpoints: readonly string[], signal: AbortSignal): Promise<string[]> {
  const out: string[] = [];
  for (const e of endpoints) {
    signal.throwIfAborted();
    const { host, port = TRUSTD_PORT } = splitHostPort(e);
    if (isIP(host)) {
      out.push(e);
      continue;
    }
    const found = await lookup(host, { all: true }).catch(() => []);
    for (const a of found) out.push(joinHostPort(a.address, port));
  }
  return [...new Set(out)];
}

/** shuffle spreads workers over the control planes, as upstream's round-robin resolver shuffles. */
function shuffle<T>(xs: T[]): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
}

/** callOnce makes one Certificate call to `target` over server-only TLS. */
async function callOnce(
  target: string,
  opts: CertificateRequestOptions,
  signal: AbortSignal,
): Promise<IssuedCertificate> {
  // no client certificate: a worker has none yet, and trustd asks for none (the token authenticates)
  const creds = credentials.createSsl(Buffer.from(opts.acceptedCAs), null, null, {
    checkServerIdentity: checkNamed,
  });
  const client = new Client(target, creds, serverNameOptions(target));
  try {
    const res = await new Promise<CertificateResponseMessage>((resolve, reject) => {
      const call = client.makeUnaryRequest(
        CERTIFICATE_METHOD,
        encodeCertificateRequest,
        decodeCertificateResponse,
        opts.csr,
        tokenMetadata(opts.token),
        { deadline: Date.now() + (opts.attemptTimeoutMs ?? 10_000) },
        (err, r) => {
          signal.removeEventListener('abort', cancel);
          if (err) reject(err);
          else resolve(r!);
        },
      );
      const cancel = () => call.cancel();
      signal.addEventListener('abort', cancel, { once: true });
    });
    if (res.crt.length === 0)
      throw new TrustdError('bad-response', `trustd at ${target}: no certificate in the reply`);
    return { ca: res.ca.toString('utf8'), crt: res.crt.toString('utf8') };
  } catch (e) {
    if (e instanceof TrustdError) throw e;
    const se = e as Partial<ServiceError>;
    const code = typeof se.code === 'number' ? se.code : status.UNKNOWN;
    throw new TrustdError('call-failed', `trustd at ${target}: ${se.details || (e as Error).message}`, code, {
      cause: e,
    });
  } finally {
    client.close();
  }
}
