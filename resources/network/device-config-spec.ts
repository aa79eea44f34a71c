// DeviceConfigSpecs.net.talos.dev: one legacy v1alpha1 `machine.network.interfaces[]` entry, as the config holds it.

import { cloneData, equalData } from '../../src/cosi/resource/data.js';
import { emitYAML, goValue, nodeFromValue, parseYAML } from '../../src/cosi/resource/output/goyaml/index.js';
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { NETWORK_NAMESPACE } from './hostname-status.js';
import { obj } from './yaml-read.js';

/** DeviceConfigSpecSpec: the device document as plain data in the config's own keys (interface, addresses …). */
export interface DeviceConfigSpecSpec {
  device: Record<string, unknown>;
}

const deviceYAML = (d: Record<string, unknown>): Uint8Array =>
  new TextEncoder().encode(emitYAML(nodeFromValue(d, 'device')));

function deviceOfYAML(b: Uint8Array | undefined): Record<string, unknown> {
  if (b === undefined || b.length === 0) return {};
  const n = parseYAML(new TextDecoder().decode(b));
  return n === undefined
    ? {}
    : (obj(goValue(n, { ints: 'number', keys: 'text' })) as Record<string, unknown>);
}

export const DeviceConfigSpec = defineResource<DeviceConfigSpecSpec>({
  type: 'DeviceConfigSpecs.net.talos.dev',
  defaultNamespace: NETWORK_NAMESPACE,
  sensitivity: 'sensitive',
  empty: () => ({ device: {} }),
  copy: cloneData,
  equal: equalData,
  // upstream carries the device as its YAML text in DeviceConfigSpecSpec.yaml_marshalled
  proto: { yamlMarshalled: { no: 1, kind: 'bytes' } },
  toProto: (s) => ({ yamlMarshalled: deviceYAML(s.device) }),
  fromProto: (v) => ({ device: deviceOfYAML(v.yamlMarshalled as Uint8Array | undefined) }),
  toYAML: (s) => ({ device: s.device }),
  fromYAML: (v) => ({ device: cloneData(obj(obj(v).device)) as Record<string, unknown> }),
});
export type DeviceConfigSpec = ResourceOf<typeof DeviceConfigSpec>;
