// etcd on a node (issue #31): a container-mode control plane in a network namespace of its own is
// bootstrapped through the machine API and timed until machined calls its etcd healthy; put and get
// latency through its etcd is set beside the same etcd binary run bare (same TLS, data on the same
// filesystem, same loopback path), as a ratio; and machined's memory with etcd and containerd running.
// The memory figures are the container-mode process's, bundled as the image bundles machined and from the
// sources through tsx (as `make container-node` runs it); neither trims its start-up memory as PID 1 does.
// PID 1's own figure on a QEMU node is test/bench/image/node-rss.bench.ts's.
import { randomBytes } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { ServiceError } from '@grpc/grpc-js';
import { EtcdClient } from '../../../src/etcd/index.js';
import { callUnary } from '../../api/fixtures.js';
import { etcdPKI, type RunningEtcd, startEtcd } from '../../etcd/fixtures.js';
import { figure, group, nowMs, percentile } from '../harness.js';
import { bundleContainerEntry } from './bundle.js';
import { kvRound, newSamples } from './kv-latency.js';
import { enterOwnNetns } from './netns.js';
import { type ControlPlane, type ServiceInfo, startControlPlane } from './node.js';
import { childrenOf, type Memory, memoryOf } from './proc.js';

const ADDRESS = '10.78.0.1';
const N = 2_000;
/** the runs alternate node and bare in rounds, so load from elsewhere on the host falls on both alike */
const ROUNDS = 8;
const VALUE = randomBytes(256);
const POLL_MS = 50;
const FAILED_PRECONDITION = 9;

/** until polls `check` every POLL_MS until it returns a value, or throws after `ms`. */
async function until<T>(what: string, ms: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = nowMs() + ms;
  let last: unknown;
  while (nowMs() < deadline) {
    try {
      const v = await check();
      if (v !== undefined) return v;
    } catch (e) {
      last = e;
    }
    await delay(POLL_MS);
  }
  throw new Error(`${what} within ${ms / 1000} s${last ? `: ${(last as Error).message}` : ''}`);
}

const service = (list: ServiceInfo[], id: string) => list.find((s) => s.id === id);

/** answers says whether the etcd at `endpoint` answers Status now, on a fresh channel (no reconnect backoff). */
async function answers(cp: ControlPlane): Promise<true | undefined> {
  const c = new EtcdClient({ endpoints: [cp.etcdEndpoint], tls: cp.etcdTLS, timeoutMs: 1_000 });
  try {
    await c.status();
    return true;
  } finally {
    c.close();
  }
}

/** bootstrap calls Bootstrap until the node takes it (etcd configured, clock synced); returns its start. */
async function bootstrap(cp: ControlPlane): Promise<number> {
  return until('Bootstrap accepted', 60_000, async () => {
    const t0 = nowMs();
    try {
      await callUnary(cp.api, 'Bootstrap', {});
      return t0;
    } catch (e) {
      if ((e as ServiceError).code === FAILED_PRECONDITION) return undefined;
      throw e;
    }
  });
}

/** bootstrapped bootstraps the node and times it until etcd answers and until machined calls it healthy. */
async function bootstrapped(cp: ControlPlane): Promise<{ answered: number; healthy: number }> {
  await until('the etcd service loaded', 120_000, async () => service(await cp.services(), 'etcd'));
  const t0 = await bootstrap(cp);
  const [answered, healthy] = await Promise.all([
    until('etcd answering', 120_000, () => answers(cp)).then(() => nowMs() - t0),
    until('etcd healthy', 120_000, async () =>
      service(await cp.services(), 'etcd')?.health?.healthy ? true : undefined,
    ).then(() => nowMs() - t0),
  ]);
  return { answered, healthy };
}

/**
 * settledMemory waits for containerd too and ≥ 30 s of the API's life, then samples once a second for
 * 15 s: V8 gives its heap back only after a collection, so one sample may catch garbage; the median and
 * the highest sample say how the figure moves.
 */
async function settledMemory(cp: ControlPlane, apiUp: number): Promise<{ median: Memory; max: Memory }> {
  await until('containerd healthy', 120_000, async () =>
    service(await cp.services(), 'containerd')?.health?.healthy ? true : undefined,
  );
  await delay(Math.max(0, 30_000 - (nowMs() - apiUp)));
  const samples: Memory[] = [];
  for (let i = 0; i < 15; i++) {
    samples.push(memoryOf(cp.pid));
    await delay(1_000);
  }
  samples.sort((a, b) => a.rss - b.rss);
  return { median: samples[7]!, max: samples.at(-1)! };
}

