// k8s.NodeAnnotationSpecController: a NodeAnnotationSpec per annotation the node's Kubernetes Node should
// carry, from machine.nodeAnnotations, as upstream's. (Upstream also annotates the node with the versions of
// its system extensions that are no valid label values; Keel has no extensions yet.)
import { MACHINE_CONFIG_ID, MachineConfig } from '../../resources/config/machine-config.js';
import { NodeAnnotationSpec } from '../../resources/k8s/index.js';
import { type Config, v1alpha1Of } from '../../src/config/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import { configOf } from '../config/config-of.js';

export const NodeAnnotationSpecController = defineController({
  name: 'k8s.NodeAnnotationSpecController',
  inputs: [input(MachineConfig, { id: MACHINE_CONFIG_ID })],
  outputs: [output(NodeAnnotationSpec, 'exclusive')],
  async run(rt, { signal }) {
    for await (const _ of rt.events(signal)) {
      const cfg = await rt.getOrNull(MachineConfig, MACHINE_CONFIG_ID, { signal });
      const annotations = nodeAnnotationsOf(cfg ? configOf(cfg.spec) : undefined);
      rt.startTrackingOutputs();
      for (const [key, value] of Object.entries(annotations))
        await rt.modify(NodeAnnotationSpec, key, () => ({ key, value }), { signal });
      await rt.cleanupOutputs(NodeAnnotationSpec);
    }
  },
});

/** nodeAnnotationsOf: the annotations a config asks for, by key (none without a machine section). */
export const nodeAnnotationsOf = (cfg: Config | undefined): Record<string, string> => ({
  ...(cfg ? v1alpha1Of(cfg)?.machine?.nodeAnnotations : undefined),
});
