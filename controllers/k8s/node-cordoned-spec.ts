// k8s.NodeCordonedSpecController: NodeCordonedSpec `cordoned` while the machine is shutting down, upgrading
// or resetting, none while it boots or runs, and no change in any other stage, as upstream's.
import { NODE_CORDONED_ID, NodeCordonedSpec } from '../../resources/k8s/index.js';
import { MACHINE_STATUS_ID, type MachineStage, MachineStatus } from '../../resources/runtime/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';

export const NodeCordonedSpecController = defineController({
  name: 'k8s.NodeCordonedSpecController',
  inputs: [input(MachineStatus, { id: MACHINE_STATUS_ID })],
  outputs: [output(NodeCordonedSpec, 'exclusive')],
  async run(rt, { signal }) {
    for await (const _ of rt.events(signal)) {
      const status = await rt.getOrNull(MachineStatus, MACHINE_STATUS_ID, { signal });
      const cordon = status ? cordonFor(status.spec.stage) : undefined;
      if (cordon === undefined) continue;
      if (cordon) await rt.modify(NodeCordonedSpec, NODE_CORDONED_ID, () => ({}), { signal });
      else
        for (const r of await rt.list(NodeCordonedSpec, { signal }))
          await rt.destroy(NodeCordonedSpec.pointer(r.metadata.id, r.metadata.namespace), { signal });
      rt.resetBackoff();
    }
  },
});

/** cordonFor: whether a stage wants the node cordoned; undefined leaves it as it is. */
export function cordonFor(stage: MachineStage): boolean | undefined {
  switch (stage) {
    case 'shutting down':
    case 'upgrading':
    case 'resetting':
      return true;
    case 'booting':
    case 'running':
      return false;
    default:
      return undefined;
  }
}
