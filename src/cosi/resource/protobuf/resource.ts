// Resources ↔ the cosi.resource.Resource message: as the gRPC proto loader's plain objects, and as bytes.
//
// toProtoResource is upstream's protobuf.FromResource + Marshal: typed specs are encoded by their
// schema and rendered as yaml_spec; opaque resources pass their bytes and YAML through; a tombstone
// carries metadata and an empty spec. fromProtoResource is protobuf.Unmarshal + UnmarshalResource:
// registered types decode (by schema, else from yaml_spec), everything else stays opaque.

import { pointerString } from '../kind.js';
import { Metadata } from '../metadata.js';
import { OpaqueResource } from '../opaque.js';
import { compareUTF8, goValue, parseYAML } from '../output/goyaml/index.js';
import { parsePhase } from '../phase.js';
import { defaultRegistry, type ResourceRegistry } from '../registry.js';
import { isTombstone, type Resource, resourceString } from '../resource.js';
import { TypedResource } from '../typed.js';
import { parseVersion, versionString } from '../version.js';
import { specYAML } from '../yaml.js';
import { ProtoError } from './errors.js';
import { decodeSpec, encodeSpec } from './spec.js';
import { timestampFromMs } from './time.js';
import { ProtoReader } from './wire-reader.js';
import { WireType } from './wire-type.js';
import { ProtoWriter } from './wire-writer.js';

/** google.protobuf.Timestamp as the proto loader gives it (longs as strings) and accepts it. */
export interface ProtoTimestamp {
  seconds?: string | number | bigint | { toString(): string } | null;
  nanos?: number | null;
}

