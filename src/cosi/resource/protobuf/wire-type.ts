// The protobuf wire types: how a field's bytes are framed, packed into the low three bits of its key.

export const WireType = {
  Varint: 0,
  Fixed64: 1,
  Bytes: 2,
  StartGroup: 3,
  EndGroup: 4,
  Fixed32: 5,
} as const;

export type WireType = (typeof WireType)[keyof typeof WireType];
