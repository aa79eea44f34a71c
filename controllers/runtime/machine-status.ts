// runtime.MachineStatusController: MachineStatus `machine` — the stage, read from machined's events, and
// whether the machine is ready at it: at the booting and running stages the clock, the network and the
// services are judged, as upstream's controller judges them (static pods and the node's readiness join
// with Kubernetes). The only writer of MachineStatus.
import { NETWORK_STATUS_ID, NetworkStatus } from '../../resources/network/index.js';
import { MACHINE_STATUS_ID, MachineStatus, type UnmetCondition } from '../../resources/runtime/index.js';
import { TIME_STATUS_ID, TimeStatus } from '../../resources/time/index.js';
import { Service, ServiceSpec } from '../../resources/v1alpha1/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import { INITIAL_STAGE, nextStage, type StageEventPayload, type StageState } from './machine-stage.js';
import { networkCondition, serviceCondition, timeCondition } from './readiness.js';

/** machined's events bus as this controller needs it: every kept event, then follow. */
export interface StageEventSource {
  watch(opts: {
    signal: AbortSignal;
    tailEvents: number;
  }): AsyncIterable<{ readonly payload: StageEventPayload }>;
}

export interface MachineStatusOptions {
  readonly events: StageEventSource;
  /**
   * whether the clock and the network are the node's to judge; a container's are its host's, and it
   * runs no time or network controllers
   */
  readonly hostChecks: boolean;
  /** services every node runs (upstream requires apid and machined too) */
  readonly requiredServices?: readonly string[];
}

export const MACHINE_STATUS_CONTROLLER = 'runtime.MachineStatusController';
const DEFAULT_REQUIRED = ['apid', 'machined'];

export function machineStatusController(opts: MachineStatusOptions) {
  // the stage is folded from the event stream by one watcher for the controller's whole life, as upstream:
  // a watcher started again on every run could find the first events scrolled out of the bus's history
  let stage: StageState = INITIAL_STAGE;
  let watching = false;
  let notify = (): void => {};
  let announced = false;
  const watch = (signal: AbortSignal, failed: (e: Error) => void) => {
    watching = true;
    void (async () => {
      try {
        for await (const ev of opts.events.watch({ signal, tailEvents: -1 })) {
          const next = nextStage(stage, ev.payload);
          if (next.stage !== stage.stage) notify();
          stage = next;
        }
      } catch (e) {
        // the next run starts a new watcher
        if (!signal.aborted) failed(e as Error);
      } finally {
        watching = false;
      }
    })();
  };

  return defineController({
    name: MACHINE_STATUS_CONTROLLER,
    inputs: [
      input(TimeStatus, { id: TIME_STATUS_ID }),
      input(NetworkStatus, { id: NETWORK_STATUS_ID }),
      input(Service),
      input(ServiceSpec),
    ],
    outputs: [output(MachineStatus, 'exclusive')],
    async run(rt, { signal, logger }) {
      notify = () => rt.queueReconcile();
      if (!watching) watch(signal, (e) => logger.error(`machine events: ${e.message}`));
      for await (const _ of rt.events(signal)) {
        const current = stage.stage;
        let unmetConditions: UnmetCondition[] = [];
        if (current === 'booting' || current === 'running') {
          const services = new Map((await rt.list(Service, { signal })).map((s) => [s.metadata.id, s.spec]));
          const wanted = (await rt.list(ServiceSpec, { signal })).map((s) => s.metadata.id);
          const required = [...(opts.requiredServices ?? DEFAULT_REQUIRED), ...wanted];
          unmetConditions = [
            ...(opts.hostChecks ? timeCondition((await rt.getOrNull(TimeStatus, TIME_STATUS_ID))?.spec) : []),
            ...(opts.hostChecks
              ? networkCondition((await rt.getOrNull(NetworkStatus, NETWORK_STATUS_ID))?.spec)
              : []),
            ...serviceCondition(services, [...new Set(required)]),
          ];
        }
        const ready = unmetConditions.length === 0;
        await rt.modify(
          MachineStatus,
          MACHINE_STATUS_ID,
          (s) => {
            s.stage = current;
            s.status = { ready, unmetConditions };
          },
          { signal },
        );
        if (current === 'running' && ready && !announced) {
          announced = true;
          logger.info('machine is running and ready');
        }
        rt.resetBackoff();
      }
    },
  });
}
