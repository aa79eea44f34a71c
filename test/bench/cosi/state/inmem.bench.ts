// In-memory state: raw operation rates, heap per resource, and watch fan-out under Talos' history sizing.
import { newInmemState } from '../../../../src/cosi/state/inmem/index.js';
import { wrapCore } from '../../../../src/cosi/state/wrap.js';
import { IntResource, newInt } from '../../../../src/cosi/testing/resources.js';
import { best, figure, group, nowMs, percentile, rate, settledHeap } from '../../harness.js';

const NS = 'bench';
const N = 100_000;
// machined's sizing: small rings that grow to 1024 during their first wrap
const TALOS_HISTORY = { historyInitialCapacity: 8, historyMaxCapacity: 1024, historyGap: 4 };

await group('inmem state operations, 2 cores (target ≥ 100k creates/s, ≥ 300k gets/s)', async () => {
  const creates = await best(3, async () => {
    const st = newInmemState(TALOS_HISTORY);
    return rate(N, (i) => st.create(newInt(NS, `r${i}`, i)));
  });
  figure('create', creates, 'ops/s', { op: '>=', value: 100_000 });

  const st = newInmemState(TALOS_HISTORY);
  for (let i = 0; i < N; i++) await st.create(newInt(NS, `r${i}`, i));
  const ptrs = Array.from({ length: N }, (_, i) => IntResource.pointer(`r${i}`, NS));

  figure('get', await best(3, () => rate(N, (i) => st.get(ptrs[i]!))), 'ops/s', { op: '>=', value: 300_000 });

  const current = await Promise.all(ptrs.map((p) => st.get(p)));
  figure(
    'update (version-checked)',
    await best(1, () =>
      rate(N, async (i) => {
        const r = current[i] as IntResource;
        r.spec.value++;
        await st.update(r);
      }),
    ),
    'ops/s',
  );

  const wrapped = wrapCore(st);
  figure(
    'modify (get → copy → edit → update)',
    await rate(20_000, (i) =>
      wrapped.modify(IntResource.new(NS, `r${i}`), (r) => {
        r.spec.value = -i;
      }),
    ),
    'ops/s',
  );

  const small = newInmemState();
  for (let i = 0; i < 100; i++) await small.create(newInt(NS, `r${i}`, i));
  figure(
    'list of 100 resources',
    await rate(5_000, () => small.list({ namespace: NS, type: IntResource.type })),
    'lists/s',
  );
});

await group('inmem state memory (target ≤ 2 KiB heap per small resource at 100k)', async () => {
  const before = settledHeap();
  const st = newInmemState(TALOS_HISTORY);
  for (let i = 0; i < N; i++) await st.create(newInt(NS, `resource-${i}`, i));
  const per = (settledHeap() - before) / N;
  figure('heap per resource (100,000 IntResources)', Math.round(per), 'bytes', { op: '<=', value: 2048 });
  // keep the state alive until measured
  if ((await st.list({ namespace: NS, type: IntResource.type })).length !== N)
    throw new Error('lost resources');
});

await group(
  'watch fan-out: 1,000 updates to one type (target: 1,000 watchers, 0 overruns, p99 ≤ 50 ms)',
  async () => {
    for (const watchers of [1, 100, 1_000]) {
      const st = newInmemState(TALOS_HISTORY);
      const updates = 1_000;
      const kind = { namespace: NS, type: IntResource.type };
      await st.create(newInt(NS, 'hot', 0));
      const sentAt: number[] = [];
      const latencies: number[] = [];
      let delivered = 0;
      let overruns = 0;
      const ac = new AbortController();
      const streams = await Promise.all(
        Array.from({ length: watchers }, () => st.watchKind(kind, { signal: ac.signal })),
      );
      const done = streams.map(async (s) => {
        let seen = 0;
        for await (const ev of s) {
          if (ev.type === 'errored') {
            overruns++;
            return;
          }
          if (ev.type !== 'updated') continue;
          const v = (ev.resource.spec as { value: number }).value;
          latencies.push(nowMs() - sentAt[v]!);
          delivered++;
          if (++seen === updates) return;
        }
      });
      const t0 = nowMs();
      const r = await st.get({ ...kind, id: 'hot' });
      for (let v = 1; v <= updates; v++) {
        (r.spec as { value: number }).value = v;
        sentAt[v] = nowMs();
        await st.update(r);
      }
      await Promise.all(done);
      const elapsed = (nowMs() - t0) / 1000;
      ac.abort();
      const label = `${watchers.toLocaleString('en-US')} watcher${watchers > 1 ? 's' : ''}`;
      figure(`${label}: delivered events`, Math.round(delivered / elapsed), 'events/s');
      figure(`${label}: p50 delivery latency`, percentile(latencies, 50), 'ms');
      figure(`${label}: p99 delivery latency`, percentile(latencies, 99), 'ms', { op: '<=', value: 50 });
      figure(`${label}: overruns`, overruns, 'watches', { op: '<=', value: 0 });
    }
  },
);
