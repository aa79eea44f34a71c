// MachineService.Mounts: /proc/mounts with statfs sizes, in bytes.

import { statfsDirectory } from '../../sys/fs/statfs.js';
import { readMounts } from '../../sys/procfs/readers.js';
import { type Handler, unaryHandler } from '../handlers.js';
import type { SystemInfoDeps } from './deps.js';
import { mapped } from './errors.js';

export function mountsHandler(deps: SystemInfoDeps = {}): Handler {
  return unaryHandler(async (_req, ctx) => {
    const mounts = await mapped('Mounts', () => readMounts(deps.procfs));
    const stats: Record<string, string>[] = [];
    for (const m of mounts) {
      ctx.signal.throwIfAborted();
      // A mount that vanished or refuses statfs (a stale network mount) is left out: one bad entry should
      // not hide every other file system from the operator.
      const sizes = await statfsDirectory(m.target).catch(() => undefined);
      if (!sizes) continue;
      stats.push({
        filesystem: m.source,
        size: String(sizes.size),
        available: String(sizes.available),
        mounted_on: m.target,
      });
    }
    return { messages: [{ stats }] };
  });
}