/** cosi.resource.Metadata; every field may be absent, as the proto loader leaves unset ones out. */
export interface ProtoMetadata {
  namespace?: string;
  type?: string;
  id?: string;
  version?: string;
  owner?: string;
  phase?: string;
  created?: ProtoTimestamp | null;
  updated?: ProtoTimestamp | null;
  finalizers?: string[];
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** cosi.resource.Spec: proto_spec arrives as a Buffer (or base64 text under other loader options). */
export interface ProtoSpec {
  proto_spec?: Uint8Array | string | null;
  yaml_spec?: string;
}

/** cosi.resource.Resource in the proto loader's form (keepCase, longs as strings). */
export interface ProtoResource {
  metadata?: ProtoMetadata | null;
  spec?: ProtoSpec | null;
}

export interface ToProtoOptions {
  /** leave yaml_spec empty, as stores do (upstream's WithoutYAML) */
  readonly withoutYAML?: boolean;
}

export interface FromProtoOptions {
  /** where types are looked up; default: the process-wide registry */
  readonly registry?: ResourceRegistry;
  /** keep every spec opaque (upstream's WithSkipProtobufUnmarshal) */
  readonly skipProtobufUnmarshal?: boolean;
}

const EMPTY: Uint8Array = new Uint8Array(0);

const asBuffer = (b: Uint8Array): Buffer => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

function timestampToProto(ms: number): { seconds: string; nanos: number } {
  const t = timestampFromMs(Math.floor(ms));
  return { seconds: String(t.seconds), nanos: t.nanos };
}

/** metadataToProto is the Metadata message; version and phase travel as strings. */
export function metadataToProto(md: Metadata): ProtoMetadata {
  return {
    namespace: md.namespace,
    type: md.type,
    id: md.id,
    version: versionString(md.version),
    owner: md.owner,
    phase: md.phase,
    created: timestampToProto(md.created),
    updated: timestampToProto(md.updated),
    finalizers: [...md.finalizers.list()],
    labels: { ...md.labels.raw() },
    annotations: { ...md.annotations.raw() },
  };
}

/** An absent timestamp is the Unix epoch, as Go's AsTime of a nil Timestamp is. */
function timestampMs(t: ProtoTimestamp | null | undefined): number {
  if (!t) return 0;
  const seconds = Number(String(t.seconds ?? 0));
  return seconds * 1000 + Math.floor((t.nanos ?? 0) / 1e6);
}

/** metadataFromProto is NewMetadataFromProto: it rejects versions and phases that do not parse. */
export function metadataFromProto(pm: ProtoMetadata): Metadata {
  const where = `${pm.type ?? ''}(${pm.namespace ?? ''}/${pm.id ?? ''})`;
  const parse = <T>(what: string, f: () => T): T => {
    try {
      return f();
    } catch (cause) {
      const why = `metadata of ${where}: ${what}: ${(cause as Error).message}`;
      throw new ProtoError('invalid-message', why, { cause });
    }
  };
  return new Metadata(pm.namespace ?? '', pm.type ?? '', pm.id ?? '', {
    version: parse('version', () => parseVersion(pm.version ?? '')),
    phase: parse('phase', () => parsePhase(pm.phase ?? '')),
    owner: pm.owner ?? '',
    created: timestampMs(pm.created),
    updated: timestampMs(pm.updated),
    finalizers: pm.finalizers ?? [],
    labels: pm.labels ?? {},
    annotations: pm.annotations ?? {},
  });
}

/** toProtoResource builds the message the State API sends; yaml_spec is filled unless withoutYAML. */
export function toProtoResource(r: Resource, opts: ToProtoOptions = {}): ProtoResource {
  const metadata = metadataToProto(r.metadata);
  // a tombstone still carries an (empty) spec: receivers reject messages without one
  if (isTombstone(r)) return { metadata, spec: { proto_spec: asBuffer(EMPTY), yaml_spec: '' } };
  // opaque resources travel as they came, YAML included, like upstream's protobuf.Resource
  if (r instanceof OpaqueResource)
    return { metadata, spec: { proto_spec: asBuffer(r.spec.protoSpec), yaml_spec: r.spec.yamlSpec } };
  let protoSpec = EMPTY;
  if (r instanceof TypedResource && r.rtype.codec.proto) {
    const codec = r.rtype.codec;
    try {
      protoSpec = encodeSpec(codec.toProto ? codec.toProto(r.spec) : r.spec, codec.proto!);
    } catch (cause) {
      const why = `encoding the spec of ${resourceString(r)}: ${(cause as Error).message}`;
      throw new ProtoError('invalid-value', why, { cause });
    }
  }
  return {
    metadata,
    spec: { proto_spec: asBuffer(protoSpec), yaml_spec: opts.withoutYAML ? '' : specYAML(r) },
  };
}

/** bytesOf copies: loader Buffers may be views into a pooled buffer, and Buffer#slice does not copy. */
function bytesOf(b: Uint8Array | string | null | undefined): Uint8Array {
  if (b === null || b === undefined) return EMPTY;
  if (typeof b === 'string') return new Uint8Array(Buffer.from(b, 'base64'));
  return new Uint8Array(b);
}

/** fromProtoResource rebuilds a resource; a message without metadata or spec is an error, as upstream. */
export function fromProtoResource(msg: ProtoResource, opts: FromProtoOptions = {}): Resource {
  if (!msg.metadata) throw new ProtoError('invalid-message', 'metadata is missing');
  if (!msg.spec) throw new ProtoError('invalid-message', 'spec is missing');
  const md = metadataFromProto(msg.metadata);
  const protoSpec = bytesOf(msg.spec.proto_spec);
  const yamlSpec = msg.spec.yaml_spec ?? '';
  const rtype = opts.skipProtobufUnmarshal ? undefined : (opts.registry ?? defaultRegistry).lookup(md.type);
  if (rtype === undefined) return new OpaqueResource(md, { protoSpec, yamlSpec });
  const codec = rtype.codec;
  try {
    if (codec.proto) {
      const decoded = decodeSpec(protoSpec, codec.proto);
      return rtype.fromMetadata(md, codec.fromProto ? codec.fromProto(decoded) : decoded);
    }
    if (yamlSpec === '') throw new Error('the type has no protobuf schema and yaml_spec is empty');
    const value = goValue(parseYAML(yamlSpec), { ints: 'number', keys: 'text' });
    return rtype.fromMetadata(md, codec.fromYAML ? codec.fromYAML(value) : value);
  } catch (cause) {
    const why = `decoding the spec of ${pointerString(md)}: ${(cause as Error).message}`;
    throw new ProtoError('invalid-message', why, { cause });
  }
}

/** int64Of reads a loader long (number, decimal string, bigint or Long-like) without losing precision. */
function int64Of(v: ProtoTimestamp['seconds']): number | bigint {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'number' || typeof v === 'bigint') return v;
  const n = Number(String(v));
  return Number.isSafeInteger(n) ? n : BigInt(String(v));
}

function writeTimestamp(w: ProtoWriter, no: number, t: ProtoTimestamp): void {
  w.tag(no, WireType.Bytes);
  const mark = w.fork();
  const seconds = int64Of(t.seconds);
  if (seconds !== 0 && seconds !== 0n) w.tag(1, WireType.Varint).int64(seconds);
  if (t.nanos) w.tag(2, WireType.Varint).int32(t.nanos);
  w.join(mark);
}

function writeStringMap(w: ProtoWriter, no: number, m: Record<string, string> | undefined): void {
  if (!m) return;
  // sorted, as deterministic marshalling orders map keys
  for (const k of Object.keys(m).sort(compareUTF8)) {
    w.tag(no, WireType.Bytes);
    const mark = w.fork();
    w.tag(1, WireType.Bytes).string(k);
    w.tag(2, WireType.Bytes).string(m[k]!);
    w.join(mark);
  }
}

function writeMetadata(w: ProtoWriter, md: ProtoMetadata): void {
  const strings: [number, string | undefined][] = [
    [1, md.namespace],
    [2, md.type],
    [3, md.id],
    [4, md.version],
    [5, md.owner],
    [6, md.phase],
  ];
  for (const [no, s] of strings) if (s) w.tag(no, WireType.Bytes).string(s);
  if (md.created) writeTimestamp(w, 7, md.created);
  if (md.updated) writeTimestamp(w, 8, md.updated);
  for (const f of md.finalizers ?? []) w.tag(9, WireType.Bytes).string(f);
  writeStringMap(w, 10, md.labels);
  writeStringMap(w, 11, md.annotations);
}

