// k8s.NodeLabelSpecController: a NodeLabelSpec per label the node's Kubernetes Node should carry, as
// upstream's: machine.nodeLabels, and on a control plane `node-role.kubernetes.io/control-plane=""` (which
// wins over a configured value). Without a machine section there are none. (Upstream also labels the node
// with its system extensions' versions; Keel has no extensions yet.)
import { MACHINE_CONFIG_ID, MachineConfig } from '../../resources/config/machine-config.js';
import { NodeLabelSpec } from '../../resources/k8s/index.js';
import { accessors, type Config, v1alpha1Of } from '../../src/config/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import { configOf } from '../config/config-of.js';
import { LABEL_NODE_ROLE_CONTROL_PLANE } from './internal/node-apply/constants.js';

export const NodeLabelSpecController = defineController({
  name: 'k8s.NodeLabelSpecController',
  inputs: [input(MachineConfig, { id: MACHINE_CONFIG_ID })],
  outputs: [output(NodeLabelSpec, 'exclusive')],
  async run(rt, { signal }) {
    for await (const _ of rt.events(signal)) {
      const cfg = await rt.getOrNull(MachineConfig, MACHINE_CONFIG_ID, { signal });
      const labels = nodeLabelsOf(cfg ? configOf(cfg.spec) : undefined);
      rt.startTrackingOutputs();
      for (const [key, value] of Object.entries(labels))
        await rt.modify(NodeLabelSpec, key, () => ({ key, value }), { signal });
      await rt.cleanupOutputs(NodeLabelSpec);
    }
  },
});

/** nodeLabelsOf: the labels a config asks for, by key. */
export function nodeLabelsOf(cfg: Config | undefined): Record<string, string> {
  if (!cfg || !v1alpha1Of(cfg)?.machine) return {};
  const m = accessors(cfg);
  const labels = { ...m.nodeLabels() };
  const type = m.machineType();
  if (type === 'controlplane' || type === 'init') labels[LABEL_NODE_ROLE_CONTROL_PLANE] = '';
  return labels;
}
