// The kernel log into its own ring, so the Logs API serves `kernel` beside machined and the services.
import { dmesgLine } from '../../api/machine/dmesg.js';
import { bootTimeNs, readKmsgStream } from '../../sys/fs/kmsg-stream.js';
import { pumpLines } from '../logging/lines.js';
import type { LogRing } from '../logging/ring.js';

/** pumpKernelLog follows /dev/kmsg into `ring` until the signal aborts; a failure is logged, never thrown. */
export function pumpKernelLog(ring: LogRing, signal: AbortSignal, log: (line: string) => void): void {
  const boot = bootTimeNs();
  async function* lines(): AsyncGenerator<string> {
    for await (const item of readKmsgStream({ follow: true, signal })) {
      yield item.type === 'record' ? dmesgLine(item.record, boot) : item.raw;
    }
  }
  pumpLines(lines(), ring, { signal }).catch((e: unknown) => {
    if (!signal.aborted) log(`kernel log: not collected: ${(e as Error).message}`);
  });
}
