// The prober chain in upstream go-blockdevice's order (xfs, ext, vfat, swap, [lvm2, gpt, zfs],
// squashfs, talosmeta, luks, iso9660, [bluestore]; the bracketed ones are not ported here). Each
// prober whose magic matches is asked in turn, and the first that vouches for the volume wins, so
// overlapping signatures (an iso9660 whose system area holds a FAT or GPT) resolve by this order.
import { ProbeError } from './errors.js';
import { ext } from './ext.js';
import { iso9660 } from './iso9660.js';
import { luks } from './luks.js';
import type { ProbeResult, Prober, ReadAt } from './prober.js';
import { squashfs } from './squashfs.js';
import { swap } from './swap.js';
import { talosmeta } from './talosmeta.js';
import { vfat } from './vfat.js';
import { volumeOf } from './volume.js';
import { xfs } from './xfs.js';

export const CHAIN: readonly Prober[] = [xfs, ext, vfat, swap, squashfs, talosmeta, luks, iso9660];

/**
 * probe identifies the volume on a device of `size` bytes read through `readAt`: undefined when no
 * prober recognises it (blank, random or damaged bytes). Errors thrown by `readAt` pass through.
 */
export function probe(
  readAt: ReadAt,
  size: number,
  chain: readonly Prober[] = CHAIN,
): ProbeResult | undefined {
  if (!Number.isSafeInteger(size) || size < 0) {
    throw new ProbeError('invalid-argument', 'probe', `device size ${size} is not a byte count`);
  }
  const vol = volumeOf(readAt, size);
  for (const prober of chain) {
    for (const m of prober.magics) {
      if (!vol.read(m.offset, m.value.length)?.equals(m.value)) continue;
      const found = prober.probe(vol, m);
      if (found) return found;
    }
  }
  return undefined;
}
