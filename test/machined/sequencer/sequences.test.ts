import { afterEach, describe, expect, it } from 'vitest';
import { EventBus } from '../../../src/machined/events/bus.js';
import { LoggingManager } from '../../../src/machined/logging/manager.js';
import { Sequencer } from '../../../src/machined/sequencer/sequencer.js';
import { defaultSequences } from '../../../src/machined/sequencer/sequences.js';
import { isShuttingDown } from '../../../src/machined/services/errors.js';
import { inProcessRunner } from '../../../src/machined/services/in-process-runner.js';
import type { ServiceDefinition } from '../../../src/machined/services/service.js';
import { Supervisor } from '../../../src/machined/services/supervisor.js';

const idle = (id: string, dependsOn: string[] = []): ServiceDefinition => ({
  id,
  dependsOn,
  runner: () =>
    inProcessRunner(
      id,
      ({ signal }) => new Promise<void>((r) => signal.addEventListener('abort', () => r())),
    ),
});

const supervisors: Supervisor[] = [];
afterEach(async () => {
  await Promise.all(supervisors.splice(0).map((s) => s.stopAll()));
});

const setup = (withPower = false) => {
  const events = new EventBus();
  const supervisor = new Supervisor({ events, logs: new LoggingManager() });
  supervisors.push(supervisor);
  const lines: string[] = [];
  const powered: string[] = [];
  const sequencer = new Sequencer({
    events,
    log: (l) => lines.push(l),
    sequences: defaultSequences({
      services: supervisor,
      earlyServices: ['machined'],
      ...(withPower
        ? {
            power: {
              reboot: async () => void powered.push('reboot'),
              powerOff: async () => void powered.push('powerOff'),
            },
          }
        : {}),
    }),
  });
  return { events, supervisor, sequencer, lines, powered };
};

describe('default sequences', () => {
  it('initialize starts the early services, boot starts everything and waits for it', async () => {
    const { supervisor, sequencer, lines } = setup();
    supervisor.load(idle('machined'), idle('apid', ['machined']), idle('kubelet', ['apid']));
    await sequencer.run('initialize');
    expect(supervisor.info('machined').state).toBe('Running');
    expect(supervisor.info('apid').state).toBe('Initialized');
    expect(lines).toContain('task startMachined (1/1): starting');
    await sequencer.run('boot');
    expect(supervisor.list().map((s) => [s.id, s.up])).toEqual([
      ['apid', true],
      ['kubelet', true],
      ['machined', true],
    ]);
  });

  it('shutdown denies new services, stops everything, then powers off', async () => {
    const { supervisor, sequencer, powered } = setup(true);
    supervisor.load(idle('a'), idle('b', ['a']));
    supervisor.startAll();
    await supervisor.waitFor(['a', 'b'], { signal: AbortSignal.timeout(10_000) });
    await sequencer.run('shutdown');
    expect(supervisor.list().map((s) => s.state)).toEqual(['Finished', 'Finished']);
    expect(powered).toEqual(['powerOff']);
    let err: unknown;
    try {
      supervisor.load(idle('late'));
    } catch (e) {
      err = e;
    }
    expect(isShuttingDown(err)).toBe(true);
  });

  it('reboot ends in the reboot callback; without one it only stops services', async () => {
    const withPower = setup(true);
    await withPower.sequencer.run('reboot');
    expect(withPower.powered).toEqual(['reboot']);
    const without = setup();
    await without.sequencer.run('reboot');
    expect(without.lines.filter((l) => l.startsWith('phase ')).map((l) => l.split(' ')[1])).toEqual([
      'denyNewServices',
      'denyNewServices',
      'stopEverything',
      'stopEverything',
    ]);
  });

  it('install installs the plan, waits for the config on STATE, then stops everything', async () => {
    const events = new EventBus();
    const supervisor = new Supervisor({ events, logs: new LoggingManager() });
    supervisors.push(supervisor);
    supervisor.load(idle('machined'));
    const lines: string[] = [];
    const done: unknown[] = [];
    const sequencer = new Sequencer({
      events,
      log: (l) => lines.push(l),
      sequences: defaultSequences({
        services: supervisor,
        install: {
          install: async (plan) => void done.push(plan),
          waitForStateConfig: async () => void done.push('stored'),
        },
      }),
    });
    await sequencer.run('install', { data: { disk: '/dev/vda' } });
    expect(done).toEqual([{ disk: '/dev/vda' }, 'stored']);
    expect(lines.filter((l) => l.startsWith('phase ')).map((l) => l.split(' ')[1])).toEqual([
      'install',
      'install',
      'saveConfig',
      'saveConfig',
      'denyNewServices',
      'denyNewServices',
      'stopEverything',
      'stopEverything',
    ]);
    expect(supervisor.denied).toBe(true);
  });

  it('tears the volume lifecycle down after the services stop, before a wipe or the power-down', async () => {
    const events = new EventBus();
    const supervisor = new Supervisor({ events, logs: new LoggingManager() });
    supervisors.push(supervisor);
    const order: string[] = [];
    const sequencer = new Sequencer({
      events,
      log: () => {},
      sequences: defaultSequences({
        services: {
          start: (...ids) => supervisor.start(...ids),
          startAll: () => supervisor.startAll(),
          list: () => supervisor.list(),
          waitFor: (ids, o) => supervisor.waitFor(ids, o),
          denyNewServices: () => supervisor.denyNewServices(),
          stopAll: async (o) => {
            order.push('stopAll');
            await supervisor.stopAll(o);
          },
        },
        volumes: {
          mountEphemeral: async () => void order.push('mountEphemeral'),
          teardownLifecycle: async () => void order.push('teardownLifecycle'),
        },
        reset: { wipe: async () => void order.push('wipe') },
        install: {
          install: async () => void order.push('install'),
          waitForStateConfig: async () => void order.push('stored'),
        },
        power: {
          reboot: async () => void order.push('reboot'),
          powerOff: async () => void order.push('powerOff'),
        },
      }),
    });
    const steps = async (name: 'reset' | 'install' | 'reboot' | 'shutdown') => {
      order.length = 0;
      await sequencer.run(name, { force: true });
      return [...order];
    };
    expect(await steps('reset')).toEqual(['stopAll', 'teardownLifecycle', 'wipe']);
    expect(await steps('install')).toEqual(['install', 'stored', 'stopAll', 'teardownLifecycle']);
    expect(await steps('reboot')).toEqual(['stopAll', 'teardownLifecycle', 'reboot']);
    expect(await steps('shutdown')).toEqual(['stopAll', 'teardownLifecycle', 'powerOff']);
  });

  it('does not fake sequences whose subsystems do not exist yet', async () => {
    const { sequencer } = setup();
    for (const name of ['install', 'upgrade', 'stageUpgrade', 'reset'] as const)
      await expect(sequencer.run(name)).rejects.toMatchObject({ code: 'unsupported' });
  });
});
