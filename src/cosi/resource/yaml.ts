// Resources as YAML, byte for byte what upstream's resource.MarshalYAML prints through yaml.v3.
//
// The document is a mapping of `metadata` then `spec`. Metadata is built from untagged nodes, as
// upstream builds it, so its scalars stay plain whenever YAML allows ("version: 3", "owner:").
// Typed specs render through their codec's toYAML with Go's Marshal rules (see goyaml/from-value.ts);
// opaque specs are their yaml_spec re-emitted with the styles it was written in.
import { cloneData } from './data.js';
import { Metadata } from './metadata.js';
import { OpaqueResource } from './opaque.js';
import {
  at,
  compareUTF8,
  emitYAML,
  formatRFC3339,
  goValue,
  nodeFromValue,
  parseRFC3339,
  parseYAML,
  stringNode,
  YAMLError,
  type YMap,
  type YNode,
  yMap,
  yNodeScalar,
  ySeq,
} from './output/goyaml/index.js';
import { parsePhase } from './phase.js';
import { defaultRegistry, type ResourceRegistry } from './registry.js';
import { isTombstone, type Resource, resourceString } from './resource.js';
import { TypedResource } from './typed.js';
import { parseVersion, versionString } from './version.js';

function kvNode(raw: Readonly<Record<string, string>>): YMap {
  return yMap(
    Object.keys(raw)
      .sort(compareUTF8)
      .map((k) => [yNodeScalar(k), yNodeScalar(raw[k]!)] as const),
  );
}

/** metadataNode mirrors Metadata.MarshalYAML: fixed key order, empty labels/annotations/finalizers left out. */
export function metadataNode(md: Metadata): YMap {
  const entries: [YNode, YNode][] = [
    [yNodeScalar('namespace'), yNodeScalar(md.namespace)],
    [yNodeScalar('type'), yNodeScalar(md.type)],
    [yNodeScalar('id'), yNodeScalar(md.id)],
    [yNodeScalar('version'), yNodeScalar(versionString(md.version))],
    [yNodeScalar('owner'), yNodeScalar(md.owner)],
    [yNodeScalar('phase'), yNodeScalar(md.phase)],
    [yNodeScalar('created'), yNodeScalar(formatRFC3339(md.created))],
    [yNodeScalar('updated'), yNodeScalar(formatRFC3339(md.updated))],
  ];
  if (!md.labels.empty()) entries.push([yNodeScalar('labels'), kvNode(md.labels.raw())]);
  if (!md.annotations.empty()) entries.push([yNodeScalar('annotations'), kvNode(md.annotations.raw())]);
  const fins = md.finalizers.list();
  if (fins.length > 0) entries.push([yNodeScalar('finalizers'), ySeq(fins.map(yNodeScalar))]);
  return yMap(entries);
}

/** specNode is the spec as a YAML tree: codec-rendered for typed resources, re-parsed yaml_spec for opaque ones. */
export function specNode(r: Resource): YNode {
  if (isTombstone(r)) throw new YAMLError('marshal', `${resourceString(r)} is a tombstone and has no spec`);
  if (r instanceof OpaqueResource) {
    const n = parseYAML(r.spec.yamlSpec);
    if (n === undefined) throw new YAMLError('marshal', `${resourceString(r)} carries no YAML spec`);
    return n;
  }
  if (r instanceof TypedResource) {
    const codec = r.rtype.codec;
    return nodeFromValue(codec.toYAML ? codec.toYAML(r.spec) : r.spec, 'spec');
  }
  return nodeFromValue(r.spec, 'spec');
}

/** resourceNode is the two-key document upstream's MarshalYAML returns. */
export const resourceNode = (r: Resource): YMap =>
  yMap([
    [stringNode('metadata'), metadataNode(r.metadata)],
    [stringNode('spec'), specNode(r)],
  ]);

/** marshalResourceYAML prints a resource as `yaml.Marshal(resource.MarshalYAML(r))` does. */
export const marshalResourceYAML = (r: Resource): string => emitYAML(resourceNode(r));

/**
 * specYAML is the yaml_spec of a resource: yaml.Marshal of its spec. Opaque resources pass theirs
 * through untouched; a tombstone has none.
 */
