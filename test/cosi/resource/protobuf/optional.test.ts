// Scalars with explicit presence: a set zero is written, an absent field decodes as null.
import { describe, expect, it } from 'vitest';
import type { ProtoSchema } from '../../../../src/cosi/resource/proto-schema.js';
import { decodeSpec, encodeSpec } from '../../../../src/cosi/resource/protobuf/index.js';

const schema: ProtoSchema = {
  plain: { no: 1, kind: 'bool' },
  flag: { no: 2, kind: 'bool', optional: true },
  index: { no: 3, kind: 'uint32', optional: true },
};

describe('optional scalars', () => {
  it('writes a set zero value and reads it back', () => {
    const b = encodeSpec({ plain: false, flag: false, index: 0 }, schema);
    expect(Buffer.from(b).toString('hex')).toBe('10001800');
    expect(decodeSpec(b, schema)).toEqual({ plain: false, flag: false, index: 0 });
  });

  it('leaves null out and decodes an absent field as null', () => {
    const b = encodeSpec({ plain: true, flag: null, index: null }, schema);
    expect(Buffer.from(b).toString('hex')).toBe('0801');
    expect(decodeSpec(b, schema)).toEqual({ plain: true, flag: null, index: null });
  });

  it('keeps non-optional zero values off the wire', () => {
    expect(encodeSpec({ plain: false }, schema).length).toBe(0);
  });
});
