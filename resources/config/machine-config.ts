// MachineConfigs.config.talos.dev: the applied machine config (`v1alpha1`) and the saved one (`persistent`).

import { parseAllDocuments, stringify } from 'yaml';
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
 * MachineConfigSpec is the decoded config container (src/config's Config has this shape), with the config's
 * bytes as the node encoded them. Resources import nothing but the COSI runtime, so the type is structural;
 * controllers read it through src/config's accessors.
 */
export interface MachineConfigSpec {
  readonly documents: readonly ConfigDocumentShape[];
  /** the whole config as one `---`-separated YAML stream; rebuilt from the documents when absent */
  readonly text?: string;
}

/** YAML_SPEC_ANNOTATION marks a MachineConfig whose YAML spec is the config as a string, as upstream sets it. */
export const YAML_SPEC_ANNOTATION = 'talos.dev/yaml-spec';

// the top-level keys that mark the legacy v1alpha1 document, which has no `kind`
const V1ALPHA1_KEYS = ['machine', 'cluster', 'debug', 'persist'];

/**
 * MachineConfig travels as upstream's: proto_spec is MachineConfigSpec { bytes yaml_marshalled = 1 }, and the
 * YAML spec is the same bytes as one string, so `edit`, `patch` and a read-back-and-reapply see the config
 * exactly as a file. It is sensitive because it holds every CA key of the cluster.
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
  proto: { yamlMarshalled: { no: 1, kind: 'bytes' } },
  toProto: (s) => ({ yamlMarshalled: Buffer.from(configText(s)) }),
  fromProto: (v) => configFromText(bytesText(v.yamlMarshalled)),
  toYAML: configText,
  fromYAML: (v) => (typeof v === 'string' ? configFromText(v) : configFromValues(v)),
});
export type MachineConfig = ResourceOf<typeof MachineConfig>;

/** configText is the config as one YAML stream: the node's own encoding, else each document re-emitted. */
export function configText(cfg: MachineConfigSpec): string {
  if (cfg.text !== undefined) return cfg.text;
  return cfg.documents.map((d) => stringify(d.spec, { indent: 4, lineWidth: 0 })).join('---\n');
}

/**
 * configFromText rebuilds the container from configText's output. Validation stays with the decoder: a
 * stream that is not YAML still round-trips as its text, with the documents it could read.
 */
export function configFromText(text: string): MachineConfigSpec {
  const docs = parseAllDocuments(text);
  const values = (Array.isArray(docs) ? docs : [])
    .filter((d) => d.errors.length === 0)
    .map((d) => d.toJS({ maxAliasCount: 100 }) as unknown)
    .filter((v) => v !== null && v !== undefined);
  return { ...configFromValues(values), text };
}

/** configFromValues rebuilds the container from plain documents (one, or a list of them). */
export function configFromValues(v: unknown): MachineConfigSpec {
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

const bytesText = (v: unknown): string =>
  v instanceof Uint8Array ? Buffer.from(v).toString('utf8') : typeof v === 'string' ? v : '';
