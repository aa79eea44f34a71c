import { describe, expect, it } from 'vitest';
import { DISK_IMAGE_LABEL, guidFromLabel } from '../../../../src/sys/block/gpt/label-guid.js';

describe('guidFromLabel', () => {
  // the values upstream's own test pins for its partition labels
  it.each([
    ['EFI', 'BCA5174B-0118-8A6A-AF0B-2C6E1585ACAE'],
    ['BOOT', '24C73076-4092-85DD-9D98-686A2DBF6D81'],
    ['META', 'CF04F137-101E-8EC6-9627-FA3F51CDABB8'],
    ['IMAGECACHE', '3B5449BC-C21F-8009-8B51-18945967F8DF'],
  ])('derives upstream’s GUID for %s', (label, guid) => {
    expect(guidFromLabel(label)).toBe(guid);
  });

  it('is a version 8, RFC variant GUID, and differs per label', () => {
    const disk = guidFromLabel(DISK_IMAGE_LABEL);
    expect(disk).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-8[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/);
    expect(guidFromLabel(DISK_IMAGE_LABEL)).toBe(disk);
    expect(guidFromLabel('STATE')).not.toBe(guidFromLabel('EPHEMERAL'));
  });
});
