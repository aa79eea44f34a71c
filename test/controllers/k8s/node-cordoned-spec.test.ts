// The cordon a node asks for: present while shutting down, upgrading or resetting, gone while booting or
// running, unchanged in the other stages, as upstream's.
import { describe, expect, it, onTestFinished } from 'vitest';
import { cordonFor, NodeCordonedSpecController } from '../../../controllers/k8s/node-cordoned-spec.js';
import { NODE_CORDONED_ID, NodeCordonedSpec } from '../../../resources/k8s/index.js';
import {
  MACHINE_STAGES,
  MACHINE_STATUS_ID,
  type MachineStage,
  MachineStatus,
} from '../../../resources/runtime/index.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { startRuntime } from '../secrets/env.js';

describe('cordonFor', () => {
  it('cordons on the way down, uncordons when booting or running, and leaves every other stage alone', () => {
    const by = Object.fromEntries(MACHINE_STAGES.map((s) => [s, cordonFor(s)]));
    expect(by).toEqual({
      unknown: undefined,
      booting: false,
      installing: undefined,
      maintenance: undefined,
      running: false,
      rebooting: undefined,
      'shutting down': true,
      resetting: true,
      upgrading: true,
    });
  });
});

describe('k8s.NodeCordonedSpecController', () => {
  it('follows the machine stage', async ({ signal }) => {
    const env = startRuntime([NodeCordonedSpecController]);
    onTestFinished(env.stop);
    const status = (stage: MachineStage) =>
      MachineStatus.new('runtime', MACHINE_STATUS_ID, {
        stage,
        status: { ready: false, unmetConditions: [] },
      });
    const stageTo = (stage: MachineStage) =>
      env.state.modify(status(stage), (r) => {
        r.spec = status(stage).spec;
      });
    await env.state.create(status('upgrading'));
    await assertResource(env.state, NodeCordonedSpec, NODE_CORDONED_ID, (r) => expect(r.spec).toEqual({}), {
      signal,
    });
    await stageTo('booting');
    await assertNoResource(env.state, NodeCordonedSpec, NODE_CORDONED_ID, { signal });
    await stageTo('shutting down');
    await assertResource(env.state, NodeCordonedSpec, NODE_CORDONED_ID, () => {}, { signal });
  });
});
