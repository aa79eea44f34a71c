// The config resources: definitions as upstream, MachineType's wire and YAML forms, MachineConfig's YAML.
import { describe, expect, it } from 'vitest';
import { MachineConfig, MachineType, registerConfigResources } from '../../resources/config/index.js';
import { decode } from '../../src/config/index.js';
import { decodeResource, encodeResource } from '../../src/cosi/resource/protobuf/index.js';
import { defaultRegistry } from '../../src/cosi/resource/registry.js';
import { marshalResourceYAML, specYAML, unmarshalResourceYAML } from '../../src/cosi/resource/yaml.js';
import { newInmemState } from '../../src/cosi/state/inmem/index.js';
import { wrapCore } from '../../src/cosi/state/wrap.js';

const CONFIG = `version: v1alpha1
machine:
    type: worker
    token: abcdef.0123456789abcdef
cluster:
    controlPlane:
        endpoint: https://10.5.0.2:6443
    clusterName: demo
`;

describe('MachineType', () => {
  it('is defined as upstream', () => {
    expect(MachineType.definition).toMatchObject({
      type: 'MachineTypes.config.talos.dev',
      defaultNamespace: 'config',
      printColumns: [{ name: 'Type', jsonPath: '{@}' }],
    });
    expect(MachineType.definition.sensitivity).toBeUndefined();
  });

  it.each(['unknown', 'init', 'controlplane', 'worker'] as const)(
    '%s travels as its enum value and YAML scalar',
    (type) => {
      const r = MachineType.new('config', 'machine-type', { type });
      expect(specYAML(r)).toBe(`${type}\n`);
      const back = decodeResource(encodeResource(r));
      expect(MachineType.is(back) && back.spec.type).toBe(type);
    },
  );

  it('encodes controlplane as machine_type = 2', () => {
    const r = MachineType.new('config', 'machine-type', { type: 'controlplane' });
    expect(MachineType.codec.toProto!(r.spec)).toEqual({ machineType: 2 });
  });
});

describe('MachineConfig', () => {
  it('is sensitive, with no protobuf schema', () => {
    expect(MachineConfig.definition).toMatchObject({
      type: 'MachineConfigs.config.talos.dev',
      defaultNamespace: 'config',
      sensitivity: 'sensitive',
    });
    expect(MachineConfig.codec.proto).toBeUndefined();
  });

  it('prints the config as its YAML spec and reads it back', () => {
    const r = MachineConfig.new('config', 'v1alpha1', decode(CONFIG));
    expect(specYAML(r)).toContain('clusterName: demo');
    expect(specYAML(r)).toContain('token: abcdef.0123456789abcdef');
    const back = unmarshalResourceYAML(marshalResourceYAML(r), defaultRegistry);
    expect(MachineConfig.is(back) && back.equalSpec(r)).toBe(true);
    // through the wire too: the YAML spec carries it
    const wire = decodeResource(encodeResource(r));
    expect(MachineConfig.is(wire) && wire.equalSpec(r)).toBe(true);
  });

  it('registers both definitions in a state', async () => {
    const state = wrapCore(newInmemState());
    await registerConfigResources(state);
    const defs = await state.list({ namespace: 'meta', type: 'ResourceDefinitions.meta.cosi.dev' });
    expect(defs.map((d) => d.metadata.id).sort()).toEqual([
      'machineconfigs.config.talos.dev',
      'machinetypes.config.talos.dev',
    ]);
  });
});
