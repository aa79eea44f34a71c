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
  it("is sensitive, its spec upstream's MachineConfigSpec { bytes yaml_marshalled = 1 }", () => {
    expect(MachineConfig.definition).toMatchObject({
      type: 'MachineConfigs.config.talos.dev',
      defaultNamespace: 'config',
      sensitivity: 'sensitive',
    });
    expect(MachineConfig.codec.proto).toEqual({ yamlMarshalled: { no: 1, kind: 'bytes' } });
  });

  it('prints the config as one YAML string and reads it back', () => {
    const r = MachineConfig.new('config', 'v1alpha1', { ...decode(CONFIG), text: CONFIG });
    // the spec is a string scalar holding the file, not a mapping: `edit` and `patch` read it as a file
    expect(specYAML(r)).toBe(`|\n${CONFIG.replace(/^(?=.)/gm, '    ')}`);
    const back = unmarshalResourceYAML(marshalResourceYAML(r), defaultRegistry);
    expect(MachineConfig.is(back) && back.equalSpec(r)).toBe(true);
    expect(MachineConfig.is(back) && back.spec.text).toBe(CONFIG);
  });

  it('carries every document of a multi-document config through proto_spec, byte for byte', () => {
    const text = `${CONFIG}---\napiVersion: v1alpha1\nkind: HostnameConfig\nhostname: node-1\n`;
    const r = MachineConfig.new('config', 'v1alpha1', { ...decode(text), text });
    const wire = decodeResource(encodeResource(r));
    expect(MachineConfig.is(wire) && wire.spec.text).toBe(text);
    expect(MachineConfig.is(wire) && wire.spec.documents.map((d) => d.kind)).toEqual([
      'v1alpha1',
      'HostnameConfig',
    ]);
    expect(MachineConfig.is(wire) && wire.equalSpec(r)).toBe(true);
  });

  it('re-emits the documents when the spec has no text of its own', () => {
    const r = MachineConfig.new('config', 'v1alpha1', decode(CONFIG));
    const wire = decodeResource(encodeResource(r));
    expect(MachineConfig.is(wire) && wire.spec.text).toContain('clusterName: demo');
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
