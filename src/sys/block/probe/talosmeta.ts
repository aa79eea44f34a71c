// Talos META: two 256 KiB ADV copies, each framed by magic1 at its start and magic2 in its last
// four bytes (big-endian). Either intact copy identifies the partition; its contents are the META
// codec's business, not the prober's.
import { magic, type Prober } from './prober.js';

const MAGIC1 = [0x5a, 0x4b, 0x3c, 0x2d];
const MAGIC2 = Buffer.from([0xa5, 0xb4, 0xc3, 0xd2]);
const COPY = 256 * 1024;

export const talosmeta: Prober = {
  name: 'talosmeta',
  magics: [magic(0, MAGIC1), magic(COPY, MAGIC1)],
  probe(vol, matched) {
    const tail = vol.read(matched.offset + COPY - MAGIC2.length, MAGIC2.length);
    if (!tail?.equals(MAGIC2)) return undefined;
    // upstream reports both copies, whichever of them was found
    return { type: 'talosmeta', probedSize: 2 * COPY };
  },
};
