import { type ChannelCredentials, Client, status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAllowed } from '../../../src/api/auth/authorize.js';
import { rolesFor } from '../../../src/api/auth/rules.js';
import { API_SERVICES, loadApiProto } from '../../../src/api/proto.js';
import { type ApiServer, startApiServer } from '../../../src/api/server.js';
import { type CertificateAndKey, mintTalosAPIClientCertificate, Role } from '../../../src/pki/index.js';
import {
  mintPKI,
  mtls,
  nodeState,
  type Outcome,
  PlainThings,
  rawCall,
  SecretThings,
  sniOptions,
  type TestPKI,
  tlsOnly,
} from '../fixtures.js';

const proto = loadApiProto();
const state = proto.services.get('cosi.resource.State')!;

/** Well-formed COSI requests, so that a refusal can only come from the rules or the access policy. */
const cosiRequests: Record<string, object> = {
  Get: { namespace: 'runtime', type: PlainThings.type, id: 'one' },
  List: { namespace: 'runtime', type: PlainThings.type },
  Watch: { namespace: 'runtime', type: PlainThings.type, api_version: 1 },
  Destroy: { namespace: 'runtime', type: PlainThings.type, id: 'one' },
  Teardown: { namespace: 'runtime', type: PlainThings.type, id: 'one' },
  TeardownAndDestroy: { namespace: 'runtime', type: PlainThings.type, id: 'one' },
  Create: {
    resource: {
      metadata: { namespace: 'runtime', type: PlainThings.type, id: 'two', version: '1', phase: 'running' },
      spec: { yaml_spec: 'value: x\n' },
    },
  },
  Update: {
    new_resource: {
      metadata: { namespace: 'runtime', type: PlainThings.type, id: 'one', version: '2', phase: 'running' },
      spec: { yaml_spec: 'value: y\n' },
    },
  },
};

const COSI_WRITES = ['Create', 'Update', 'Destroy', 'Teardown', 'TeardownAndDestroy'];

interface Target {
  service: string;
  short: string;
  def: { path: string; requestStream: boolean; responseStream: boolean };
  request: Buffer;
}
const targets: Target[] = API_SERVICES.flatMap((service) =>
  Object.entries(proto.services.get(service)!).map(([short, def]) => ({
    service,
    short,
    def,
    request:
      service === 'cosi.resource.State'
        ? state[short]!.requestSerialize(cosiRequests[short] ?? {})
        : Buffer.alloc(0), // every request message accepts the empty encoding
  })),
);

let pki: TestPKI;
/** the roles the shared PKI has no certificate for, each alone in one */
let more: Record<'etcdBackup' | 'metaWriter' | 'imageVerifier', CertificateAndKey>;
let normal: ApiServer;
let maintenance: ApiServer;
const clients: Client[] = [];
beforeAll(async () => {
  pki = await mintPKI();
  const [etcdBackup, metaWriter, imageVerifier] = await Promise.all(
    [Role.etcdBackup, Role.metaWriter, Role.imageVerifier].map((r) =>
      mintTalosAPIClientCertificate(pki.osCA, { roles: [r] }),
    ),
  );
  more = { etcdBackup: etcdBackup!, metaWriter: metaWriter!, imageVerifier: imageVerifier! };
  normal = await startApiServer({
    address: '127.0.0.1:0',
    mode: 'normal',
    state: await nodeState(),
    identity: { ca: pki.osCA.crt, server: pki.server },
  });
  maintenance = await startApiServer({
    address: '127.0.0.1:0',
    mode: 'maintenance',
    state: await nodeState(),
  });
});
afterAll(async () => {
  for (const c of clients.splice(0)) c.close();
  await Promise.all([normal, maintenance].map((s) => s?.close({ signal: AbortSignal.timeout(5_000) })));
});

const clientOf = (address: string, creds: ChannelCredentials) => {
  const c = new Client(address, creds, sniOptions(address));
  clients.push(c);
  return c;
};

const callAll = async (client: Client) => {
  const out = new Map<string, Outcome>();
  for (const t of targets) out.set(t.def.path, await rawCall(client, t.def, t.request));
  return out;
};

/** expected: allowed by the table means the call got past authorization (OK or UNIMPLEMENTED). */
const passedAuth = (o: Outcome) =>
  o.ok || (o.code !== status.PERMISSION_DENIED && o.code !== status.UNAUTHENTICATED);

