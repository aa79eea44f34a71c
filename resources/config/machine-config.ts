// MachineConfigs.config.talos.dev: the applied machine config (`v1alpha1`) and the saved one (`persistent`).
import { equalData } from '../../src/cosi/resource/data.js';
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';

export const CONFIG_NAMESPACE = 'config';
/** MACHINE_CONFIG_ID is the active config; MACHINE_CONFIG_PERSISTENT_ID the one on the STATE partition. */
export const MACHINE_CONFIG_ID = 'v1alpha1';
export const MACHINE_CONFIG_PERSISTENT_ID = 'persistent';

/** ConfigDocumentShape is one decoded document as the config room holds it: the whole document as data. */
export interface ConfigDocumentShape {
  readonly kind: string;
  readonly name?: string;
  readonly spec: unknown;
  readonly lines: ReadonlyMap<string, number>;
}

/**
 * MachineConfigSpec is the decoded config container (src/config's Config has this shape). Resources
 * import nothing but the COSI runtime, so the type is structural; controllers read it through
 * src/config's accessors.
 */
export interface MachineConfigSpec {
  readonly documents: readonly ConfigDocumentShape[];
}

// the top-level keys that mark the legacy v1alpha1 document, which has no `kind`
const V1ALPHA1_KEYS = ['machine', 'cluster', 'debug', 'persist'];

/**
 * MachineConfig carries no protobuf schema: upstream sends the raw config as the YAML spec only.
 * It is sensitive because it holds every CA key of the cluster.
 */
export const MachineConfig = defineResource<MachineConfigSpec>({
  type: 'MachineConfigs.config.talos.dev',
  defaultNamespace: CONFIG_NAMESPACE,
  sensitivity: 'sensitive',
  empty: () => ({ documents: [] }),
  // a decoded config is never edited in place: share it rather than clone every document
  copy: (s) => s,
  equal: (a, b) =>
    a === b ||
    (a.documents.length === b.documents.length &&
      a.documents.every(
        (d, i) => d.kind === b.documents[i]!.kind && equalData(d.spec, b.documents[i]!.spec),
      )),
  toYAML: configYAMLValue,
  fromYAML: configFromYAMLValue,
});
export type MachineConfig = ResourceOf<typeof MachineConfig>;

/** configYAMLValue is one document as itself, several as a list (one YAML node holds no document stream). */
export function configYAMLValue(cfg: MachineConfigSpec): unknown {
  const docs = cfg.documents.map((d) => d.spec);
  return docs.length === 1 ? docs[0] : docs;
}

/** configFromYAMLValue rebuilds the container from configYAMLValue's output; validation stays with the decoder. */
export function configFromYAMLValue(v: unknown): MachineConfigSpec {
  const docs = Array.isArray(v) ? v : v === null || v === undefined ? [] : [v];
  return {
    documents: docs.map((spec: Record<string, unknown>) => {
      const kind = typeof spec.kind === 'string' ? spec.kind : 'v1alpha1';
      const legacy = kind === 'v1alpha1' && V1ALPHA1_KEYS.some((k) => k in spec);
      if (!legacy && kind === 'v1alpha1') return { kind, spec, lines: new Map() };
      return typeof spec.name === 'string' && !legacy
        ? { kind, name: spec.name, spec, lines: new Map() }
        : { kind, spec, lines: new Map() };
    }),
  };
}
