import { afterEach, describe, expect, it } from 'vitest';
import { RUNNING_MAINTENANCE_TASK } from '../../../controllers/runtime/machine-stage.js';
import {
  MACHINE_STATUS_CONTROLLER,
  machineStatusController,
} from '../../../controllers/runtime/machine-status.js';
import { NETWORK_STATUS_ID, NetworkStatus } from '../../../resources/network/index.js';
import { MACHINE_STATUS_ID, MachineStatus } from '../../../resources/runtime/index.js';
import { TIME_STATUS_ID, TimeStatus } from '../../../resources/time/index.js';
import { Service, ServiceSpec } from '../../../resources/v1alpha1/index.js';
import { Runtime, silentLogger } from '../../../src/cosi/controller/index.js';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';
import { wrapCore } from '../../../src/cosi/state/wrap.js';
import { assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { EventBus } from '../../../src/machined/events/bus.js';

const teardown: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const t of teardown.splice(0).reverse()) await t();
});

const opts = { signal: AbortSignal.timeout(10_000) };
const running = (healthy: boolean) => ({ running: true, healthy, unknown: false });

async function start(hostChecks: boolean) {
  const state = wrapCore(newInmemState());
  const events = new EventBus();
  const stop = new AbortController();
  const runtime = new Runtime(state, { logger: silentLogger });
  runtime.register(machineStatusController({ events, hostChecks }));
  const run = runtime.run({ signal: stop.signal });
  teardown.push(async () => {
    stop.abort();
    await run;
  });
  const status = (check: (s: MachineStatus['spec']) => void) =>
    assertResource(state, MachineStatus, MACHINE_STATUS_ID, (r) => check(r.spec), opts);
  return { state, events, status };
}

describe('runtime.MachineStatusController', () => {
  it('reports maintenance as ready with nothing to judge, as upstream', async () => {
    const { events, status } = await start(true);
    events.publish({ type: 'machine.TaskEvent', task: RUNNING_MAINTENANCE_TASK, action: 'START' });
    await status((s) =>
      expect(s).toEqual({ stage: 'maintenance', status: { ready: true, unmetConditions: [] } }),
    );
  });

  it('judges the clock, the network and the services once booting, and is ready when all hold', async () => {
    const { state, events, status } = await start(true);
    events.publish({ type: 'machine.SequenceEvent', sequence: 'boot', action: 'START' });
    await status((s) =>
      expect(s).toEqual({
        stage: 'booting',
        status: {
          ready: false,
          unmetConditions: [
            { name: 'time', reason: 'time status is not known yet' },
            { name: 'network', reason: 'network status is not known yet' },
            { name: 'services', reason: 'apid not running, machined not running' },
          ],
        },
      }),
    );
    await state.create(
      TimeStatus.new('runtime', TIME_STATUS_ID, { synced: true, epoch: 1, syncDisabled: false }),
    );
    await state.create(
      NetworkStatus.new('network', NETWORK_STATUS_ID, {
        addressReady: true,
        connectivityReady: true,
        hostnameReady: false,
        etcFilesReady: true,
      }),
    );
    await state.create(Service.new('runtime', 'apid', running(true)));
    await state.create(Service.new('runtime', 'machined', running(false)));
    events.publish({ type: 'machine.SequenceEvent', sequence: 'boot', action: 'STOP' });
    await status((s) =>
      expect(s).toEqual({
        stage: 'running',
        status: {
          ready: false,
          unmetConditions: [
            { name: 'network', reason: 'waiting on: hostname' },
            { name: 'services', reason: 'machined not healthy' },
          ],
        },
      }),
    );
    // a service a ServiceSpec asks for is required as soon as the spec exists
    await state.create(ServiceSpec.new('runtime', 'etcd'));
    await state.modify(Service.new('runtime', 'machined'), (r) => {
      (r as Service).spec = running(true);
    });
    await state.modify(NetworkStatus.new('network', NETWORK_STATUS_ID), (r) => {
      (r as NetworkStatus).spec.hostnameReady = true;
    });
    await status((s) =>
      expect(s.status).toEqual({
        ready: false,
        unmetConditions: [{ name: 'services', reason: 'etcd not running' }],
      }),
    );
    await state.create(Service.new('runtime', 'etcd', running(true)));
    await status((s) =>
      expect(s).toEqual({ stage: 'running', status: { ready: true, unmetConditions: [] } }),
    );
    const r = await state.get(MachineStatus.pointer(MACHINE_STATUS_ID));
    expect(r.metadata.owner).toBe(MACHINE_STATUS_CONTROLLER);

    events.publish({ type: 'machine.SequenceEvent', sequence: 'reboot', action: 'START' });
    await status((s) =>
      expect(s).toEqual({ stage: 'rebooting', status: { ready: true, unmetConditions: [] } }),
    );
  });

  it('in a container judges only the services (its clock and network are its host’s)', async () => {
    const { state, events, status } = await start(false);
    await state.create(Service.new('runtime', 'apid', running(true)));
    await state.create(Service.new('runtime', 'machined', running(true)));
    events.publish({ type: 'machine.SequenceEvent', sequence: 'boot', action: 'START' });
    events.publish({ type: 'machine.SequenceEvent', sequence: 'boot', action: 'STOP' });
    await status((s) =>
      expect(s).toEqual({ stage: 'running', status: { ready: true, unmetConditions: [] } }),
    );
  });

  it('reads the stage from events published before it ran', async () => {
    const state = wrapCore(newInmemState());
    const events = new EventBus();
    events.publish({ type: 'machine.TaskEvent', task: RUNNING_MAINTENANCE_TASK, action: 'START' });
    const stop = new AbortController();
    const runtime = new Runtime(state, { logger: silentLogger });
    runtime.register(machineStatusController({ events, hostChecks: true }));
    const run = runtime.run({ signal: stop.signal });
    teardown.push(async () => {
      stop.abort();
      await run;
    });
    await assertResource(
      state,
      MachineStatus,
      MACHINE_STATUS_ID,
      (r) => expect(r.spec.stage).toBe('maintenance'),
      opts,
    );
  });
});