describe('role matrix over every RPC of every service', () => {
  it('covers 76 methods', () => {
    expect(targets.length).toBe(54 + 5 + 2 + 1 + 2 + 2 + 1 + 1 + 8);
  });

  it.each([
    ['os:admin', 'admin', [Role.admin]],
    ['os:operator', 'operator', [Role.operator]],
    ['os:reader', 'reader', [Role.reader]],
  ] as const)('%s gets exactly what the table grants', async (_name, key, roles) => {
    const results = await callAll(clientOf(normal.address, mtls(pki.osCA.crt, pki[key])));
    const roleSet = new Set<string>(roles);
    for (const t of targets) {
      const o = results.get(t.def.path)!;
      const cosiWrite = t.service === 'cosi.resource.State' && COSI_WRITES.includes(t.short);
      if (cosiWrite) {
        // writes never pass: the table stops non-admins, the read-only policy stops admins
        expect(o, t.def.path).toMatchObject({ ok: false, code: status.PERMISSION_DENIED });
        continue;
      }
      if (isAllowed(t.def.path, roleSet, 'normal')) {
        expect(passedAuth(o), `${t.def.path} for ${key}: ${JSON.stringify(o)}`).toBe(true);
        if (!o.ok) expect(o.code, t.def.path).toBe(status.UNIMPLEMENTED);
      } else {
        expect(o, `${t.def.path} for ${key}`).toMatchObject({ ok: false, code: status.PERMISSION_DENIED });
        expect((o as { details: string }).details).toContain('not authorized');
      }
    }
  });

  it.each([
    [
      'os:etcd:backup',
      'etcdBackup',
      Role.etcdBackup,
      [
        '/machine.MachineService/EtcdSnapshot',
        '/machine.MachineService/EtcdStatus',
        '/machine.MachineService/EtcdMemberList',
        '/machine.MachineService/EtcdAlarmList',
      ],
    ],
    [
      'os:meta:writer',
      'metaWriter',
      Role.metaWriter,
      ['/machine.MachineService/MetaWrite', '/machine.MachineService/MetaDelete'],
    ],
    ['os:image:verifier', 'imageVerifier', Role.imageVerifier, ['/machine.ImageService/Verify']],
  ] as const)('%s alone passes only its own methods', async (_name, key, role, own) => {
    const results = await callAll(clientOf(normal.address, mtls(pki.osCA.crt, more[key])));
    const granted = targets.filter((t) => isAllowed(t.def.path, new Set<string>([role]), 'normal'));
    // upstream grants these roles nothing else, not even Version: the lists above are its table's rows
    expect(granted.map((t) => t.def.path).sort()).toEqual([...own].sort());
    for (const t of targets) {
      const o = results.get(t.def.path)!;
      if (own.includes(t.def.path as never))
        expect(passedAuth(o), `${t.def.path}: ${JSON.stringify(o)}`).toBe(true);
      else expect(o, t.def.path).toMatchObject({ ok: false, code: status.PERMISSION_DENIED });
    }
  });

  it('spot-checks the table against the upstream rules', () => {
    const M = (m: string) => `/machine.MachineService/${m}`;
    expect(rolesFor(M('Reboot'))).toEqual([Role.admin, Role.operator]);
    expect(rolesFor(M('Read'))).toEqual([Role.admin]);
    expect(rolesFor(M('EtcdSnapshot'))).toEqual([Role.admin, Role.operator, Role.etcdBackup]);
    expect(rolesFor(M('MetaWrite'))).toEqual([Role.admin, Role.metaWriter]);
    expect(rolesFor(M('Version'))).toEqual([Role.admin, Role.operator, Role.reader]);
    expect(rolesFor('/cosi.resource.State/Teardown')).toEqual([Role.admin]); // no rule: admin only
    expect(rolesFor('/machine.ImageService/Verify')).toContain(Role.imageVerifier);
  });

  it('a client without a certificate is refused at the handshake for every RPC', async () => {
    const results = await callAll(clientOf(normal.address, tlsOnly(pki.osCA.crt)));
    for (const t of targets)
      expect(results.get(t.def.path), t.def.path).toMatchObject({ ok: false, code: status.UNAVAILABLE });
  });

  it('a certificate from another CA is refused at the handshake for every RPC', async () => {
    const results = await callAll(clientOf(normal.address, mtls(pki.osCA.crt, pki.foreignAdmin)));
    for (const t of targets)
      expect(results.get(t.def.path), t.def.path).toMatchObject({ ok: false, code: status.UNAVAILABLE });
  });

  it('a server-auth-only certificate is refused at the handshake for every RPC', async () => {
    const results = await callAll(clientOf(normal.address, mtls(pki.osCA.crt, pki.serverAuthOnly)));
    for (const t of targets)
      expect(results.get(t.def.path), t.def.path).toMatchObject({ ok: false, code: status.UNAVAILABLE });
  });

  it('a certificate usable for more than client auth is UNAUTHENTICATED for every RPC, even as admin', async () => {
    const results = await callAll(clientOf(normal.address, mtls(pki.osCA.crt, pki.dualUsage)));
    for (const t of targets) {
      const o = results.get(t.def.path)!;
      expect(o, t.def.path).toMatchObject({ ok: false, code: status.UNAUTHENTICATED });
      expect((o as { details: string }).details).toContain('client auth extended key usage');
    }
  });

  it('maintenance mode: everyone is a reader who may also apply a config', async () => {
    const results = await callAll(clientOf(maintenance.address, insecureTLS()));
    const reader = new Set<string>([Role.reader]);
    for (const t of targets) {
      const o = results.get(t.def.path)!;
      if (t.service === 'cosi.resource.State' && COSI_WRITES.includes(t.short)) {
        expect(o, t.def.path).toMatchObject({ ok: false, code: status.PERMISSION_DENIED });
      } else if (isAllowed(t.def.path, reader, 'maintenance')) {
        expect(passedAuth(o), `${t.def.path}: ${JSON.stringify(o)}`).toBe(true);
      } else expect(o, t.def.path).toMatchObject({ ok: false, code: status.PERMISSION_DENIED });
    }
    expect(passedAuth(results.get('/machine.MachineService/ApplyConfiguration')!)).toBe(true);
    expect(results.get('/machine.MachineService/Reset')).toMatchObject({ code: status.PERMISSION_DENIED });
  });
});

