// k8s.NodeTaintSpecController: a NodeTaintSpec per taint the node's Kubernetes Node should carry, as
// upstream's: on a control plane with a cluster section that does not allow scheduling on control planes,
// `node-role.kubernetes.io/control-plane:NoSchedule`; then machine.nodeTaints (`key: value:Effect`, or
// `key: Effect` for no value), a configured taint replacing the role's one of the same key.
import { MACHINE_CONFIG_ID, MachineConfig } from '../../resources/config/machine-config.js';
import { NodeTaintSpec, type NodeTaintSpecSpec } from '../../resources/k8s/index.js';
import { accessors, type Config, v1alpha1Of } from '../../src/config/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import { configOf } from '../config/config-of.js';
import { LABEL_NODE_ROLE_CONTROL_PLANE, TAINT_EFFECT_NO_SCHEDULE } from './internal/node-apply/constants.js';

export const NodeTaintSpecController = defineController({
  name: 'k8s.NodeTaintSpecController',
  inputs: [input(MachineConfig, { id: MACHINE_CONFIG_ID })],
  outputs: [output(NodeTaintSpec, 'exclusive')],
  async run(rt, { signal }) {
    for await (const _ of rt.events(signal)) {
      const cfg = await rt.getOrNull(MachineConfig, MACHINE_CONFIG_ID, { signal });
      const taints = nodeTaintsOf(cfg ? configOf(cfg.spec) : undefined);
      rt.startTrackingOutputs();
      for (const t of taints) await rt.modify(NodeTaintSpec, t.key, () => ({ ...t }), { signal });
      await rt.cleanupOutputs(NodeTaintSpec);
    }
  },
});

/** nodeTaintsOf: the taints a config asks for, one per key (a later one replacing an earlier one). */
export function nodeTaintsOf(cfg: Config | undefined): NodeTaintSpecSpec[] {
  const v1 = cfg ? v1alpha1Of(cfg) : undefined;
  if (!cfg || !v1?.machine) return [];
  const m = accessors(cfg);
  const taints = new Map<string, NodeTaintSpecSpec>();
  const type = m.machineType();
  if (v1.cluster && (type === 'controlplane' || type === 'init') && !scheduleOnControlPlanes(cfg))
    taints.set(LABEL_NODE_ROLE_CONTROL_PLANE, {
      key: LABEL_NODE_ROLE_CONTROL_PLANE,
      effect: TAINT_EFFECT_NO_SCHEDULE,
      value: '',
    });
  for (const [key, v] of Object.entries(m.nodeTaints())) taints.set(key, { key, ...parseTaintValue(v) });
  return [...taints.values()];
}

/** parseTaintValue splits `value:Effect` at the first colon; without one the whole string is the effect. */
export function parseTaintValue(v: string): { effect: string; value: string } {
  const colon = v.indexOf(':');
  return colon < 0 ? { effect: v, value: '' } : { effect: v.slice(colon + 1), value: v.slice(0, colon) };
}

/** scheduleOnControlPlanes: allowSchedulingOnControlPlanes when set, else the deprecated allowSchedulingOnMasters. */
export function scheduleOnControlPlanes(cfg: Config): boolean {
  const c = accessors(cfg).cluster();
  return c.allowSchedulingOnControlPlanes ?? c.allowSchedulingOnMasters ?? false;
}
