// MachineTypeController: the node's role from the active machine config.
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { MachineTypeController, machineTypeOf } from '../../../controllers/config/index.js';
import { MachineConfig, MachineType } from '../../../resources/config/index.js';
import type { Config, ConfigDocument } from '../../../src/config/index.js';
import { assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { type Cluster, mintCluster, startRuntime } from '../secrets/env.js';

let cluster: Cluster;
beforeAll(async () => {
  cluster = await mintCluster();
});

const typed = (cfg: Config, type: string): Config => ({
  documents: cfg.documents.map((d) =>
    d.kind === 'v1alpha1' ? withType(d as ConfigDocument<'v1alpha1'>, type) : d,
  ),
});

const withType = (d: ConfigDocument<'v1alpha1'>, type: string): ConfigDocument =>
  ({ ...d, spec: { ...d.spec, machine: { ...d.spec.machine, type } } }) as ConfigDocument;

describe('machineTypeOf', () => {
  it('is unknown without a config, and the config’s role otherwise', () => {
    expect(machineTypeOf(undefined)).toBe('unknown');
    expect(machineTypeOf({ documents: [] })).toBe('unknown');
    expect(machineTypeOf(cluster.controlplane)).toBe('controlplane');
    expect(machineTypeOf(cluster.worker)).toBe('worker');
    expect(machineTypeOf(typed(cluster.worker, 'init'))).toBe('init');
    expect(machineTypeOf(typed(cluster.worker, 'join'))).toBe('worker');
  });
});

describe('config.MachineTypeController', () => {
  it('publishes unknown before a config, then follows the config', async ({ signal }) => {
    const env = startRuntime([MachineTypeController]);
    onTestFinished(env.stop);
    await assertResource(env.state, MachineType, 'machine-type', (r) => expect(r.spec.type).toBe('unknown'), {
      signal,
    });
    await env.state.create(MachineConfig.new('config', 'v1alpha1', cluster.controlplane));
    await assertResource(
      env.state,
      MachineType,
      'machine-type',
      (r) => expect(r.spec.type).toBe('controlplane'),
      {
        signal,
      },
    );
    const mt = await env.state.get(MachineType.pointer('machine-type'));
    expect(mt.metadata.owner).toBe('config.MachineTypeController');
  });
});
