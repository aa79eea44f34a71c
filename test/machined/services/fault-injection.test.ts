// Fault injection: a COSI controller that throws and an in-process service handler that throws, run
// together with the supervisor in one process, must not take that process (PID 1 in production) down.
import { afterEach, describe, expect, it } from 'vitest';
import { serviceController } from '../../../controllers/v1alpha1/service.js';
import { Service } from '../../../resources/v1alpha1/service.js';
import { defineController, Runtime } from '../../../src/cosi/controller/index.js';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';
import { wrapCore } from '../../../src/cosi/state/wrap.js';
import { assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { machinedLogger } from '../../../src/machined/logging/machined-log.js';
import { MACHINED_LOG } from '../../../src/machined/logging/manager.js';
import { inProcessRunner } from '../../../src/machined/services/in-process-runner.js';
import { processRunner } from '../../../src/machined/services/process-runner.js';
import { newSupervisor, node, tracked, waitService } from './helpers.js';

const kids = tracked();
const teardown: (() => Promise<void>)[] = [];
afterEach(async () => {
  try {
    for (const t of teardown.splice(0).reverse()) await t();
  } finally {
    kids.killAll();
  }
});

/** escaped records errors that reached the process level (what would kill PID 1). */
function watchProcessFaults() {
  const escaped: unknown[] = [];
  const onError = (e: unknown) => escaped.push(e);
  process.on('uncaughtException', onError);
  process.on('unhandledRejection', onError);
  teardown.push(async () => {
    process.off('uncaughtException', onError);
    process.off('unhandledRejection', onError);
  });
  return escaped;
}

describe('fault injection', () => {
  it('a throwing controller and a throwing service handler leave machined running', async () => {
    const escaped = watchProcessFaults();
    const { supervisor, events, logs } = newSupervisor();
    const log = machinedLogger(logs.serviceLog(MACHINED_LOG));
    const state = wrapCore(newInmemState());
    const runtime = new Runtime(state, {
      logger: log,
      restartBackoff: { initial: 1, multiplier: 2, randomization: 0, max: 20 },
    });

    let explosions = 0;
    let exploded!: () => void;
    const thrice = new Promise<void>((resolve) => {
      exploded = resolve;
    });
    runtime.register(
      defineController({
        name: 'test.ExplodingController',
        run() {
          if (++explosions === 3) exploded();
          throw new Error(`controller fault #${explosions}`);
        },
      }),
    );
    runtime.register(serviceController(events));
    const stopRuntime = new AbortController();
    const running = runtime.run({ signal: stopRuntime.signal });
    teardown.push(async () => {
      stopRuntime.abort();
      await running;
    });
    teardown.push(() => supervisor.stopAll());

    const fast = { delay: () => 1 };
    supervisor.load(
      {
        id: 'faulty-handler',
        backoff: fast,
        runner: () =>
          inProcessRunner('faulty-handler', async () => {
            await Promise.resolve();
            throw new TypeError('handler fault');
          }),
      },
      {
        id: 'worker',
        runner: () => processRunner({ args: node('setInterval(() => {}, 1000)'), spawn: kids.spawn }),
      },
    );
    supervisor.startAll();

    await thrice;
    await waitService(
      events,
      'faulty-handler',
      (e) => e.filter((x) => x.action === 'WAITING' && x.message.includes('handler fault')).length >= 3,
    );
    // the rest of machined keeps working: a sound controller mirrors a live process service
    await assertResource(state, Service, 'worker', (r) => expect(r.spec.running).toBe(true), {
      signal: AbortSignal.timeout(10_000),
    });
    expect(supervisor.info('worker').state).toBe('Running');
    expect(logs.serviceLog(MACHINED_LOG).slice().toString()).toContain('controller fault #');
    expect(escaped).toEqual([]);
  });
});
