import { type Client, status } from '@grpc/grpc-js';
import { afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { unaryHandler } from '../../src/api/handlers.js';
import { ApiProtoLoadError } from '../../src/api/proto.js';
import { type ApiServer, bindTarget, startApiServer } from '../../src/api/server.js';
import { keelVersion, wireTag } from '../../src/api/version.js';
import {
  callUnary,
  errorOf,
  mintPKI,
  mtls,
  nodeState,
  serviceClient,
  type TestPKI,
  tlsOnly,
  withMetadata,
} from './fixtures.js';

let pki: TestPKI;
beforeAll(async () => {
  pki = await mintPKI();
});

const servers: ApiServer[] = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await Promise.all(servers.splice(0).map((s) => s.close({ signal: AbortSignal.timeout(5_000) })));
});

const start = async (opts: Partial<Parameters<typeof startApiServer>[0]> = {}) => {
  const s = await startApiServer({
    address: '127.0.0.1:0',
    mode: 'normal',
    state: await nodeState(),
    identity: { ca: pki.osCA.crt, server: pki.server },
    ...opts,
  });
  servers.push(s);
  return s;
};
const client = (service: string, address: string, creds: Parameters<typeof serviceClient>[2]) => {
  const c = serviceClient(service, address, creds);
  clients.push(c);
  return c;
};

describe('startApiServer', () => {
  it('answers Version over mutual TLS with the build info and RBAC on', async () => {
    const s = await start();
    const c = client('machine.MachineService', s.address, mtls(pki.osCA.crt, pki.reader));
    const reply = await callUnary(c, 'Version', {});
    const messages = reply.messages as Record<string, unknown>[];
    expect(messages).toHaveLength(1);
    expect(messages[0]!.version).toEqual({ ...keelVersion(), tag: wireTag(keelVersion().tag) });
    expect(messages[0]!.features).toEqual({ rbac: true });
    expect(messages[0]!.metadata).toBeUndefined(); // no routing asked: passed through untouched
  });

  it('fills the envelope for `nodes` naming this node', async () => {
    const s = await start();
    const c = client('machine.MachineService', s.address, mtls(pki.osCA.crt, pki.admin));
    const reply = await callUnary(c, 'Version', {}, withMetadata({ nodes: s.address }));
    const messages = reply.messages as Record<string, Record<string, unknown>>[];
    expect(messages.map((m) => m.metadata?.hostname)).toEqual([s.address]);
  });

  it('answers UNIMPLEMENTED, naming the method, for RPCs without a handler', async () => {
    const s = await start();
    const c = client('machine.MachineService', s.address, mtls(pki.osCA.crt, pki.admin));
    const err = await errorOf(callUnary(c, 'Reboot', {}));
    expect(err.code).toBe(status.UNIMPLEMENTED);
    expect(err.details).toContain('/machine.MachineService/Reboot');
    expect(err.details).toContain('does not exist');
  });

  it('serves maintenance mode over TLS without a client certificate, with a fingerprint line', async () => {
    const s = await start({ mode: 'maintenance' });
    expect(s.fingerprint).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(s.consoleLines?.some((l) => l.includes(`--cert-fingerprint '${s.fingerprint}'`))).toBe(true);
    // an --insecure client skips verification; trusting nothing but the node's own root does the same here
    const c = client('machine.MachineService', s.address, tlsOnlyInsecure());
    const reply = await callUnary(c, 'Version', {});
    const messages = reply.messages as Record<string, unknown>[];
    expect(messages[0]!.features).toBeUndefined();
    // reader rights: admin-only calls are refused, but the first config may be applied
    expect((await errorOf(callUnary(c, 'Reset', {}))).code).toBe(status.PERMISSION_DENIED);
    expect((await errorOf(callUnary(c, 'ApplyConfiguration', {}))).code).toBe(status.UNIMPLEMENTED);
  });

  it('names the advertised addresses in the maintenance hint instead of the bound one', async () => {
    const s = await start({ mode: 'maintenance', advertise: ['10.0.2.15', '192.0.2.7'] });
    expect(s.consoleLines).toContain('reachable at: 10.0.2.15, 192.0.2.7');
    expect(s.consoleLines?.some((l) => l.includes('--nodes 10.0.2.15 --file'))).toBe(true);
    expect(s.consoleLines?.join('\n')).not.toContain(s.address);
  });

  it('refuses a normal-mode client without a certificate at the handshake', async () => {
    const s = await start();
    const c = client('machine.MachineService', s.address, tlsOnly(pki.osCA.crt));
    const err = await errorOf(callUnary(c, 'Version', {}));
    expect(err.code).toBe(status.UNAVAILABLE);
  });

  it('binds literal addresses without a DNS resolver, names through it, and both answer', async () => {
    expect(bindTarget('0.0.0.0:50000')).toBe('ipv4:0.0.0.0:50000');
    expect(bindTarget('127.0.0.1:0')).toBe('ipv4:127.0.0.1:0');
    expect(bindTarget('[::1]:50000')).toBe('ipv6:[::1]:50000');
    expect(bindTarget('[::]:0')).toBe('ipv6:[::]:0');
    expect(bindTarget('localhost:50000')).toBe('localhost:50000');
    expect(bindTarget('[not-an-ip]:1')).toBe('[not-an-ip]:1');
    for (const address of ['[::1]:0', 'localhost:0']) {
      const s = await start({ address, mode: 'maintenance' });
      expect(s.port).toBeGreaterThan(0);
      const c = client('machine.MachineService', s.address, tlsOnlyInsecure());
      const reply = await callUnary(c, 'Version', {});
      expect((reply.messages as Record<string, unknown>[])[0]!.version).toEqual({
        ...keelVersion(),
        tag: wireTag(keelVersion().tag),
      });
    }
  });

  it('refuses at startup a handler for an unknown method or of the wrong shape', async () => {
    await expect(
      start({ handlers: { '/machine.MachineService/Rebooot': unaryHandler(async () => ({})) } }),
    ).rejects.toThrow(/Rebooot: no such method/);
    await expect(
      start({ handlers: { '/machine.MachineService/Dmesg': unaryHandler(async () => ({})) } }),
    ).rejects.toThrow(/Dmesg: is unary, the method is server-stream/);
  });

  it('fails at startup on protos it cannot load, whatever its credentials were doing meanwhile', async () => {
    const protoDir = '/nonexistent/protos/';
    // proto-loader warns of each file it cannot find before it throws: expected here, so kept off the output
    const warned = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    onTestFinished(() => warned.mockRestore());
    await expect(start({ mode: 'maintenance', protoDir })).rejects.toThrow(ApiProtoLoadError);
    // a client identity means a forwarder, closed again
    await expect(
      start({ protoDir, identity: { ca: pki.osCA.crt, server: pki.server, client: pki.server } }),
    ).rejects.toThrow(ApiProtoLoadError);
    // credentials that fail too leave no rejection unhandled: the protos' error is the one reported
    await expect(start({ protoDir, identity: undefined })).rejects.toThrow(ApiProtoLoadError);
  });
});

import { checkServerIdentity } from 'node:tls';
import { credentials } from '@grpc/grpc-js';

/** tlsOnlyInsecure trusts any server certificate, as `talosctl --insecure` does. */
function tlsOnlyInsecure() {
  return credentials.createSsl(null, null, null, {
    rejectUnauthorized: false,
    checkServerIdentity: (host, cert) => (cert ? undefined : checkServerIdentity(host, cert)),
  });
}
