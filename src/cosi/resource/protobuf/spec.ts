// Spec codec: a plain spec object ↔ protobuf bytes, driven by the type's ProtoSchema.
//
// Encoding follows proto3 as protoc-gen-go writes it: fields in field-number order, scalars equal
// to their default omitted, repeated numeric scalars packed, maps as entries {key=1, value=2} with
// both parts always written, nested messages written whenever the property is set (even if empty).
// Map entries are sorted by key (deterministic output). Deliberate difference from protoenc (Go's
// struct-tag encoder behind dynamic specs): protoenc also writes zero-valued scalars and keeps
// struct field order; any protobuf decoder reads both forms to the same values.
// Decoding yields every schema field, zero values for absent ones, and skips unknown fields.
export { zeroSpec } from './schema.js';
export { decodeSpec } from './spec-decode.js';
export { encodeSpec } from './spec-encode.js';
