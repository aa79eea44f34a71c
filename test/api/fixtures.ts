// Shared fixtures for the API tests: a real OS CA and certificates, a node state with meta resources, and
// clients built only from the checked-in protos.

import {
  type ChannelCredentials,
  type Client,
  credentials,
  loadPackageDefinition,
  Metadata,
  type ServiceError,
} from '@grpc/grpc-js';
import { loadApiProto } from '../../src/api/proto.js';
import { registerDefault, registerNamespace, registerResource } from '../../src/cosi/resource/meta/index.js';
import { defineResource } from '../../src/cosi/resource/typed.js';
import type { CoreState } from '../../src/cosi/state/core.js';
import { newInmemState } from '../../src/cosi/state/inmem/index.js';
import { wrapCore } from '../../src/cosi/state/wrap.js';
import {
  type CertificateAndKey,
  issueCertificate,
  mintTalosAPIClientCertificate,
  newCertificateAuthority,
  profiles,
  Role,
  standardKeyLabel,
} from '../../src/pki/index.js';
import { checkNamed, serverNameOptions } from '../../src/pki/server-name.js';

export interface TestPKI {
  readonly osCA: CertificateAndKey;
  /** the API server certificate for 127.0.0.1 */
  readonly server: CertificateAndKey;
  readonly admin: CertificateAndKey;
  readonly operator: CertificateAndKey;
  readonly reader: CertificateAndKey;
  /** the node's own proxy certificate (os:impersonator) */
  readonly impersonator: CertificateAndKey;
  /** an admin certificate from a CA the node does not trust */
  readonly foreignAdmin: CertificateAndKey;
  /** signed by the OS CA with O=os:admin but EKU serverAuth only */
  readonly serverAuthOnly: CertificateAndKey;
  /** signed by the OS CA with O=os:admin and EKU serverAuth+clientAuth: TLS accepts it, apid does not */
  readonly dualUsage: CertificateAndKey;
}

/** mintPKI makes everything the tests present; Ed25519 throughout, as upstream's defaults. */
export async function mintPKI(): Promise<TestPKI> {
  const osCA = await newCertificateAuthority({ organizations: ['talos'] });
  const foreignCA = await newCertificateAuthority({ organizations: ['elsewhere'] });
  const server = await issueCertificate(
    osCA,
    profiles.apidServer({ dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] }, 'node.test'),
  );
  const [admin, operator, reader, foreignAdmin] = await Promise.all([
    mintTalosAPIClientCertificate(osCA, { roles: [Role.admin] }),
    mintTalosAPIClientCertificate(osCA, { roles: [Role.operator] }),
    mintTalosAPIClientCertificate(osCA, { roles: [Role.reader] }),
    mintTalosAPIClientCertificate(foreignCA, { roles: [Role.admin] }),
  ]);
  const impersonator = await issueCertificate(osCA, profiles.apidClient('node.test'));
  const serverAuthOnly = await issueCertificate(osCA, {
    commonName: 'not-a-client',
    organizations: [Role.admin],
    extKeyUsage: ['serverAuth'],
  });
  const dualUsage = await issueCertificate(osCA, {
    commonName: 'dual-usage',
    organizations: [Role.admin],
    extKeyUsage: ['serverAuth', 'clientAuth'],
  });
  return { osCA, server, admin, operator, reader, impersonator, foreignAdmin, serverAuthOnly, dualUsage };
}

/** sniOptions keep the IP a test dials out of the TLS server name (DEP0123), as the forwarder does. */
export const sniOptions = serverNameOptions;

/** mtls is client credentials presenting `cert` and trusting `ca`. */
export const mtls = (ca: string, cert: CertificateAndKey): ChannelCredentials =>
  credentials.createSsl(Buffer.from(ca), Buffer.from(standardKeyLabel(cert.key)), Buffer.from(cert.crt), {
    checkServerIdentity: checkNamed,
  });

/** tlsOnly is client credentials without a certificate. */
export const tlsOnly = (ca: string): ChannelCredentials =>
  credentials.createSsl(Buffer.from(ca), null, null, { checkServerIdentity: checkNamed });

/** insecure is `talosctl --insecure`: TLS without a client certificate, the server's certificate unchecked. */
export const insecure = (): ChannelCredentials =>
  credentials.createSsl(null, null, null, {
    rejectUnauthorized: false,
    checkServerIdentity: () => undefined,
  });

export interface PlainSpec {
  value: string;
}

/** A harmless type and a secret one, both registered, for the access policy tests. */
export const PlainThings = defineResource<PlainSpec>({
  type: 'PlainThings.test.keel.dev',
  defaultNamespace: 'runtime',
  empty: () => ({ value: '' }),
  proto: { value: { no: 1, kind: 'string' } },
  fromProto: (v) => ({ value: (v.value as string) ?? '' }),
});
export const SecretThings = defineResource<PlainSpec>({
  type: 'SecretThings.test.keel.dev',
  defaultNamespace: 'secrets',
  sensitivity: 'sensitive',
  empty: () => ({ value: '' }),
  proto: { value: { no: 1, kind: 'string' } },
  fromProto: (v) => ({ value: (v.value as string) ?? '' }),
});
/** Registered as a type but kept in a namespace nobody registered. */
export const UNREGISTERED_NAMESPACE = 'nowhere';

