// The protobuf wire format: a writer, a reader, wire types and the 64-bit helpers they share.
export { type Int64Like, isInt64, isUint64, joinInt64, joinUint64, splitInt64 } from './int64.js';
export { ProtoReader } from './wire-reader.js';
export { WireType } from './wire-type.js';
export { ProtoWriter, varintSize } from './wire-writer.js';
