// The Config container: an ordered set of documents with at most one of each kind/name, and lookups.
import { type ConfigDocument, type DocumentTypes, type Kind, label, lineOf, V1ALPHA1 } from './document.js';
import { ConfigError, ConfigErrors } from './errors.js';

export interface Config {
  readonly documents: readonly ConfigDocument[];
}

/**
 * Kinds that configure one link each, by name: two of different kinds naming the same link conflict, as
 * upstream's ConflictsWithKinds says (VRFConfig among them, though Keel does not read it yet).
 */
const LINK_KINDS = new Set([
  'BondConfig',
  'BridgeConfig',
  'DummyLinkConfig',
  'LinkConfig',
  'VLANConfig',
  'VRFConfig',
  'WireguardConfig',
]);

/** linkConflicts finds a link that documents of two link kinds both configure. */
function linkConflicts(documents: readonly ConfigDocument[]): ConfigError[] {
  const errors: ConfigError[] = [];
  const first = new Map<string, ConfigDocument>();
  for (const d of documents) {
    if (!LINK_KINDS.has(d.kind) || d.name === undefined) continue;
    const earlier = first.get(d.name);
    if (!earlier) first.set(d.name, d);
    else if (earlier.kind !== d.kind) {
      const msg = `conflicting documents: ${label(earlier)} and ${label(d)}`;
      errors.push(new ConfigError('conflict', label(d), 'name', lineOf(d.lines, 'name'), msg));
    }
  }
  return errors;
}

/** containerErrors finds duplicate documents and links configured twice. */
export function containerErrors(documents: readonly ConfigDocument[]): ConfigError[] {
  const errors: ConfigError[] = [];
  const seen = new Set<string>();
  for (const d of documents) {
    const id = label(d);
    if (seen.has(id)) {
      const what =
        d.kind === V1ALPHA1
          ? 'duplicate v1alpha1.Config'
          : `duplicate document v1alpha1/${id} is not allowed`;
      errors.push(new ConfigError('duplicate', id, '', lineOf(d.lines, ''), what));
    }
    seen.add(id);
  }
  const v1 = documents.find((d): d is ConfigDocument<'v1alpha1'> => d.kind === V1ALPHA1);
  const legacy = new Map<string, number>();
  v1?.spec.machine?.network?.interfaces?.forEach((dev, i) => {
    if (dev.interface) legacy.set(dev.interface, i);
  });
  for (const d of documents) {
    if (d.kind !== 'LinkConfig' || d.name === undefined || !legacy.has(d.name)) continue;
    const msg = `conflicting link configurations: v1alpha1 and ${label(d)} both configure ${JSON.stringify(d.name)}`;
    errors.push(new ConfigError('conflict', label(d), 'name', lineOf(d.lines, 'name'), msg));
  }
  errors.push(...linkConflicts(documents));
  return errors;
}

/** newConfig builds a container, throwing ConfigErrors on duplicates and conflicts. */
export function newConfig(documents: readonly ConfigDocument[]): Config {
  const errors = containerErrors(documents);
  if (errors.length > 0) throw new ConfigErrors(errors);
  return { documents };
}

export const v1alpha1Document = (cfg: Config): ConfigDocument<'v1alpha1'> | undefined =>
  cfg.documents.find((d): d is ConfigDocument<'v1alpha1'> => d.kind === V1ALPHA1);

export const v1alpha1Of = (cfg: Config): DocumentTypes['v1alpha1'] | undefined => v1alpha1Document(cfg)?.spec;

/** documentsOf lists the documents of one kind, in file order. */
export const documentsOf = <K extends Kind>(cfg: Config, kind: K): ConfigDocument<K>[] =>
  cfg.documents.filter((d): d is ConfigDocument<K> => d.kind === kind);

/** documentOf returns the spec of the (only, or named) document of a kind. */
export function documentOf<K extends Kind>(
  cfg: Config,
  kind: K,
  name?: string,
): DocumentTypes[K] | undefined {
  return documentsOf(cfg, kind).find((d) => name === undefined || d.name === name)?.spec;
}