/** encodeProtoResource writes the message in protobuf wire format (fields in number order, defaults omitted). */
export function encodeProtoResource(msg: ProtoResource): Uint8Array {
  const w = new ProtoWriter(256);
  if (msg.metadata) {
    w.tag(1, WireType.Bytes);
    const mark = w.fork();
    writeMetadata(w, msg.metadata);
    w.join(mark);
  }
  if (msg.spec) {
    w.tag(2, WireType.Bytes);
    const mark = w.fork();
    const ps = msg.spec.proto_spec;
    const proto = ps === null || ps === undefined || typeof ps === 'string' ? bytesOf(ps) : ps;
    if (proto.length > 0) w.tag(1, WireType.Bytes).bytes(proto);
    if (msg.spec.yaml_spec) w.tag(2, WireType.Bytes).string(msg.spec.yaml_spec);
    w.join(mark);
  }
  return w.finish();
}

function readTimestamp(r: ProtoReader): ProtoTimestamp {
  const t = { seconds: '0', nanos: 0 };
  while (!r.done()) {
    const tag = r.tag();
    if (tag === ((1 << 3) | WireType.Varint)) t.seconds = String(r.int64());
    else if (tag === ((2 << 3) | WireType.Varint)) t.nanos = r.int32();
    else r.skip(tag & 7, tag >>> 3);
  }
  return t;
}

function readMapEntry(r: ProtoReader, into: Record<string, string>): Record<string, string> {
  let k = '';
  let v = '';
  while (!r.done()) {
    const tag = r.tag();
    if (tag === ((1 << 3) | WireType.Bytes)) k = r.string();
    else if (tag === ((2 << 3) | WireType.Bytes)) v = r.string();
    else r.skip(tag & 7, tag >>> 3);
  }
  // "__proto__" is a legal label key; keep it an own property
  Object.defineProperty(into, k, { value: v, enumerable: true, writable: true, configurable: true });
  return into;
}

function readMetadata(r: ProtoReader, md: ProtoMetadata): void {
  while (!r.done()) {
    const tag = r.tag();
    const no = tag >>> 3;
    const wt = tag & 7;
    if (wt !== WireType.Bytes) {
      r.skip(wt, no);
      continue;
    }
    switch (no) {
      case 1:
        md.namespace = r.string();
        break;
      case 2:
        md.type = r.string();
        break;
      case 3:
        md.id = r.string();
        break;
      case 4:
        md.version = r.string();
        break;
      case 5:
        md.owner = r.string();
        break;
      case 6:
        md.phase = r.string();
        break;
      case 7:
        md.created = readTimestamp(r.sub());
        break;
      case 8:
        md.updated = readTimestamp(r.sub());
        break;
      case 9:
        md.finalizers = [...(md.finalizers ?? []), r.string()];
        break;
      case 10:
        md.labels = readMapEntry(r.sub(), md.labels ?? {});
        break;
      case 11:
        md.annotations = readMapEntry(r.sub(), md.annotations ?? {});
        break;
      default:
        r.skip(wt, no);
    }
  }
}

function readSpec(r: ProtoReader, spec: ProtoSpec): void {
  while (!r.done()) {
    const tag = r.tag();
    if (tag === ((1 << 3) | WireType.Bytes)) spec.proto_spec = r.bytes();
    else if (tag === ((2 << 3) | WireType.Bytes)) spec.yaml_spec = r.string();
    else r.skip(tag & 7, tag >>> 3);
  }
}

/** decodeProtoResource parses wire bytes into the proto loader's form; unset fields stay absent. */
export function decodeProtoResource(bytes: Uint8Array): ProtoResource {
  const r = new ProtoReader(bytes);
  const msg: ProtoResource = {};
  while (!r.done()) {
    const tag = r.tag();
    if (tag === ((1 << 3) | WireType.Bytes)) {
      // a repeated sub-message merges into the one before, as protobuf parsing does
      const md = msg.metadata ?? {};
      readMetadata(r.sub(), md);
      msg.metadata = md;
    } else if (tag === ((2 << 3) | WireType.Bytes)) {
      const spec = msg.spec ?? {};
      readSpec(r.sub(), spec);
      msg.spec = spec;
    } else r.skip(tag & 7, tag >>> 3);
  }
  return msg;
}

/** encodeResource is the Resource message as bytes, for stores that persist bytes. */
export const encodeResource = (r: Resource, opts: ToProtoOptions = {}): Uint8Array =>
  encodeProtoResource(toProtoResource(r, opts));

/** decodeResource reverses encodeResource. */
export const decodeResource = (bytes: Uint8Array, opts: FromProtoOptions = {}): Resource =>
  fromProtoResource(decodeProtoResource(bytes), opts);
