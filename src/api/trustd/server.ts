// startTrustdServer: trustd on a control plane — securityapi.SecurityService/Certificate on TCP 50001,
// server-only TLS with trustd's certificate (rotatable in place), every call authenticated by the machine
// token in its metadata before the CSR is looked at.
import { Server, type ServerUnaryCall, type sendUnaryData } from '@grpc/grpc-js';
import type { CertificateAndKey } from '../../pki/index.js';
import { checkToken } from '../../trustd/token.js';
import { ApiError, toServerError } from '../errors.js';
import { loadApiProto, serviceOf } from '../proto.js';
import { bindTarget } from '../server.js';
import { serverOnlyTLSCredentials } from '../tls/credentials.js';
import { signWorkerCSR, type TrustdRoot } from './certificate.js';

/** The default listen address: every interface, trustd's port (upstream's constants.TrustdPort). */
export const DEFAULT_TRUSTD_ADDRESS = '0.0.0.0:50001';

const METHOD = '/securityapi.SecurityService/Certificate';

export interface StartTrustdServerOptions {
  /** `host:port`; default 0.0.0.0:50001 */
  readonly address?: string;
  /** trustd's serving certificate, signed by the OS CA (TrustdCertificates.server) */
  readonly server: CertificateAndKey;
  /**
   * the OS root as it is now, read at every call as upstream reads OSRootSecrets: a changed token or CA
   * takes effect with no restart
   */
  readonly root: () => Promise<TrustdRoot>;
  /** one line per signed request and per refusal */
  readonly log?: (line: string) => void;
  readonly protoDir?: string;
}

export interface TrustdServer {
  /** `host:port` actually bound */
  readonly address: string;
  readonly port: number;
  /** rotate serves a re-issued certificate to new handshakes */
  rotate(server: CertificateAndKey): void;
  /** close drains the calls in flight; those still running when `signal` aborts are cut */
  close(opts?: { readonly signal?: AbortSignal }): Promise<void>;
}

interface CertificateRequest {
  readonly csr?: Buffer;
}

export async function startTrustdServer(opts: StartTrustdServerOptions): Promise<TrustdServer> {
  const log = opts.log ?? (() => {});
  const service = serviceOf(
    loadApiProto(opts.protoDir ? { protoDir: opts.protoDir } : {}),
    'securityapi.SecurityService',
  );
  const tls = serverOnlyTLSCredentials(opts.server);

  const certificate = async (call: ServerUnaryCall<CertificateRequest, object>) => {
    let root: TrustdRoot;
    try {
      root = await opts.root();
    } catch (cause) {
      throw new ApiError('unavailable', `trustd: no OS root secrets yet: ${(cause as Error).message}`, {
        cause,
      });
    }
    // the token first, as upstream's interceptor does: an unauthenticated caller learns nothing of the CSR
    const token = checkToken(call.metadata, root.token);
    if (token !== 'ok') {
      log(`refused a CSR signing request from ${call.getPeer()}: ${token} token`);
      throw new ApiError('unauthenticated', `${token} token`);
    }
    const signed = signWorkerCSR(root, call.request.csr?.toString('utf8') ?? '');
    const { subject, dnsNames, ipAddresses } = signed.request;
    log(
      `signed a CSR from ${call.getPeer()}: subject CN=${subject.commonName ?? ''} dns names [${dnsNames.join(' ')}] addresses [${ipAddresses.join(' ')}]`,
    );
    if (subject.organizations.length)
      log(`removed the client auth organization from the CSR: [${subject.organizations.join(' ')}]`);
    return { ca: Buffer.from(signed.ca), crt: Buffer.from(signed.crt) };
  };

  const server = new Server({ 'grpc.enable_channelz': 0 });
  server.addService(service, {
    Certificate: (call: ServerUnaryCall<CertificateRequest, object>, callback: sendUnaryData<object>) => {
      certificate(call).then(
        (reply) => callback(null, reply),
        (e: unknown) => callback(toServerError(e, METHOD)),
      );
    },
  });
  const bindAddress = opts.address ?? DEFAULT_TRUSTD_ADDRESS;
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(bindTarget(bindAddress), tls.credentials, (err, p) => (err ? reject(err) : resolve(p))),
  ).catch((cause: unknown) => {
    server.forceShutdown();
    const why = cause instanceof Error ? cause.message : String(cause);
    throw new ApiError('unavailable', `trustd: cannot listen on ${bindAddress}: ${why}`, { cause });
  });

  let closed: Promise<void> | undefined;
  return {
    address: `${bindAddress.slice(0, bindAddress.lastIndexOf(':'))}:${port}`,
    port,
    rotate: (next) => tls.rotate({ server: next }),
    close({ signal } = {}) {
      closed ??= new Promise<void>((resolve) => {
        const force = () => {
          server.forceShutdown();
          resolve();
        };
        if (signal?.aborted) return force();
        signal?.addEventListener('abort', force, { once: true });
        server.tryShutdown(() => {
          signal?.removeEventListener('abort', force);
          resolve();
        });
      });
      return closed;
    },
  };
}
