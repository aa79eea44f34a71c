// machined hot paths: log ring writes (with chunk compression), event publishing, and supervisor start/stop.
import { EventBus } from '../../../src/machined/events/bus.js';
import { LoggingManager } from '../../../src/machined/logging/manager.js';
import { LogRing } from '../../../src/machined/logging/ring.js';
import { inProcessRunner } from '../../../src/machined/services/in-process-runner.js';
import { Supervisor } from '../../../src/machined/services/supervisor.js';
import { best, figure, group, nowMs } from '../harness.js';

await group('log ring, 2 cores (target ≥ 50 MiB/s of 100-byte lines, compression included)', async () => {
  const line = `${'x'.repeat(99)}\n`;
  const n = 200_000;
  const mibs = await best(3, async () => {
    const ring = new LogRing();
    const t0 = nowMs();
    for (let i = 0; i < n; i++) ring.write(line);
    return (n * line.length) / 2 ** 20 / ((nowMs() - t0) / 1000);
  });
  figure('write 100-byte lines', mibs, 'MiB/s', { op: '>=', value: 50 });
  const ring = new LogRing();
  for (let i = 0; i < 20_000; i++) ring.write(`${i} ${line}`);
  const t0 = nowMs();
  for (let i = 0; i < 100; i++) ring.tailOffset(100);
  figure('tail 100 lines of a full ring', (nowMs() - t0) / 100, 'ms');
});

// machined publishes a few events per second; the target keeps a burst (a crash loop, a boot) far from the limit
await group('events bus (target ≥ 100k publishes/s with 10 watchers)', async () => {
  const bus = new EventBus();
  const ac = new AbortController();
  const watchers = Array.from({ length: 10 }, async () => {
    for await (const _ of bus.watch({ signal: ac.signal })) {
      // drain
    }
  });
  const n = 200_000;
  const t0 = nowMs();
  for (let i = 0; i < n; i++) {
    bus.publish({ type: 'machine.TaskEvent', task: 't', action: 'START' });
    if (i % 500 === 0) await new Promise<void>((r) => setImmediate(r));
  }
  figure('publish', n / ((nowMs() - t0) / 1000), 'events/s', { op: '>=', value: 100_000 });
  ac.abort();
  await Promise.all(watchers);
});

await group('supervisor (target ≤ 50 ms to start and stop 100 chained in-process services)', async () => {
  const ms = await best(
    3,
    async () => {
      const sup = new Supervisor({ events: new EventBus({ capacity: 10_000 }), logs: new LoggingManager() });
      const ids = Array.from({ length: 100 }, (_, i) => `svc${i}`);
      sup.load(
        ...ids.map((id, i) => ({
          id,
          dependsOn: i > 0 ? [ids[i - 1]!] : [],
          runner: () =>
            inProcessRunner(
              id,
              ({ signal }) => new Promise<void>((r) => signal.addEventListener('abort', () => r())),
            ),
        })),
      );
      const t0 = nowMs();
      sup.startAll();
      await sup.waitFor(ids, { signal: AbortSignal.timeout(10_000) });
      await sup.stopAll();
      return nowMs() - t0;
    },
    false,
  );
  figure('start + stop 100 chained services', ms, 'ms', { op: '<=', value: 50 });
});
