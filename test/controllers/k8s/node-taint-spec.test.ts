// The taints a node asks for on its Kubernetes Node: the control plane's NoSchedule taint exactly when
// upstream adds it, machine.nodeTaints parsed as upstream splits them, and the controller's specs.
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  NodeTaintSpecController,
  nodeTaintsOf,
  parseTaintValue,
  scheduleOnControlPlanes,
} from '../../../controllers/k8s/node-taint-spec.js';
import { MachineConfig } from '../../../resources/config/index.js';
import { NodeTaintSpec } from '../../../resources/k8s/index.js';
import { decode } from '../../../src/config/index.js';
import { applyPatches, loadPatch } from '../../../src/config/patch/index.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { machineConfig, mintCluster, startRuntime } from '../secrets/env.js';

const ROLE = 'node-role.kubernetes.io/control-plane';
const roleTaint = { key: ROLE, effect: 'NoSchedule', value: '' };
const cfg = (yaml: string) => decode(`version: v1alpha1\n${yaml}`);

describe('nodeTaintsOf', () => {
  it('taints a control plane (init too) NoSchedule, not a worker', () => {
    expect(nodeTaintsOf(cfg('machine:\n  type: controlplane\ncluster:\n  clusterName: x\n'))).toEqual([
      roleTaint,
    ]);
    expect(nodeTaintsOf(cfg('machine:\n  type: init\ncluster:\n  clusterName: x\n'))).toEqual([roleTaint]);
    expect(nodeTaintsOf(cfg('machine:\n  type: worker\ncluster:\n  clusterName: x\n'))).toEqual([]);
  });

  it('leaves the taint off when scheduling on control planes is allowed, the new field before the old', () => {
    const cp = (cluster: string) => cfg(`machine:\n  type: controlplane\ncluster:\n${cluster}`);
    expect(nodeTaintsOf(cp('  allowSchedulingOnControlPlanes: true\n'))).toEqual([]);
    expect(nodeTaintsOf(cp('  allowSchedulingOnMasters: true\n'))).toEqual([]);
    expect(
      nodeTaintsOf(cp('  allowSchedulingOnControlPlanes: false\n  allowSchedulingOnMasters: true\n')),
    ).toEqual([roleTaint]);
    expect(scheduleOnControlPlanes(cp('  allowSchedulingOnControlPlanes: false\n'))).toBe(false);
  });

  it('needs a cluster section for the role taint, as upstream, but not for configured taints', () => {
    expect(nodeTaintsOf(cfg('machine:\n  type: controlplane\n  nodeTaints:\n    a: NoExecute\n'))).toEqual([
      { key: 'a', effect: 'NoExecute', value: '' },
    ]);
    expect(nodeTaintsOf(undefined)).toEqual([]);
    expect(nodeTaintsOf(cfg('cluster:\n  clusterName: x\n'))).toEqual([]);
  });

  it('adds machine.nodeTaints, a configured one replacing the role taint of its key', () => {
    const taints = nodeTaintsOf(
      cfg(
        `machine:\n  type: controlplane\n  nodeTaints:\n    dedicated: gpu:NoSchedule\n    ${ROLE}: PreferNoSchedule\ncluster:\n  clusterName: x\n`,
      ),
    );
    expect(taints).toEqual([
      { key: ROLE, effect: 'PreferNoSchedule', value: '' },
      { key: 'dedicated', effect: 'NoSchedule', value: 'gpu' },
    ]);
  });

  it('splits value and effect at the first colon, a bare string being the effect', () => {
    expect(parseTaintValue('NoSchedule')).toEqual({ effect: 'NoSchedule', value: '' });
    expect(parseTaintValue('v:NoExecute')).toEqual({ effect: 'NoExecute', value: 'v' });
    expect(parseTaintValue('a:b:c')).toEqual({ effect: 'b:c', value: 'a' });
    expect(parseTaintValue(':NoSchedule')).toEqual({ effect: 'NoSchedule', value: '' });
  });

  it('taints a generated control plane config, not its worker', async () => {
    const { controlplane, worker } = await mintCluster();
    expect(nodeTaintsOf(controlplane)).toEqual([roleTaint]);
    expect(nodeTaintsOf(worker)).toEqual([]);
  });
});

describe('k8s.NodeTaintSpecController', () => {
  it('publishes the role taint, and destroys it once scheduling on control planes is allowed', async ({
    signal,
  }) => {
    const env = startRuntime([NodeTaintSpecController]);
    onTestFinished(env.stop);
    const { controlplane } = await mintCluster();
    await env.state.create(machineConfig(controlplane));
    await assertResource(env.state, NodeTaintSpec, ROLE, (r) => expect(r.spec).toEqual(roleTaint), {
      signal,
    });
    const allowed = applyPatches(controlplane, [
      loadPatch(
        'cluster:\n  allowSchedulingOnControlPlanes: true\nmachine:\n  nodeTaints:\n    x: y:NoExecute\n',
      ),
    ]);
    await env.state.modify(MachineConfig.new('config', 'v1alpha1'), (m) => {
      m.spec = machineConfig(allowed).spec;
    });
    await assertNoResource(env.state, NodeTaintSpec, ROLE, { signal });
    await assertResource(
      env.state,
      NodeTaintSpec,
      'x',
      (r) => expect(r.spec).toEqual({ key: 'x', effect: 'NoExecute', value: 'y' }),
      { signal },
    );
  });
});
