import { describe, expect, it } from 'vitest';
import { Service, V1ALPHA1_NAMESPACE, V1ALPHA1_TYPES } from '../../../resources/v1alpha1/index.js';
import {
  decodeResource,
  encodeResource,
  toProtoResource,
} from '../../../src/cosi/resource/protobuf/resource.js';
import { defaultRegistry } from '../../../src/cosi/resource/registry.js';

describe('Services.v1alpha1.talos.dev', () => {
  it('has upstream type, namespace, alias and columns', () => {
    expect(Service.type).toBe('Services.v1alpha1.talos.dev');
    expect(Service.defaultNamespace).toBe('runtime');
    expect(V1ALPHA1_NAMESPACE).toBe('runtime');
    expect(Service.definition.aliases).toContain('svc');
    expect(Service.definition.printColumns.map((c) => [c.name, c.jsonPath])).toEqual([
      ['Running', '{.running}'],
      ['Healthy', '{.healthy}'],
      ['Health Unknown', '{.unknown}'],
    ]);
    expect(V1ALPHA1_TYPES).toContain(Service);
    expect(defaultRegistry.lookup(Service.type)).toBe(Service);
  });

  it('round-trips through protobuf and renders YAML as upstream fields', () => {
    const r = Service.new(V1ALPHA1_NAMESPACE, 'apid', { running: true, healthy: false, unknown: true });
    const back = decodeResource(encodeResource(r));
    expect(Service.is(back)).toBe(true);
    expect(Service.is(back) && back.spec).toEqual({ running: true, healthy: false, unknown: true });
    expect(toProtoResource(r).spec?.yaml_spec).toBe('running: true\nhealthy: false\nunknown: true\n');
    expect(Service.codec.fromYAML?.({ running: true })).toEqual({
      running: true,
      healthy: false,
      unknown: false,
    });
  });
});
