// Protobuf for resources: the wire writer/reader, schema-driven spec encoding, and the
// cosi.resource.Resource message in both the gRPC loader's plain-object form and as bytes.
export { isProtoError, ProtoError, type ProtoErrorCode } from './errors.js';
export {
  decodeProtoResource,
  decodeResource,
  encodeProtoResource,
  encodeResource,
  type FromProtoOptions,
  fromProtoResource,
  metadataFromProto,
  metadataToProto,
  type ProtoMetadata,
  type ProtoResource,
  type ProtoSpec,
  type ProtoTimestamp,
  type ToProtoOptions,
  toProtoResource,
} from './resource.js';
export { decodeSpec, encodeSpec, zeroSpec } from './spec.js';
export { durationFromMs, msFromProtoTime, type ProtoTime, timestampFromMs } from './time.js';
export {
  type Int64Like,
  isInt64,
  isUint64,
  joinInt64,
  joinUint64,
  ProtoReader,
  ProtoWriter,
  splitInt64,
  varintSize,
  WireType,
} from './wire.js';
