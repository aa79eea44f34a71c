// `machine.disks` rules: only the last partition of a disk may take the rest of it (size 0 or unset).
import type { MachineDisk } from '../types/v1alpha1/machine.js';
import type { RuleContext } from './context.js';
import { parseSize } from './formats.js';

export function validateDisks(disks: readonly MachineDisk[], ctx: RuleContext): void {
  disks.forEach((disk, i) => {
    const parts = disk.partitions ?? [];
    parts.forEach((pt, j) => {
      const at = `machine.disks[${i}].partitions[${j}].size`;
      // upstream's DiskSize takes a byte count or a human size while decoding
      const size = pt.size === undefined ? 0 : parseSize(pt.size);
      if (size === undefined) ctx.error(at, `invalid disk size ${JSON.stringify(pt.size)}`);
      else if (size === 0 && j !== parts.length - 1)
        ctx.error(
          at,
          `partition for disk ${JSON.stringify(disk.device ?? '')} is set to occupy full disk, but it's not the last partition in the list`,
        );
    });
  });
}
