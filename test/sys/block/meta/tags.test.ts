// Tag numbers from siderolabs/talos pkg/machinery/meta/constants.go (iota + 6 from Upgrade), the reserved
// ones from go-adv's constants (0 End, 1–2 syslinux), and MetaKey IDs spelled as hex (`0x0a`).
import { describe, expect, it } from 'vitest';
import { checkWritableTag, formatTag, MetaTag, parseTag } from '../../../../src/sys/block/meta/index.js';

describe('META tags', () => {
  it('has upstream names and numbers', () => {
    expect(MetaTag).toEqual({
      Upgrade: 6,
      StagedUpgradeImageRef: 7,
      StagedUpgradeInstallOptions: 8,
      StateEncryptionConfig: 9,
      MetalNetworkPlatformConfig: 10,
      DownloadURLCode: 11,
      UserReserved1: 12,
      UserReserved2: 13,
      UserReserved3: 14,
      UUIDOverride: 15,
      UniqueMachineToken: 16,
      DiskImageBootloader: 17,
      StagedWipeSelectors: 18,
    });
  });

  it('spells tags as MetaKey IDs and reads them back as talosctl takes them', () => {
    expect(formatTag(MetaTag.MetalNetworkPlatformConfig)).toBe('0x0a');
    expect(formatTag(255)).toBe('0xff');
    expect(parseTag('0x0a')).toBe(10);
    expect(parseTag('0xA')).toBe(10);
    expect(parseTag('10')).toBe(10);
    expect(() => parseTag('0x100')).toThrow(/tag "0x100": not a u8/);
    expect(() => parseTag('256')).toThrow(/tag "256": not a u8/);
    expect(() => parseTag('ten')).toThrow(/tag "ten"/);
  });

  it('refuses the end marker, syslinux tags and non-u8 numbers for writing, naming each', () => {
    expect(() => checkWritableTag(0)).toThrow('tag 0x00: reserved as the end marker');
    expect(() => checkWritableTag(1)).toThrow('tag 0x01: reserved for syslinux');
    expect(() => checkWritableTag(2)).toThrow('tag 0x02: reserved for syslinux');
    expect(() => checkWritableTag(256)).toThrow('tag 256: not a u8');
    expect(() => checkWritableTag(-1)).toThrow('tag -1: not a u8');
    expect(() => checkWritableTag(6.5)).toThrow('tag 6.5: not a u8');
    for (const t of [3, 6, 255]) expect(() => checkWritableTag(t)).not.toThrow();
  });
});
