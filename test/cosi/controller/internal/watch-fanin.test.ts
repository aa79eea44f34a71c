import { describe, expect, it } from 'vitest';
import { ResourceCache } from '../../../../src/cosi/controller/internal/cache.js';
import { metricsRegistry } from '../../../../src/cosi/controller/internal/metrics.js';
import { WatchFanIn } from '../../../../src/cosi/controller/internal/watch-fanin.js';
import { silentLogger } from '../../../../src/cosi/controller/logger.js';
import type { ReducedResourceMetadata } from '../../../../src/cosi/controller/qcontroller.js';
import { newInmemState } from '../../../../src/cosi/state/inmem/index.js';
import { wrapCore } from '../../../../src/cosi/state/wrap.js';
import { IntResource, newInt } from '../../../../src/cosi/testing/resources.js';

describe('WatchFanIn', () => {
  it('folds a burst of changes to one resource into one delivery with the latest metadata', async () => {
    const st = wrapCore(newInmemState());
    const kind = { namespace: 'ns', type: IntResource.type };
    const delivered: ReducedResourceMetadata[] = [];
    let wake: () => void = () => {};
    const fanIn = new WatchFanIn({
      state: st,
      cache: new ResourceCache([]),
      metrics: metricsRegistry(true),
      logger: silentLogger,
      deliver: (md) => {
        delivered.push(md);
        wake();
      },
      fail: (e) => {
        throw e;
      },
    });
    const ac = new AbortController();
    await fanIn.watch(kind); // recorded before start
    await fanIn.start(ac.signal);

    const r = newInt('ns', 'x', 0);
    await st.create(r);
    for (let i = 1; i <= 20; i++) {
      r.metadata.labels.set('step', String(i));
      await st.update(r);
    }
    await st.create(newInt('ns', 'y', 0));
    // deliveries come one drain at a time: wait until the last change of x has been seen
    await new Promise<void>((resolve) => {
      wake = () => {
        if (delivered.some((d) => d.id === 'y')) resolve();
      };
      wake();
    });
    const forX = delivered.filter((d) => d.id === 'x');
    // the 21 changes land before the next drain: one notification, carrying the last state
    expect(forX.length).toBe(1);
    expect(forX.at(-1)?.labels.get('step')).toBe('20');
    ac.abort();
    await fanIn.stop();
  });
});
