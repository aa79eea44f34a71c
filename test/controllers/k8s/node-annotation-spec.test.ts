// The annotations a node asks for on its Kubernetes Node: machine.nodeAnnotations, one spec per key.
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  NodeAnnotationSpecController,
  nodeAnnotationsOf,
} from '../../../controllers/k8s/node-annotation-spec.js';
import { MachineConfig } from '../../../resources/config/index.js';
import { NodeAnnotationSpec } from '../../../resources/k8s/index.js';
import { decode } from '../../../src/config/index.js';
import { applyPatches, loadPatch } from '../../../src/config/patch/index.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { machineConfig, mintCluster, startRuntime } from '../secrets/env.js';

describe('nodeAnnotationsOf', () => {
  it('copies machine.nodeAnnotations, and nothing for a control plane by its role', () => {
    const cfg = decode('version: v1alpha1\nmachine:\n  type: controlplane\n  nodeAnnotations:\n    a/b: c\n');
    expect(nodeAnnotationsOf(cfg)).toEqual({ 'a/b': 'c' });
    expect(nodeAnnotationsOf(decode('version: v1alpha1\nmachine:\n  type: controlplane\n'))).toEqual({});
    expect(nodeAnnotationsOf(undefined)).toEqual({});
  });
});

describe('k8s.NodeAnnotationSpecController', () => {
  it('publishes one spec per annotation and destroys a dropped one', async ({ signal }) => {
    const env = startRuntime([NodeAnnotationSpecController]);
    onTestFinished(env.stop);
    const { worker } = await mintCluster();
    const two = applyPatches(worker, [
      loadPatch('machine:\n  nodeAnnotations:\n    one: "1"\n    two: "2"\n'),
    ]);
    await env.state.create(machineConfig(two));
    await assertResource(
      env.state,
      NodeAnnotationSpec,
      'one',
      (r) => expect(r.spec).toEqual({ key: 'one', value: '1' }),
      {
        signal,
      },
    );
    await assertResource(env.state, NodeAnnotationSpec, 'two', (r) => expect(r.spec.value).toBe('2'), {
      signal,
    });
    const one = applyPatches(worker, [loadPatch('machine:\n  nodeAnnotations:\n    one: "1"\n')]);
    await env.state.modify(MachineConfig.new('config', 'v1alpha1'), (m) => {
      m.spec = machineConfig(one).spec;
    });
    await assertNoResource(env.state, NodeAnnotationSpec, 'two', { signal });
    expect((await env.state.get(NodeAnnotationSpec.pointer('one'))).spec).toEqual({ key: 'one', value: '1' });
  });
});
