// The protobuf schema a spec type may declare, so its spec travels as proto_spec bytes (field numbers as upstream).

export type ProtoScalar =
  | 'string'
  | 'bytes'
  | 'bool'
  | 'int32'
  | 'int64'
  | 'uint32'
  | 'uint64'
  | 'sint32'
  | 'sint64'
  | 'fixed32'
  | 'fixed64'
  | 'sfixed32'
  | 'sfixed64'
  | 'double'
  | 'float'
  /** enums travel as varints and are held as numbers */
  | 'enum';

/** ProtoField maps one spec property to a protobuf field. */
export type ProtoField =
  | {
      readonly no: number;
      readonly kind: ProtoScalar;
      readonly repeated?: boolean;
      /** explicit presence (proto3 `optional`, a Go pointer): written even when zero, decoded as null when absent */
      readonly optional?: boolean;
    }
  /** a nested message, held as a plain object */
  | {
      readonly no: number;
      readonly kind: 'message';
      readonly schema: ProtoSchema;
      readonly repeated?: boolean;
    }
  /** google.protobuf.Timestamp, held as milliseconds since the epoch */
  | { readonly no: number; readonly kind: 'timestamp'; readonly repeated?: boolean }
  /** google.protobuf.Duration, held as milliseconds */
  | { readonly no: number; readonly kind: 'duration'; readonly repeated?: boolean }
  /** google.protobuf.Struct, held as a plain JSON object (a Go map[string]any) */
  | { readonly no: number; readonly kind: 'struct'; readonly repeated?: boolean }
  /** map<key, value>, held as a plain record */
  | {
      readonly no: number;
      readonly kind: 'map';
      readonly key: ProtoScalar;
      readonly value: ProtoScalar | { readonly schema: ProtoSchema };
    };

/** ProtoSchema: spec property name → field. Properties absent from the schema are not encoded. */
export type ProtoSchema = Readonly<Record<string, ProtoField>>;