const ns = enterOwnNetns('etcd', `${ADDRESS}/24`);
let cp: ControlPlane | undefined;
let bare: RunningEtcd | undefined;
const clients: EtcdClient[] = [];
let tornDown: Promise<void> | undefined;
const teardown = () =>
  (tornDown ??= (async () => {
    for (const c of clients) c.close();
    try {
      await cp?.stop();
      await bare?.stop();
    } finally {
      ns.leave();
    }
  })());
const interrupted = () => void teardown().finally(() => process.exit(130));
process.once('SIGINT', interrupted);
process.once('SIGTERM', interrupted);

/** upFrom starts a node (the one before it stopped: they share the namespace's ports) and notes when its API came up. */
async function upFrom(bundled?: Awaited<ReturnType<typeof bundleContainerEntry>>) {
  await cp?.stop();
  const t0 = nowMs();
  cp = await startControlPlane(ADDRESS, bundled);
  const apiUp = nowMs();
  console.log(
    `  (node ${bundled ? 'bundled' : 'from the sources'}: API up in ${((apiUp - t0) / 1000).toFixed(1)} s)`,
  );
  return { node: cp, apiUp };
}

try {
  const { node, apiUp } = await upFrom(await bundleContainerEntry());

  await group('etcd bootstrap on a container-mode control plane: Bootstrap call → etcd healthy', async () => {
    const t = await bootstrapped(node);
    figure(`Bootstrap → etcd answers Status (${POLL_MS} ms polls)`, t.answered, 'ms');
    figure(`Bootstrap → etcd service healthy (ServiceList, ${POLL_MS} ms polls)`, t.healthy, 'ms');
  });

  await group(
    `etcd put/get latency, ${VALUE.length}-byte values, one call at a time, ${N.toLocaleString('en-US')} each: node vs the same etcd bare`,
    async () => {
      bare = await startEtcd(await etcdPKI('bare', ['127.0.0.1']));
      const onNode = new EtcdClient({ endpoints: [node.etcdEndpoint], tls: node.etcdTLS });
      clients.push(onNode);
      const alone = bare.client();
      const runs = { node: newSamples(), bare: newSamples() };
      await kvRound(onNode, 'warm', 200, VALUE, newSamples());
      await kvRound(alone, 'warm', 200, VALUE, newSamples());
      for (let r = 0; r < ROUNDS; r++) {
        const order = r % 2 ? (['node', 'bare'] as const) : (['bare', 'node'] as const);
        for (const which of order)
          await kvRound(which === 'node' ? onNode : alone, `bench/${r}`, N / ROUNDS, VALUE, runs[which]);
      }
      for (const op of ['put', 'get'] as const)
        for (const p of [50, 99]) {
          const [n, b] = [percentile(runs.node[op], p), percentile(runs.bare[op], p)];
          figure(`${op} p${p} on the node`, n, 'ms');
          figure(`${op} p${p} bare`, b, 'ms');
          figure(`${op} p${p} ratio node / bare`, n / b, '×');
        }
      await bare.stop();
      bare = undefined;
    },
  );

  await group('machined RSS with etcd and containerd running (target ≤ 96 MiB for PID 1)', async () => {
    console.log('  (PID 1 on a QEMU node: test/bench/image/node-rss.bench.ts)');
    const m = await settledMemory(node, apiUp);
    figure('container mode, bundled as the image is: VmRSS (median of 15 s)', m.median.rss, 'MiB', {
      op: '<=',
      value: 96,
    });
    figure('  of which anonymous (RssAnon)', m.median.anon, 'MiB');
    figure('  of which file-backed (RssFile: node and its libraries)', m.median.file, 'MiB');
    figure('  highest sample', m.max.rss, 'MiB');
    for (const c of childrenOf(node.pid).filter((x) => ['etcd', 'containerd'].includes(x.comm)))
      figure(`${c.comm} VmRSS (for scale; not machined's)`, memoryOf(c.pid).rss, 'MiB');

    const fromSources = await upFrom();
    await bootstrapped(fromSources.node);
    const s = await settledMemory(fromSources.node, fromSources.apiUp);
    figure('container mode from the sources (node + tsx): VmRSS (median of 15 s)', s.median.rss, 'MiB');
    figure('  of which anonymous (RssAnon)', s.median.anon, 'MiB');
  });
} finally {
  process.off('SIGINT', interrupted);
  process.off('SIGTERM', interrupted);
  await teardown();
}
