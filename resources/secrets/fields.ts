// Field kinds of the secrets specs and how each travels: PEM pairs as upstream's common.PEMEncoded*
// messages (PEM bytes) and as base64 in YAML, IPs as common.NetIP, URLs as common.URL.
// A spec is declared once as an ordered field list; codec() derives its zero value and encodings.
import type { ProtoField, ProtoSchema } from '../../src/cosi/resource/proto-schema.js';
import type { ResourceTypeInput } from '../../src/cosi/resource/typed.js';
import { ipFromBytes, ipToBytes } from '../network/ip.js';

/** PEMCertificate is a certificate without its key (accepted CAs). */
export interface PEMCertificate {
  readonly crt: string;
}
/** CertificateAndKey is a PEM certificate and its PEM key (the shape src/pki mints). */
export interface CertificateAndKey {
  readonly crt: string;
  readonly key: string;
}

/** PEMEncodedKey is a bare PEM private key (the service-account key). */
export interface PEMEncodedKey {
  readonly key: string;
}

export type FieldKind = 'string' | 'strings' | 'bool' | 'pair' | 'certs' | 'key' | 'ips' | 'url';

/** A field: the YAML key (upstream's yaml tag), the protobuf number and the kind. */
export interface Field {
  readonly yaml: string;
  readonly no: number;
  readonly kind: FieldKind;
}

export const f = (yaml: string, no: number, kind: FieldKind): Field => ({ yaml, no, kind });

const pairSchema: ProtoSchema = { crt: { no: 1, kind: 'bytes' }, key: { no: 2, kind: 'bytes' } };
const certSchema: ProtoSchema = { crt: { no: 1, kind: 'bytes' } };
const keySchema: ProtoSchema = { key: { no: 1, kind: 'bytes' } };
const ipSchema: ProtoSchema = { ip: { no: 1, kind: 'bytes' } };
const urlSchema: ProtoSchema = { fullPath: { no: 1, kind: 'string' } };

const bytes = (s: string): Uint8Array => Buffer.from(s, 'utf8');
const text = (b: unknown): string => (b instanceof Uint8Array ? Buffer.from(b).toString('utf8') : '');
const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
const unb64 = (s: unknown): string =>
  typeof s === 'string' ? Buffer.from(s, 'base64').toString('utf8') : '';
const obj = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : {};
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function protoField(fd: Field): ProtoField {
  switch (fd.kind) {
    case 'string':
      return { no: fd.no, kind: 'string' };
    case 'strings':
      return { no: fd.no, kind: 'string', repeated: true };
    case 'bool':
      return { no: fd.no, kind: 'bool' };
    case 'pair':
      return { no: fd.no, kind: 'message', schema: pairSchema };
    case 'certs':
      return { no: fd.no, kind: 'message', schema: certSchema, repeated: true };
    case 'key':
      return { no: fd.no, kind: 'message', schema: keySchema };
    case 'ips':
      return { no: fd.no, kind: 'message', schema: ipSchema, repeated: true };
    case 'url':
      return { no: fd.no, kind: 'message', schema: urlSchema };
  }
}

function zero(kind: FieldKind): unknown {
  switch (kind) {
    case 'string':
      return '';
    case 'bool':
      return false;
    case 'strings':
    case 'certs':
    case 'ips':
      return [];
    default:
      return null;
  }
}

function toProtoValue(kind: FieldKind, v: unknown): unknown {
  if (v === null || v === undefined) return undefined;
  switch (kind) {
    case 'pair': {
      const p = v as CertificateAndKey;
      return { crt: bytes(p.crt), key: bytes(p.key) };
    }
    case 'certs':
      return (v as PEMCertificate[]).map((c) => ({ crt: bytes(c.crt) }));
    case 'key':
      return { key: bytes((v as PEMEncodedKey).key) };
    case 'ips':
      return (v as string[]).map((ip) => ({ ip: ipToBytes(ip) }));
    case 'url':
      return { fullPath: v };
    default:
      return v;
  }
}

function fromProtoValue(kind: FieldKind, v: unknown): unknown {
  if (v === undefined || v === null) return zero(kind);
  switch (kind) {
    case 'pair':
      return { crt: text(obj(v).crt), key: text(obj(v).key) };
    case 'certs':
      return list(v).map((c) => ({ crt: text(obj(c).crt) }));
    case 'key':
      return { key: text(obj(v).key) };
    case 'ips':
      return list(v).map((x) => ipFromBytes(obj(x).ip as Uint8Array));
    case 'url':
      return String(obj(v).fullPath ?? '');
    case 'strings':
      return list(v).map(String);
    default:
      return v;
  }
}

// upstream's x509 types marshal their PEM as base64 strings in YAML
function toYAMLValue(kind: FieldKind, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (kind) {
    case 'pair': {
      const p = v as CertificateAndKey;
      return { crt: b64(p.crt), key: b64(p.key) };
    }
    case 'certs':
      return (v as PEMCertificate[]).map((c) => ({ crt: b64(c.crt) }));
    case 'key':
      return { key: b64((v as PEMEncodedKey).key) };
    default:
      return v;
  }
}

function fromYAMLValue(kind: FieldKind, v: unknown): unknown {
  if (v === undefined || v === null) return zero(kind);
  switch (kind) {
    case 'pair':
      return { crt: unb64(obj(v).crt), key: unb64(obj(v).key) };
    case 'certs':
      return list(v).map((c) => ({ crt: unb64(obj(c).crt) }));
    case 'key':
      return { key: unb64(obj(v).key) };
    case 'strings':
    case 'ips':
      return list(v).map(String);
    default:
      return v;
  }
}

type Codec<S> = Pick<
  ResourceTypeInput<S>,
  'empty' | 'proto' | 'toProto' | 'fromProto' | 'toYAML' | 'fromYAML'
>;

/** codec derives a spec's zero value and its protobuf and YAML forms from its field list. */
export function codec<S extends object>(fields: { readonly [K in keyof S]: Field }): Codec<S> {
  const entries = Object.entries(fields) as [string, Field][];
  const proto: Record<string, ProtoField> = {};
  for (const [name, fd] of entries) proto[name] = protoField(fd);
  const build = (fn: (name: string, fd: Field) => unknown) =>
    Object.fromEntries(entries.map(([name, fd]) => [name, fn(name, fd)])) as S;
  return {
    empty: () => build((_, fd) => zero(fd.kind)),
    proto,
    toProto: (s) => {
      const out: Record<string, unknown> = {};
      for (const [name, fd] of entries)
        out[name] = toProtoValue(fd.kind, (s as Record<string, unknown>)[name]);
      return out;
    },
    fromProto: (v) => build((name, fd) => fromProtoValue(fd.kind, v[name])),
    // key order is the field list's order, which is upstream's struct order
    toYAML: (s) => {
      const out: Record<string, unknown> = {};
      for (const [name, fd] of entries)
        out[fd.yaml] = toYAMLValue(fd.kind, (s as Record<string, unknown>)[name]);
      return out;
    },
    fromYAML: (v) => build((_, fd) => fromYAMLValue(fd.kind, obj(v)[fd.yaml])),
  };
}
