import { describe, expect, it } from 'vitest';
import { parseGuid } from '../../../../src/sys/block/gpt/guid.js';
import { PARTITION_TYPE, partitionTypeInfo } from '../../../../src/sys/block/gpt/types.js';

describe('known partition types', () => {
  it('holds the installer’s types as canonical GUIDs', () => {
    for (const g of Object.values(PARTITION_TYPE)) expect(parseGuid(g)).toBe(g);
    expect(PARTITION_TYPE.efiSystem).toBe('C12A7328-F81F-11D2-BA4B-00A0C93EC93B');
    expect(PARTITION_TYPE.biosBoot).toBe('21686148-6449-6E6F-744E-656564454649');
    expect(PARTITION_TYPE.linuxFilesystem).toBe('0FC63DAF-8483-4772-8E79-3D69D8477DE4');
    expect(PARTITION_TYPE.linuxSwap).toBe('0657FD6D-A4AB-43C4-84E5-0933C84B4F4F');
  });

  it('gives sgdisk’s name and code, whatever the case, and nothing for unknown types', () => {
    expect(partitionTypeInfo(PARTITION_TYPE.efiSystem.toLowerCase())).toEqual({
      name: 'EFI system partition',
      code: 'EF00',
    });
    expect(partitionTypeInfo(PARTITION_TYPE.biosBoot)?.code).toBe('EF02');
    expect(partitionTypeInfo('00000000-0000-0000-0000-000000000001')).toBeUndefined();
  });
});
