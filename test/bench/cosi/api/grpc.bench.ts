// The cosi.resource.State API over loopback gRPC: List of 10,000 resources, Get round trips, Watch delivery.
import { credentials, Server, ServerCredentials } from '@grpc/grpc-js';
import { grpcCoreState } from '../../../../src/cosi/api/client.js';
import { addStateService } from '../../../../src/cosi/api/server.js';
import { newInmemState } from '../../../../src/cosi/state/inmem/index.js';
import { IntResource, newInt } from '../../../../src/cosi/testing/resources.js';
import { best, figure, group, nowMs, percentile } from '../../harness.js';

const NS = 'bench';
const N = 10_000;
const kind = { namespace: NS, type: IntResource.type };

const core = newInmemState({ historyInitialCapacity: 8, historyMaxCapacity: 1024, historyGap: 4 });
const server = new Server();
addStateService(server, core);
const port = await new Promise<number>((ok, fail) =>
  server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (e, p) => (e ? fail(e) : ok(p))),
);
const remote = grpcCoreState(`127.0.0.1:${port}`, credentials.createInsecure());

try {
  await group('gRPC State API on loopback: List of 10,000 resources', async () => {
    for (let i = 0; i < N; i++) await core.create(newInt(NS, `r${i}`, i));
    const ms = await best(
      5,
      async () => {
        const t0 = nowMs();
        const items = await remote.list(kind);
        if (items.length !== N) throw new Error(`listed ${items.length}`);
        return nowMs() - t0;
      },
      false,
    );
    figure('List of 10,000 resources (best of 5)', Math.round(ms), 'ms');
    figure('List throughput', Math.round(N / (ms / 1000)), 'resources/s');

    const rtt: number[] = [];
    for (let i = 0; i < 2_000; i++) {
      const t0 = nowMs();
      await remote.get({ ...kind, id: `r${i}` });
      rtt.push(nowMs() - t0);
    }
    figure('Get round trip p50', percentile(rtt, 50), 'ms');
    figure('Get round trip p99', percentile(rtt, 99), 'ms');
  });

  await group(
    'gRPC State API on loopback: Watch delivery to a remote client, producer ≤ 512 events ahead (target: 0 overruns)',
    async () => {
      for (const aggregated of [false, true]) {
        const ac = new AbortController();
        const w = aggregated
          ? await remote.watchKindAggregated(kind, { signal: ac.signal })
          : await remote.watchKind(kind, { signal: ac.signal });
        const updates = 10_000;
        let received = 0;
        let overruns = 0;
        const done = (async () => {
          for await (const item of w) {
            for (const ev of Array.isArray(item) ? item : [item]) {
              if (ev.type === 'errored') {
                overruns++;
                return;
              }
              if (ev.type === 'updated' && ++received >= updates) return;
            }
          }
        })();
        const t0 = nowMs();
        for (let i = 0; i < updates; i++) {
          const r = await core.get({ ...kind, id: `r${i % N}` });
          (r.spec as { value: number }).value++;
          await core.update(r);
          // Keep at most half the history ahead of the client: this measures sustained delivery, not
          // how fast a producer that never yields can overrun a remote watcher.
          while (i - received > 512) await new Promise(setImmediate);
        }
        await done;
        const s = (nowMs() - t0) / 1000;
        ac.abort();
        const label = aggregated ? 'aggregated' : 'per-event';
        figure(`${label} Watch: 10,000 updates delivered`, Math.round(received / s), 'events/s');
        figure(`${label} Watch: overruns`, overruns, 'watches', { op: '<=', value: 0 });
      }
    },
  );
} finally {
  remote.close();
  server.forceShutdown();
}
