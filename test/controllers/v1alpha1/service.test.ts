import { afterEach, describe, expect, it } from 'vitest';
import { serviceController, specOf } from '../../../controllers/v1alpha1/service.js';
import { Service } from '../../../resources/v1alpha1/service.js';
import { Runtime, silentLogger } from '../../../src/cosi/controller/index.js';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';
import { wrapCore } from '../../../src/cosi/state/wrap.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { EventBus } from '../../../src/machined/events/bus.js';
import { LoggingManager } from '../../../src/machined/logging/manager.js';
import { inProcessRunner } from '../../../src/machined/services/in-process-runner.js';
import { Supervisor } from '../../../src/machined/services/supervisor.js';

const health = { healthy: true, unknown: false };

describe('specOf', () => {
  it('maps RUNNING to a spec and every other state to removal', () => {
    expect(specOf({ action: 'RUNNING', health })).toEqual({ running: true, healthy: true, unknown: false });
    for (const action of ['STOPPING', 'FINISHED', 'FAILED', 'WAITING', 'SKIPPED'])
      expect(specOf({ action, health })).toBeUndefined();
  });
});

const teardown: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const t of teardown.splice(0).reverse()) await t();
});

describe('v1alpha1.ServiceController', () => {
  it('mirrors the supervisor into Service resources', async () => {
    const state = wrapCore(newInmemState());
    const events = new EventBus();
    const supervisor = new Supervisor({ events, logs: new LoggingManager() });
    const stop = new AbortController();
    const runtime = new Runtime(state, { logger: silentLogger });
    runtime.register(serviceController(events));
    const running = runtime.run({ signal: stop.signal });
    teardown.push(async () => {
      stop.abort();
      await running;
    });
    teardown.push(() => supervisor.stopAll());

    let healthy = false;
    supervisor.load({
      id: 'apid',
      runner: () =>
        inProcessRunner(
          'apid',
          ({ signal }) => new Promise<void>((r) => signal.addEventListener('abort', () => r())),
        ),
      health: {
        check: async () => {
          if (!healthy) throw new Error('not listening yet');
        },
        settings: { initialDelayMs: 0, periodMs: 5, timeoutMs: 1000 },
      },
    });
    supervisor.start('apid');
    const opts = { signal: AbortSignal.timeout(10_000) };
    await assertResource(
      state,
      Service,
      'apid',
      (r) => expect(r.spec).toEqual({ running: true, healthy: false, unknown: false }),
      opts,
    );
    healthy = true;
    await assertResource(
      state,
      Service,
      'apid',
      (r) => expect(r.spec).toEqual({ running: true, healthy: true, unknown: false }),
      opts,
    );
    const r = await state.get(Service.pointer('apid'));
    expect(r.metadata.owner).toBe('v1alpha1.ServiceController');
    await supervisor.stop('apid');
    await assertNoResource(state, Service, 'apid', opts);
  });
});
