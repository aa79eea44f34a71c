import { describe, expect, it } from 'vitest';
import {
  decodeEntry,
  decodeEntryArray,
  encodeEntry,
  encodeEntryArray,
  PARTITION_ATTR,
  type Partition,
} from '../../../../src/sys/block/gpt/entry.js';
import { GptError } from '../../../../src/sys/block/gpt/errors.js';
import { PARTITION_TYPE } from '../../../../src/sys/block/gpt/types.js';

const bios: Partition = {
  number: 2,
  type: PARTITION_TYPE.biosBoot,
  guid: '8115AE3D-3A1B-477F-85DB-82551432E4A7',
  firstLba: 22528n,
  lastLba: 24575n,
  attributes: PARTITION_ATTR.legacyBiosBootable,
  name: 'BIOS',
};

const errorOf = (f: () => unknown): GptError => {
  try {
    f();
  } catch (e) {
    if (e instanceof GptError) return e;
    throw e;
  }
  throw new Error('did not throw');
};

describe('partition entries', () => {
  it('lays out type, GUID, LBAs, attributes and a UTF-16LE name', () => {
    const b = encodeEntry(bios);
    expect(b.length).toBe(128);
    expect(b.subarray(0, 16).toString('hex')).toBe('4861682149646f6e744e656564454649');
    expect(b.readBigUInt64LE(32)).toBe(22528n);
    expect(b.readBigUInt64LE(40)).toBe(24575n);
    expect(b.readBigUInt64LE(48)).toBe(4n);
    expect(b.subarray(56, 64).toString('utf16le')).toBe('BIOS');
    expect(b.subarray(64).equals(Buffer.alloc(64))).toBe(true);
    expect(decodeEntry(b, 2)).toEqual(bios);
  });

  it('takes a name of exactly 36 code units, also outside the BMP', () => {
    const long = { ...bios, name: 'E'.repeat(36) };
    expect(decodeEntry(encodeEntry(long), 2)?.name).toBe(long.name);
    const emoji = { ...bios, name: `${'x'.repeat(34)}🗄` }; // one surrogate pair: 36 units
    expect(decodeEntry(encodeEntry(emoji), 2)?.name).toBe(emoji.name);
  });

  it('refuses a name of 37 code units, saying which and how long', () => {
    const e = errorOf(() => encodeEntry({ ...bios, name: 'N'.repeat(37) }));
    expect(e.code).toBe('name-too-long');
    expect(e.message).toBe(`partition 2: name "${'N'.repeat(37)}" is 37 UTF-16 code units, the most is 36`);
    expect(errorOf(() => encodeEntry({ ...bios, name: `${'x'.repeat(35)}🗄` })).code).toBe('name-too-long');
    expect(errorOf(() => encodeEntry({ ...bios, name: 'a\0b' })).code).toBe('invalid-argument');
  });

  it('reads an all-zero entry as unused', () => {
    expect(decodeEntry(Buffer.alloc(128), 1)).toBeUndefined();
  });

  it('puts each partition in its number’s slot and reads back only the used ones', () => {
    const esp: Partition = {
      ...bios,
      number: 1,
      type: PARTITION_TYPE.efiSystem,
      name: 'EFI',
      attributes: 0n,
    };
    const last: Partition = { ...bios, number: 128, name: 'LAST' };
    const array = encodeEntryArray([bios, esp, last], 128);
    expect(array.length).toBe(16384);
    expect(array.subarray(128 * 2, 128 * 127).equals(Buffer.alloc(128 * 125))).toBe(true);
    expect(decodeEntryArray(array, 128)).toEqual([esp, bios, last]);
    expect(errorOf(() => encodeEntryArray([{ ...bios, number: 129 }], 128)).message).toBe(
      'partition 129: the array has entries 1..128',
    );
  });
});
