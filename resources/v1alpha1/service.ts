// Services.v1alpha1.talos.dev: whether each supervised service runs and how its health check stands.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';

/** The v1alpha1 resources live in the runtime namespace, as upstream's v1alpha1.NamespaceName. */
export const V1ALPHA1_NAMESPACE = 'runtime';

/** ServiceStateSpec mirrors the supervisor: running, and healthy/unknown from the last health check. */
export interface ServiceStateSpec {
  running: boolean;
  healthy: boolean;
  unknown: boolean;
}

const bool = (v: unknown): boolean => v === true;

export const Service = defineResource<ServiceStateSpec>({
  type: 'Services.v1alpha1.talos.dev',
  defaultNamespace: V1ALPHA1_NAMESPACE,
  aliases: ['svc'],
  printColumns: [
    { name: 'Running', jsonPath: '{.running}' },
    { name: 'Healthy', jsonPath: '{.healthy}' },
    { name: 'Health Unknown', jsonPath: '{.unknown}' },
  ],
  empty: () => ({ running: false, healthy: false, unknown: false }),
  copy: (s) => ({ running: s.running, healthy: s.healthy, unknown: s.unknown }),
  equal: (a, b) => a.running === b.running && a.healthy === b.healthy && a.unknown === b.unknown,
  proto: {
    running: { no: 1, kind: 'bool' },
    healthy: { no: 2, kind: 'bool' },
    unknown: { no: 3, kind: 'bool' },
  },
  fromProto: (v) => ({ running: bool(v.running), healthy: bool(v.healthy), unknown: bool(v.unknown) }),
  fromYAML: (v) => {
    const o = (v ?? {}) as Record<string, unknown>;
    return { running: bool(o.running), healthy: bool(o.healthy), unknown: bool(o.unknown) };
  },
});
export type Service = ResourceOf<typeof Service>;
