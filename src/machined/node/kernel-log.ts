// The kernel log into its own ring, so the Logs API serves `kernel` beside machined and the services.
import { dmesgLine } from '../../api/machine/dmesg.js';
import { nextTurn } from '../../cosi/controller/index.js';
import {
  bootTimeNs,
  type KmsgItem,
  type KmsgStreamOptions,
  readKmsgBatches,
} from '../../sys/fs/kmsg-stream.js';
import type { LogRing } from '../logging/ring.js';

/** kernelLogText renders a batch of kmsg items as the ring's lines, upstream's dmesg format. */
export function kernelLogText(batch: readonly KmsgItem[], bootNs: bigint): string {
  let text = '';
  for (const item of batch)
    text += item.type === 'record' ? dmesgLine(item.record, bootNs) : `${item.raw.replace(/\n+$/, '')}\n`;
  return text;
}

/** pumpKernelLog follows /dev/kmsg into `ring` until the signal aborts; a failure is logged, never thrown. */
export function pumpKernelLog(
  ring: LogRing,
  signal: AbortSignal,
  log: (line: string) => void,
  source: Pick<KmsgStreamOptions, 'path' | 'pollMs'> = {},
): Promise<void> {
  const boot = bootTimeNs();
  const opts = { ...source, follow: true, signal };
  // One ring write per batch: at boot the ring's backlog is hundreds of records. Each batch takes a turn
  // of the controller runtime's, as start-up work does, so the backlog gives way to a waiting API client.
  return (async () => {
    await nextTurn();
    for await (const batch of readKmsgBatches(opts)) {
      ring.write(kernelLogText(batch, boot));
      await nextTurn();
    }
  })().catch((e: unknown) => {
    if (!signal.aborted) log(`kernel log: not collected: ${(e as Error).message}`);
  });
}
