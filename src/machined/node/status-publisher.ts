// MachineStatus changes onto the events bus as machine.MachineStatusEvent, as upstream's status
// publisher does: `reboot --wait` ends when it sees the stage running and ready.
import { MACHINE_STATUS_ID, MachineStatus, RUNTIME_NAMESPACE } from '../../../resources/runtime/index.js';
import type { CoreState } from '../../cosi/state/core.js';
import type { EventBus } from '../events/index.js';

/** publishMachineStatus mirrors every MachineStatus version onto the bus until the signal aborts. */
export async function publishMachineStatus(
  state: CoreState,
  events: EventBus,
  signal: AbortSignal,
): Promise<void> {
  const w = await state.watch(MachineStatus.pointer(MACHINE_STATUS_ID, RUNTIME_NAMESPACE), { signal });
  void (async () => {
    for await (const ev of w) {
      if (ev.type !== 'created' && ev.type !== 'updated') continue;
      const { stage, status } = (ev.resource as MachineStatus).spec;
      events.publish({
        type: 'machine.MachineStatusEvent',
        stage,
        status: { ready: status.ready, unmetConditions: status.unmetConditions.map((c) => ({ ...c })) },
      });
    }
  })();
}
