// DevicesStatuses.runtime.talos.dev as upstream defines it.
import { describe, expect, it } from 'vitest';
import { DEVICES_ID, DevicesStatus, RUNTIME_TYPES } from '../../../resources/runtime/index.js';
import { encodeSpec } from '../../../src/cosi/resource/protobuf/index.js';
import { decodeResource, encodeResource } from '../../../src/cosi/resource/protobuf/resource.js';
import { defaultRegistry } from '../../../src/cosi/resource/registry.js';
import { marshalResourceYAML, specYAML, unmarshalResourceYAML } from '../../../src/cosi/resource/yaml.js';

describe('DevicesStatus', () => {
  it('has upstream type, namespace, id and column', () => {
    expect(DevicesStatus.definition).toMatchObject({
      type: 'DevicesStatuses.runtime.talos.dev',
      defaultNamespace: 'runtime',
      printColumns: [{ name: 'Ready', jsonPath: '{.ready}' }],
    });
    expect(DEVICES_ID).toBe('devices');
    expect(RUNTIME_TYPES).toContain(DevicesStatus);
    expect(defaultRegistry.lookup(DevicesStatus.type)).toBe(DevicesStatus);
  });

  it('round-trips through protobuf (ready = 1) and YAML', () => {
    const r = DevicesStatus.new('runtime', DEVICES_ID, { ready: true });
    expect(Buffer.from(encodeSpec(r.spec, DevicesStatus.codec.proto!)).toString('hex')).toBe('0801');
    expect(specYAML(r)).toBe('ready: true\n');
    const back = decodeResource(encodeResource(r));
    expect(DevicesStatus.is(back) && back.spec).toEqual({ ready: true });
    expect(unmarshalResourceYAML(marshalResourceYAML(r)).spec).toEqual({ ready: true });
  });
});