/** nodeState is an in-memory state with the meta namespace, two namespaces, both types and one of each. */
export async function nodeState(): Promise<CoreState> {
  const core = newInmemState();
  const state = wrapCore(core);
  await registerDefault(state);
  await registerNamespace(state, 'runtime', 'runtime resources');
  await registerNamespace(state, 'secrets', 'secret resources');
  await registerResource(state, PlainThings);
  await registerResource(state, SecretThings);
  await state.create(PlainThings.new('runtime', 'one', { value: 'hello' }));
  await state.create(SecretThings.new('secrets', 'key', { value: 'hush' }));
  await state.create(PlainThings.new(UNREGISTERED_NAMESPACE, 'lost', { value: 'x' }));
  return core;
}

type ClientCtor = new (address: string, creds: ChannelCredentials, opts?: object) => Client;

/** serviceClient builds a generic client for `service` from the checked-in protos. */
export function serviceClient(service: string, address: string, creds: ChannelCredentials): Client {
  const pkg = loadPackageDefinition(loadApiProto().packageDefinition) as unknown as Record<string, unknown>;
  let ctor: unknown = pkg;
  for (const part of service.split('.')) ctor = (ctor as Record<string, unknown>)[part];
  if (typeof ctor !== 'function') throw new Error(`no client for ${service}`);
  return new (ctor as ClientCtor)(address, creds, sniOptions(address));
}

export type Reply = Record<string, unknown>;

/** unary calls `method` and settles with the reply or the ServiceError. */
export function callUnary(
  client: Client,
  method: string,
  request: object,
  md: Metadata = new Metadata(),
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const fn = (client as unknown as Record<string, Function>)[method];
    if (!fn) return reject(new Error(`client has no ${method}`));
    fn.call(client, request, md, (err: ServiceError | null, reply: Reply) =>
      err ? reject(err) : resolve(reply),
    );
  });
}

/** collect reads a server stream to its end. */
export function callStream(
  client: Client,
  method: string,
  request: object,
  md: Metadata = new Metadata(),
): Promise<Reply[]> {
  return new Promise((resolve, reject) => {
    const fn = (client as unknown as Record<string, Function>)[method];
    if (!fn) return reject(new Error(`client has no ${method}`));
    const out: Reply[] = [];
    const call = fn.call(client, request, md);
    call.on('data', (m: Reply) => out.push(m));
    call.on('error', reject);
    call.on('end', () => resolve(out));
  });
}

/** errorOf awaits a promise that must fail and returns the gRPC error. */
export async function errorOf(p: Promise<unknown>): Promise<ServiceError> {
  try {
    await p;
  } catch (err) {
    return err as ServiceError;
  }
  throw new Error('expected the call to fail');
}

/** withMetadata builds call metadata from pairs. */
export function withMetadata(pairs: Record<string, string | string[]>): Metadata {
  const md = new Metadata();
  for (const [k, v] of Object.entries(pairs)) for (const x of Array.isArray(v) ? v : [v]) md.add(k, x);
  return md;
}

export type Outcome =
  | { readonly ok: true }
  | { readonly ok: false; readonly code: number; readonly details: string };

const passBytes = (b: Buffer) => b;

/**
 * rawCall calls any method with a serialized request and reports how it settled: a server stream counts as
 * ok at its first message (watches never end), a failure by its status code.
 */
export function rawCall(
  client: Client,
  def: { path: string; requestStream: boolean; responseStream: boolean },
  request: Buffer,
  md: Metadata = new Metadata(),
): Promise<Outcome> {
  return new Promise((resolve) => {
    const fail = (err: ServiceError) => resolve({ ok: false, code: err.code, details: err.details });
    if (!def.requestStream && !def.responseStream) {
      client.makeUnaryRequest(def.path, passBytes, passBytes, request, md, (err) =>
        err ? fail(err) : resolve({ ok: true }),
      );
      return;
    }
    if (!def.requestStream) {
      const call = client.makeServerStreamRequest(def.path, passBytes, passBytes, request, md);
      let settled = false;
      call.on('data', () => {
        if (settled) return;
        settled = true;
        resolve({ ok: true });
        call.cancel();
      });
      call.on('error', (err: ServiceError) => {
        if (!settled) fail(err);
        settled = true;
      });
      call.on('end', () => {
        if (!settled) resolve({ ok: true });
        settled = true;
      });
      return;
    }
    if (!def.responseStream) {
      const call = client.makeClientStreamRequest(def.path, passBytes, passBytes, md, (err) =>
        err ? fail(err) : resolve({ ok: true }),
      );
      call.end();
      return;
    }
    const call = client.makeBidiStreamRequest(def.path, passBytes, passBytes, md);
    call.on('data', () => undefined);
    call.on('error', fail);
    call.on('end', () => resolve({ ok: true }));
    call.end();
  });
}

/** takeStream reads `n` messages of a (possibly endless) server stream, then cancels it. */
export function takeStream(
  client: Client,
  method: string,
  request: object,
  n: number,
  md: Metadata = new Metadata(),
  onReady?: (received: number) => void,
): Promise<Reply[]> {
  return new Promise((resolve, reject) => {
    const fn = (client as unknown as Record<string, Function>)[method];
    if (!fn) return reject(new Error(`client has no ${method}`));
    const out: Reply[] = [];
    const call = fn.call(client, request, md);
    call.on('data', (m: Reply) => {
      out.push(m);
      onReady?.(out.length);
      if (out.length === n) {
        resolve(out);
        call.cancel();
      }
    });
    call.on('error', (err: ServiceError) => {
      if (out.length < n) reject(err);
    });
    call.on('end', () => {
      if (out.length < n) reject(new Error(`stream ended after ${out.length} of ${n} messages`));
    });
  });
}
