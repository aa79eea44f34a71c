// The labels a node asks for on its Kubernetes Node: the pure derivation as upstream decides it, and the
// controller publishing one NodeLabelSpec per key and dropping the ones the config no longer asks for.
import { describe, expect, it, onTestFinished } from 'vitest';
import { NodeLabelSpecController, nodeLabelsOf } from '../../../controllers/k8s/node-label-spec.js';
import { MachineConfig } from '../../../resources/config/index.js';
import { K8S_NAMESPACE, NodeLabelSpec } from '../../../resources/k8s/index.js';
import { decode } from '../../../src/config/index.js';
import { applyPatches, loadPatch } from '../../../src/config/patch/index.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { machineConfig, mintCluster, startRuntime } from '../secrets/env.js';

const ROLE = 'node-role.kubernetes.io/control-plane';
const cfg = (machine: string) => decode(`version: v1alpha1\nmachine:\n${machine}`);

describe('nodeLabelsOf', () => {
  it('gives a control plane (init too) the role label, a worker only its configured labels', () => {
    expect(nodeLabelsOf(cfg('  type: controlplane\n'))).toEqual({ [ROLE]: '' });
    expect(nodeLabelsOf(cfg('  type: init\n'))).toEqual({ [ROLE]: '' });
    expect(nodeLabelsOf(cfg('  type: worker\n  nodeLabels:\n    a.example.com/x: "1"\n'))).toEqual({
      'a.example.com/x': '1',
    });
  });

  it('keeps machine.nodeLabels beside the role label, the role label winning over a configured value', () => {
    const labels = nodeLabelsOf(
      cfg(`  type: controlplane\n  nodeLabels:\n    zone: a\n    ${ROLE}: "yes"\n`),
    );
    expect(labels).toEqual({ zone: 'a', [ROLE]: '' });
  });

  it('asks for nothing without a config or a machine section', () => {
    expect(nodeLabelsOf(undefined)).toEqual({});
    expect(nodeLabelsOf(decode('version: v1alpha1\ncluster:\n  clusterName: x\n'))).toEqual({});
  });

  it('reads a generated control plane config as upstream: the load balancer exclusion and the role', async () => {
    const { controlplane, worker } = await mintCluster();
    expect(nodeLabelsOf(controlplane)).toEqual({
      'node.kubernetes.io/exclude-from-external-load-balancers': '',
      [ROLE]: '',
    });
    expect(nodeLabelsOf(worker)).toEqual({});
  });
});

describe('k8s.NodeLabelSpecController', () => {
  it('publishes one spec per label, keyed by the label, and destroys a dropped one', async ({ signal }) => {
    const env = startRuntime([NodeLabelSpecController]);
    onTestFinished(env.stop);
    const { controlplane } = await mintCluster();
    const labelled = applyPatches(controlplane, [loadPatch('machine:\n  nodeLabels:\n    zone: a\n')]);
    await env.state.create(machineConfig(labelled));
    await assertResource(
      env.state,
      NodeLabelSpec,
      ROLE,
      (r) => expect(r.spec).toEqual({ key: ROLE, value: '' }),
      {
        signal,
      },
    );
    await assertResource(env.state, NodeLabelSpec, 'zone', (r) => expect(r.spec.value).toBe('a'), { signal });
    const r = await env.state.get(NodeLabelSpec.pointer('zone'));
    expect(r.metadata.namespace).toBe(K8S_NAMESPACE);
    expect(r.metadata.owner).toBe('k8s.NodeLabelSpecController');

    await env.state.modify(MachineConfig.new('config', 'v1alpha1'), (m) => {
      m.spec = machineConfig(controlplane).spec;
    });
    await assertNoResource(env.state, NodeLabelSpec, 'zone', { signal });
    expect(await env.state.get(NodeLabelSpec.pointer(ROLE))).toBeDefined();
  });
});
