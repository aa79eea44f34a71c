// The machine API (issue #4): Version round trips over mutual TLS, a COSI List of 1,000 resources and Watch
// delivery through the API server, and a container node's start until its API answers.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ChannelCredentials, type Client, credentials } from '@grpc/grpc-js';
import { type ApiServer, startApiServer } from '../../../src/api/server.js';
import { encode, generateConfigs, mintAdminCertificate, mintSecrets } from '../../../src/config/index.js';
import { grpcCoreState } from '../../../src/cosi/api/client.js';
import {
  registerDefault,
  registerNamespace,
  registerResource,
} from '../../../src/cosi/resource/meta/index.js';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';
import { wrapCore } from '../../../src/cosi/state/wrap.js';
import { callUnary, mintPKI, mtls, PlainThings, serviceClient } from '../../api/fixtures.js';
import { cleanup, freePort, spawnNode, tempStateDir } from '../../machined/node/harness.js';
import { best, figure, group, nowMs, percentile } from '../harness.js';

const NS = 'runtime';
const N = 1_000;
const kind = { namespace: NS, type: PlainThings.type };

const pki = await mintPKI();
// the history grpc.bench.ts gives its state, so a client 512 events behind is still inside it
const core = newInmemState({ historyInitialCapacity: 8, historyMaxCapacity: 1024, historyGap: 4 });
await registerDefault(wrapCore(core));
await registerNamespace(wrapCore(core), NS, 'runtime resources');
await registerResource(wrapCore(core), PlainThings);
const servers: ApiServer[] = [];
const clients: Client[] = [];
const creds = () => mtls(pki.osCA.crt, pki.admin);

const server = await startApiServer({
  address: '127.0.0.1:0',
  mode: 'normal',
  state: core,
  identity: { ca: pki.osCA.crt, server: pki.server },
});
servers.push(server);
const machine = serviceClient('machine.MachineService', server.address, creds());
clients.push(machine);
const remote = grpcCoreState(server.address, creds());

/** versionWhenUp calls Version on fresh channels (a refused one would back off) until one succeeds. */
async function versionWhenUp(
  address: string,
  mk: () => ChannelCredentials,
  exited: Promise<number | null>,
): Promise<void> {
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  for (;;) {
    if (gone) throw new Error(`node on ${address} exited before its API answered`);
    const c = serviceClient('machine.MachineService', address, mk());
    try {
      await callUnary(c, 'Version', {});
      return;
    } catch {
      await new Promise(setImmediate);
    } finally {
      c.close();
    }
  }
}

try {
  await group('machine API over mutual TLS on loopback: Version round trip', async () => {
    for (let i = 0; i < 200; i++) await callUnary(machine, 'Version', {});
    const rtt: number[] = [];
    for (let i = 0; i < 2_000; i++) {
      const t0 = nowMs();
      await callUnary(machine, 'Version', {});
      rtt.push(nowMs() - t0);
    }
    figure('Version round trip p50 (2,000 calls)', percentile(rtt, 50), 'ms');
    figure('Version round trip p99 (2,000 calls)', percentile(rtt, 99), 'ms');
  });

  await group('machine API over mutual TLS: get of 1,000 resources (COSI List)', async () => {
    for (let i = 0; i < N; i++) await core.create(PlainThings.new(NS, `p${i}`, { value: `v${i}` }));
    const total = (await remote.list(kind)).length; // warm-up
    if (total !== N) throw new Error(`listed ${total} of ${N}`);
    const ms = await best(
      5,
      async () => {
        const t0 = nowMs();
        const items = await remote.list(kind);
        if (items.length !== total) throw new Error(`listed ${items.length} of ${total}`);
        return nowMs() - t0;
      },
      false,
    );
    figure('List of 1,000 resources (best of 5)', ms, 'ms');
  });

  await group(
    'machine API over mutual TLS: Watch delivery to a remote client, producer ≤ 512 events ahead (target: 0 overruns)',
    async () => {
      const ac = new AbortController();
      const w = await remote.watchKind(kind, { signal: ac.signal });
      const updates = 10_000;
      let received = 0;
      let overruns = 0;
      const done = (async () => {
        for await (const ev of w) {
          if (ev.type === 'errored') {
            overruns++;
            return;
          }
          if (ev.type === 'updated' && ++received >= updates) return;
        }
      })();
      const t0 = nowMs();
      for (let i = 0; i < updates; i++) {
        const r = await core.get({ ...kind, id: `p${i % N}` });
        (r.spec as { value: string }).value = `u${i}`;
        await core.update(r);
        // at most 512 events ahead: sustained delivery, not how fast a producer that never yields overruns
        while (i - received > 512 && overruns === 0) await new Promise(setImmediate);
      }
      await done;
      const s = (nowMs() - t0) / 1000;
      ac.abort();
      figure('Watch: 10,000 updates delivered', Math.round(received / s), 'events/s');
      figure('Watch: overruns', overruns, 'watches', { op: '<=', value: 0 });
    },
  );

  await group('container node: process spawn until the API answers Version', async () => {
    const bundle = await mintSecrets();
    const controlplane = generateConfigs({
      clusterName: 'keel-bench',
      endpoint: 'https://127.0.0.1:6443',
      secrets: bundle,
    }).controlplane;
    const a = await mintAdminCertificate(bundle);
    const pem = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');
    const admin = () => mtls(pem(bundle.certs.os.crt), { crt: pem(a.crt), key: pem(a.key) });
    const insecure = () =>
      credentials.createSsl(null, null, null, {
        rejectUnauthorized: false,
        checkServerIdentity: () => undefined,
      });

    const configured = await best(
      3,
      async () => {
        const stateDir = tempStateDir();
        const file = join(stateDir, 'preload.yaml');
        writeFileSync(file, encode(controlplane));
        const port = await freePort();
        const t0 = nowMs();
        const node = await spawnNode(stateDir, port, ['--config', file]);
        await node.waitForLine(/api: serving with mutual TLS/);
        await versionWhenUp(node.address, admin, node.exited);
        const ms = nowMs() - t0;
        await cleanup();
        return ms;
      },
      false,
    );
    figure('with --config: spawn until Version over mutual TLS (best of 3)', configured, 'ms');

    const maintenance = await best(
      3,
      async () => {
        const port = await freePort();
        const t0 = nowMs();
        const node = await spawnNode(tempStateDir(), port);
        await node.waitForLine(/server certificate fingerprint: /);
        await versionWhenUp(node.address, insecure, node.exited);
        const ms = nowMs() - t0;
        await cleanup();
        return ms;
      },
      false,
    );
    figure('no config: spawn until maintenance Version (best of 3)', maintenance, 'ms');
  });
} finally {
  remote.close();
  for (const c of clients) c.close();
  await Promise.all(servers.map((s) => s.close({ signal: AbortSignal.timeout(1_000) })));
  await cleanup();
}
