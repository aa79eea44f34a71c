import { describe, expect, it } from 'vitest';
import { isGptError } from '../../../../src/sys/block/gpt/errors.js';
import {
  guidFromBytes,
  guidToBytes,
  NIL_GUID,
  parseGuid,
  randomGuid,
} from '../../../../src/sys/block/gpt/guid.js';

// the EFI system partition type as it sits in an entry: the first three groups byte-swapped
const ESP = 'C12A7328-F81F-11D2-BA4B-00A0C93EC93B';
const ESP_ON_DISK = Buffer.from('28732ac11ff8d211ba4b00a0c93ec93b', 'hex');

describe('GUIDs', () => {
  it('lays a GUID out mixed-endian, as on disk', () => {
    expect(guidToBytes(ESP)).toEqual(ESP_ON_DISK);
    expect(guidFromBytes(ESP_ON_DISK)).toBe(ESP);
  });

  it('reads at an offset inside a larger buffer', () => {
    const b = Buffer.concat([Buffer.alloc(5, 0xff), ESP_ON_DISK]);
    expect(guidFromBytes(b.subarray(1), 4)).toBe(ESP);
  });

  it('normalises lowercase text to uppercase', () => {
    expect(parseGuid(ESP.toLowerCase())).toBe(ESP);
  });

  it('names the bad text and what it was for', () => {
    let err: unknown;
    try {
      parseGuid('C12A7328-F81F-11D2-BA4B-00A0C93EC93', 'partition 2 type');
    } catch (e) {
      err = e;
    }
    expect(isGptError(err, 'invalid-guid')).toBe(true);
    expect((err as Error).message).toBe(
      'partition 2 type: "C12A7328-F81F-11D2-BA4B-00A0C93EC93" is not a GUID (want 8-4-4-4-12 hex digits)',
    );
    expect(() => guidToBytes('not-a-guid')).toThrow(/"not-a-guid" is not a GUID/);
  });

  it('round-trips random GUIDs, which are version 4', () => {
    for (let i = 0; i < 50; i++) {
      const g = randomGuid();
      expect(g).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/);
      expect(guidFromBytes(guidToBytes(g))).toBe(g);
    }
    expect(guidToBytes(NIL_GUID)).toEqual(Buffer.alloc(16));
  });
});
