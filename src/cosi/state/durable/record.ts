// Record codec: one put or destroy as UTF-8 JSON, lossless for metadata, typed specs and opaque specs.
import YAML from 'yaml';
import type { Pointer } from '../../resource/kind.js';
import { Metadata } from '../../resource/metadata.js';
import { OpaqueResource } from '../../resource/opaque.js';
import { parsePhase } from '../../resource/phase.js';
import type { ResourceRegistry } from '../../resource/registry.js';
import { isTombstone, type Resource } from '../../resource/resource.js';
import { errUnencodable } from './errors.js';
import { fromTaggedJSON, type JSONValue, toTaggedJSON } from './tagged-json.js';

/** A typed spec is tagged JSON; an opaque one keeps its wire bytes and YAML as they came. */
type SpecDoc = { readonly json: JSONValue } | { readonly proto: string; readonly yaml: string };

export interface PutDoc {
  readonly op: 'put';
  readonly ns: string;
  readonly type: string;
  readonly id: string;
  readonly version: number | null;
  readonly owner: string;
  readonly phase: string;
  readonly created: number;
  readonly updated: number;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  readonly finalizers: readonly string[];
  readonly spec: SpecDoc;
}

export interface DestroyDoc {
  readonly op: 'destroy';
  readonly ns: string;
  readonly type: string;
  readonly id: string;
}

export type RecordDoc = PutDoc | DestroyDoc;

/** recordKey identifies a resource across records; JSON keeps any id unambiguous. */
export const recordKey = (p: Pointer): string => JSON.stringify([p.namespace, p.type, p.id]);

const utf8 = (doc: RecordDoc): Buffer => Buffer.from(JSON.stringify(doc), 'utf8');

/** encodePut captures the resource as it is now; later edits of `r` do not reach the record. */
export function encodePut(r: Resource): Buffer {
  if (isTombstone(r)) throw errUnencodable(recordKey(r.metadata), 'a tombstone');
  const md = r.metadata;
  const spec: SpecDoc =
    r instanceof OpaqueResource
      ? { proto: Buffer.from(r.spec.protoSpec).toString('base64'), yaml: r.spec.yamlSpec }
      : { json: toTaggedJSON(r.spec, `${md.type}(${md.namespace}/${md.id}).spec`) };
  return utf8({
    op: 'put',
    ns: md.namespace,
    type: md.type,
    id: md.id,
    version: md.version ?? null,
    owner: md.owner,
    phase: md.phase,
    created: md.created,
    updated: md.updated,
    labels: md.labels.raw(),
    annotations: md.annotations.raw(),
    finalizers: md.finalizers.list(),
    spec,
  });
}

export const encodeDestroy = (p: Pointer): Buffer =>
  utf8({ op: 'destroy', ns: p.namespace, type: p.type, id: p.id });

/** RecordError says why bytes with a good checksum are still not a record (a writer bug or a foreign file). */
export class RecordError extends Error {
  constructor(message: string, opts?: ErrorOptions) {
    super(message, opts);
    this.name = 'RecordError';
  }
}

type Doc = Record<string, unknown>;

const str = (d: Doc, k: string): string => {
  const v = d[k];
  if (typeof v !== 'string') throw new RecordError(`field ${k} is not a string`);
  return v;
};

const num = (d: Doc, k: string): number => {
  const v = d[k];
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new RecordError(`field ${k} is not a number`);
  return v;
};

const strings = (d: Doc, k: string): Record<string, string> => {
  const v = d[k];
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    throw new RecordError(`field ${k} is not a map`);
  for (const x of Object.values(v))
    if (typeof x !== 'string') throw new RecordError(`field ${k} holds a non-string`);
  return v as Record<string, string>;
};

/** A decoded spec: the data of a typed spec, or the wire form of an opaque one. */
export type StoredSpec = { readonly data: unknown } | { readonly proto: Uint8Array; readonly yaml: string };

export type StoredPut = Omit<PutDoc, 'spec'> & { readonly spec: StoredSpec };

export type StoredRecord = StoredPut | DestroyDoc;

const specOf = (d: Doc): StoredSpec => {
  const s = d.spec;
  if (s !== null && typeof s === 'object' && !Array.isArray(s)) {
    const sd = s as Doc;
    if (Object.hasOwn(sd, 'json')) {
      try {
        return { data: fromTaggedJSON(sd.json as JSONValue) };
      } catch (cause) {
        throw new RecordError('field spec is not tagged JSON', { cause });
      }
    }
    if (typeof sd.proto === 'string' && typeof sd.yaml === 'string')
      return { proto: new Uint8Array(Buffer.from(sd.proto, 'base64')), yaml: sd.yaml };
  }
  throw new RecordError('field spec is neither typed nor opaque');
};

/** decodeRecord parses a record and checks every field, so a bad record fails where it is read. */
export function decodeRecord(bytes: Uint8Array): StoredRecord {
  let d: unknown;
  try {
    d = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8'));
  } catch (cause) {
    throw new RecordError('record is not JSON', { cause });
  }
  if (d === null || typeof d !== 'object' || Array.isArray(d))
    throw new RecordError('record is not an object');
  const doc = d as Doc;
  const head = { ns: str(doc, 'ns'), type: str(doc, 'type'), id: str(doc, 'id') };
  if (doc.op === 'destroy') return { op: 'destroy', ...head };
  if (doc.op !== 'put') throw new RecordError(`unknown op ${JSON.stringify(doc.op)}`);
  const version = doc.version === null ? null : num(doc, 'version');
  if (version !== null && (!Number.isSafeInteger(version) || version < 0))
    throw new RecordError(`invalid version ${version}`);
  const finalizers = doc.finalizers;
  if (!Array.isArray(finalizers) || finalizers.some((f) => typeof f !== 'string'))
    throw new RecordError('field finalizers is not a list of strings');
  const phase = str(doc, 'phase');
  try {
    parsePhase(phase);
  } catch (cause) {
    throw new RecordError(`invalid phase ${JSON.stringify(phase)}`, { cause });
  }
  return {
    op: 'put',
    ...head,
    version,
    owner: str(doc, 'owner'),
    phase,
    created: num(doc, 'created'),
    updated: num(doc, 'updated'),
    labels: strings(doc, 'labels'),
    annotations: strings(doc, 'annotations'),
    finalizers: finalizers as string[],
    spec: specOf(doc),
  };
}

// An unregistered type still shows its spec to humans, so it is rendered as YAML.
const yamlOf = (spec: unknown): string => {
  try {
    return YAML.stringify(spec);
  } catch {
    return `${JSON.stringify(toTaggedJSON(spec))}\n`;
  }
};

/**
 * resourceOf rebuilds the stored resource. A type the registry does not know comes back as an
 * OpaqueResource (empty proto bytes, the spec rendered as YAML) instead of failing the load.
 */
export function resourceOf(doc: StoredPut, registry: ResourceRegistry): Resource {
  const md = new Metadata(doc.ns, doc.type, doc.id, {
    version: doc.version ?? undefined,
    owner: doc.owner,
    phase: parsePhase(doc.phase),
    created: doc.created,
    updated: doc.updated,
    labels: doc.labels,
    annotations: doc.annotations,
    finalizers: doc.finalizers,
  });
  const s = doc.spec;
  if ('proto' in s) return new OpaqueResource(md, { protoSpec: s.proto, yamlSpec: s.yaml });
  const rt = registry.lookup(doc.type);
  return rt
    ? rt.fromMetadata(md, s.data)
    : new OpaqueResource(md, { protoSpec: new Uint8Array(), yamlSpec: yamlOf(s.data) });
}