describe("COSI State's per-resource sensitivity, role by role", () => {
  const secret = { namespace: 'secrets', type: SecretThings.type };
  const plain = { namespace: 'runtime', type: PlainThings.type };
  const reads = (kind: object, id: string) =>
    [
      ['Get', state.Get!, state.Get!.requestSerialize({ ...kind, id })],
      ['List', state.List!, state.List!.requestSerialize(kind)],
      ['Watch', state.Watch!, state.Watch!.requestSerialize({ ...kind, api_version: 1 })],
    ] as const;

  it.each([
    ['os:admin', () => mtls(pki.osCA.crt, pki.admin), true],
    ['os:operator', () => mtls(pki.osCA.crt, pki.operator), false],
    ['os:reader', () => mtls(pki.osCA.crt, pki.reader), false],
  ] as const)(
    '%s reads plain resources, and sensitive ones only if admin',
    async (_name, creds, sensitive) => {
      const client = clientOf(normal.address, creds());
      for (const [name, def, request] of reads(plain, 'one'))
        expect(await rawCall(client, def, request), `${name} plain`).toEqual({ ok: true });
      for (const [name, def, request] of reads(secret, 'key')) {
        const o = await rawCall(client, def, request);
        if (sensitive) expect(o, `${name} sensitive`).toEqual({ ok: true });
        else {
          expect(o, `${name} sensitive`).toMatchObject({ ok: false, code: status.PERMISSION_DENIED });
          expect((o as { details: string }).details, name).toContain('sensitive');
        }
      }
    },
  );

  it('maintenance mode reads plain resources and no sensitive one', async () => {
    const client = clientOf(maintenance.address, insecureTLS());
    for (const [name, def, request] of reads(plain, 'one'))
      expect(await rawCall(client, def, request), `${name} plain`).toEqual({ ok: true });
    for (const [name, def, request] of reads(secret, 'key'))
      expect(await rawCall(client, def, request), `${name} sensitive`).toMatchObject({
        ok: false,
        code: status.PERMISSION_DENIED,
      });
  });

  it('the roles without State access read nothing, plain or sensitive', async () => {
    for (const key of ['etcdBackup', 'metaWriter', 'imageVerifier'] as const) {
      const client = clientOf(normal.address, mtls(pki.osCA.crt, more[key]));
      for (const [name, def, request] of [...reads(plain, 'one'), ...reads(secret, 'key')])
        expect(await rawCall(client, def, request), `${key} ${name}`).toMatchObject({
          ok: false,
          code: status.PERMISSION_DENIED,
        });
    }
  });
});

import { credentials } from '@grpc/grpc-js';

/** insecureTLS is `talosctl --insecure`: TLS without verifying the server or presenting a certificate. */
function insecureTLS() {
  return credentials.createSsl(null, null, null, {
    rejectUnauthorized: false,
    checkServerIdentity: () => undefined,
  });
}