export function specYAML(r: Resource): string {
  if (isTombstone(r)) return '';
  if (r instanceof OpaqueResource) return r.spec.yamlSpec;
  return emitYAML(specNode(r));
}

const fail = (n: YNode, what: string) => new YAMLError('decode', `${at(n)}: ${what}`);

function scalarText(n: YNode, field: string): string {
  if (n.kind !== 'scalar') throw fail(n, `metadata.${field}: expected a scalar`);
  return n.value;
}

function parseScalar<T>(n: YNode, field: string, parse: (s: string) => T): T {
  const s = scalarText(n, field);
  try {
    return parse(s);
  } catch (cause) {
    throw new YAMLError('decode', `${at(n)}: metadata.${field}: ${(cause as Error).message}`, { cause });
  }
}

function timeOf(n: YNode, field: string): number {
  return parseScalar(n, field, (s) => {
    const ms = parseRFC3339(s);
    if (ms === undefined) throw new Error(`${JSON.stringify(s)} is not an RFC 3339 time`);
    return ms;
  });
}

function kvOf(n: YNode, field: string): Record<string, string> {
  if (n.kind !== 'map') throw fail(n, `metadata.${field}: expected a mapping`);
  const out: Record<string, string> = {};
  for (const [k, v] of n.entries) out[scalarText(k, field)] = scalarText(v, field);
  return out;
}

/** metadataFromNode mirrors Metadata.UnmarshalYAML; absent keys keep their zero values. */
export function metadataFromNode(n: YNode): Metadata {
  if (n.kind !== 'map') throw fail(n, 'metadata: expected a mapping');
  const md = new Metadata('', '', '', { created: 0, updated: 0 });
  for (const [k, v] of n.entries) {
    switch (scalarText(k, 'key')) {
      case 'namespace':
        md.namespace = scalarText(v, 'namespace');
        break;
      case 'type':
        md.type = scalarText(v, 'type');
        break;
      case 'id':
        md.id = scalarText(v, 'id');
        break;
      case 'version':
        md.version = parseScalar(v, 'version', parseVersion);
        break;
      case 'owner':
        md.owner = scalarText(v, 'owner');
        break;
      case 'phase':
        md.phase = parseScalar(v, 'phase', parsePhase);
        break;
      case 'created':
        md.created = timeOf(v, 'created');
        break;
      case 'updated':
        md.updated = timeOf(v, 'updated');
        break;
      case 'labels':
        md.labels.do((m) => Object.assign(m, kvOf(v, 'labels')));
        break;
      case 'annotations':
        md.annotations.do((m) => Object.assign(m, kvOf(v, 'annotations')));
        break;
      case 'finalizers':
        if (v.kind !== 'seq') throw fail(v, 'metadata.finalizers: expected a sequence');
        md.finalizers.set(v.items.map((x) => scalarText(x, 'finalizers')));
        break;
    }
  }
  return md;
}

/**
 * unmarshalResourceYAML reads a `{metadata, spec}` document back. A registered type yields a
 * TypedResource (its codec's fromYAML gets the decoded spec); any other type an OpaqueResource
 * whose yaml_spec is the spec re-emitted.
 */
export function unmarshalResourceYAML(text: string, registry: ResourceRegistry = defaultRegistry): Resource {
  const root = parseYAML(text);
  if (root === undefined || root.kind !== 'map')
    throw new YAMLError('decode', 'resource YAML: expected a mapping with metadata and spec');
  let mdNode: YNode | undefined;
  let spec: YNode | undefined;
  for (const [k, v] of root.entries) {
    const key = k.kind === 'scalar' ? k.value : '';
    if (key === 'metadata') mdNode = v;
    else if (key === 'spec') spec = v;
  }
  if (mdNode === undefined) throw fail(root, 'resource YAML: metadata is missing');
  if (spec === undefined) throw fail(root, 'resource YAML: spec is missing');
  const md = metadataFromNode(mdNode);
  const rtype = registry.lookup(md.type);
  if (rtype === undefined)
    return new OpaqueResource(md, { protoSpec: new Uint8Array(0), yamlSpec: emitYAML(spec) });
  const value = goValue(spec, { ints: 'number', keys: 'text' });
  return rtype.fromMetadata(md, rtype.codec.fromYAML ? rtype.codec.fromYAML(value) : cloneData(value));
}
