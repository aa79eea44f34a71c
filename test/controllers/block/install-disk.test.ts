// The install disk selector as upstream's CEL expression: one term per key, joined with &&; the keys that
// cannot be matched are refused naming the key. The evaluation on Disk resources is in
// test/machined/node/install-node.test.ts.
import { describe, expect, it } from 'vitest';
import { InstallDiskSelectorError, installDiskExpression } from '../../../controllers/block/install-disk.js';

describe('installDiskExpression', () => {
  it('makes one term per key: a size comparison, globs, the disk type', () => {
    expect(installDiskExpression({})).toBe('true');
    expect(installDiskExpression({ size: '>= 100GB' })).toBe('disk.size >= 100000000000u');
    expect(installDiskExpression({ size: '4GiB' })).toBe('disk.size == 4294967296u');
    expect(installDiskExpression({ model: 'Samsung*', busPath: '/pci0000:00/*', type: 'ssd' })).toBe(
      'glob("Samsung*", disk.model) && glob("/pci0000:00/*", disk.bus_path) && !disk.rotational',
    );
    expect(installDiskExpression({ serial: 'a"b' })).toBe('glob("a\\"b", disk.serial)');
  });

  it('refuses a name, an unknown type and a size it cannot read, naming the key', () => {
    expect(() => installDiskExpression({ name: '/dev/sda' })).toThrow(
      'machine.install.diskSelector.name: selecting the install disk by name is not supported',
    );
    expect(() => installDiskExpression({ type: 'tape' })).toThrow(InstallDiskSelectorError);
    expect(() => installDiskExpression({ size: 'big' })).toThrow(/^machine\.install\.diskSelector\.size: /);
  });
});
