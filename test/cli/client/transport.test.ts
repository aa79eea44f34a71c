// Transport failures read as talosctl's (#28): "rpc error: code = Unavailable desc = connection refused", no
// empty "Resolution note:" tail, and a refused certificate named with what to do; against real servers.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTransport, transportText } from '../../../src/cli/client/transport.js';
import { encodeTalosconfig, newTalosconfig } from '../../../src/config/generate/talosconfig.js';
import {
  pki,
  run,
  startMaintenanceNode,
  startNode,
  type TestNode,
  UNREACHABLE,
  type Workdir,
  workdir,
} from '../fixtures.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('transportText', () => {
  it('words grpc-js failures to connect as talosctl does, and leaves other messages alone', () => {
    const refused =
      'No connection established. Last error: Error: connect ECONNREFUSED 127.0.0.1:1. Resolution note: ';
    expect(transportText(refused, 'mutual')).toBe('connection refused');
    expect(
      transportText(
        'No connection established. Last error: read ECONNRESET (2026-01-01T00:00:00.000Z). Resolution note: ',
      ),
    ).toBe('connection reset by peer');
    expect(
      readTransport(
        'No connection established. Last error: Error: self-signed certificate. Resolution note: ',
      )?.fault,
    ).toBe('server-certificate');
    expect(transportText('not authorized: needs os:admin', 'mutual')).toBe('not authorized: needs os:admin');
  });
});

let node: TestNode;
let maintenance: TestNode;
let wd: Workdir;
let foreign: string;

beforeAll(async () => {
  [node, maintenance] = await Promise.all([startNode('node-a'), startMaintenanceNode()]);
  wd = await workdir(node.server.address);
  const p = await pki();
  // trusts the node's CA but presents a client certificate another CA signed
  const cfg = newTalosconfig({
    clusterName: 'foreign',
    osCACrt: b64(p.osCA.crt),
    admin: { crt: b64(p.foreignAdmin.crt), key: b64(p.foreignAdmin.key) },
    endpoints: [node.server.address],
  });
  cfg.contexts.foreign!.nodes = [node.server.address];
  foreign = join(wd.dir, 'foreign');
  writeFileSync(foreign, encodeTalosconfig(cfg));
});
afterAll(async () => {
  await Promise.all([node, maintenance].map((n) => n?.server.close({ signal: AbortSignal.timeout(5_000) })));
  wd?.remove();
});

describe('keelctl transport errors', () => {
  it('reports a refused connection to the endpoint as talosctl does', async () => {
    const r = await run(['version', '-e', UNREACHABLE, '-n', UNREACHABLE], { TALOSCONFIG: wd.talosconfig });
    expect(r.stderr).toBe(
      `error: error on node ${UNREACHABLE}: Version failed: rpc error: code = Unavailable desc = connection refused\n`,
    );
    expect(r.code).toBe(1);
  });

  it('reports a node the endpoint cannot reach the same way', async () => {
    const r = await run(['version', '-n', UNREACHABLE], { TALOSCONFIG: wd.talosconfig });
    expect(r.stderr).toBe(
      // the endpoint words the failure as upstream's apid (Go's gRPC) does
      `error: error on node ${UNREACHABLE}: rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial tcp ${UNREACHABLE}: connect: connection refused"\n`,
    );
  });

  it('says mutual TLS was refused by a maintenance node and to use --insecure', async () => {
    const m = maintenance.server.address;
    for (const args of [['version'], ['get', 'machinestatuses']]) {
      const r = await run([...args, '-e', m, '-n', m], { TALOSCONFIG: wd.talosconfig });
      expect(r.stderr).toContain(
        "rpc error: code = Unavailable desc = mutual TLS refused: the node's certificate is not signed by the talosconfig context's CA",
      );
      expect(r.stderr).toContain('a node in maintenance mode takes --insecure');
      expect(r.stderr).not.toContain('Resolution note');
      expect(r.code).toBe(1);
    }
  });

  it('names the client certificate when the node hangs up on it', async () => {
    for (const args of [['version'], ['get', 'machinestatuses']]) {
      const r = await run([...args, '--talosconfig', foreign]);
      expect(r.stderr).toContain(
        'the node may have refused the client certificate of the talosconfig context',
      );
      expect(r.stderr).not.toContain('Resolution note');
      expect(r.code).toBe(1);
    }
  });

  it('tells --insecure against a configured node to run without it', async () => {
    const r = await run(['version', '-i', '-n', node.server.address]);
    expect(r.stderr).toContain('run without --insecure');
    expect(r.stderr).not.toContain('Resolution note');
    expect(r.code).toBe(1);
  });
});
