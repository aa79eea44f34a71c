// MachineService.DiskUsage: sizes of the trees under the requested paths, filtered by depth, files and
// threshold as upstream does.

import { diskUsage, type UsageEntry } from '../../sys/fs/disk-usage.js';
import { normalizeRoot } from '../../sys/fs/walk.js';
import { type ApiMessage, type Handler, serverStreamHandler } from '../handlers.js';
import { invalidArgument, mapped } from './errors.js';

export interface UsageFilter {
  /** 0: no limit; otherwise entries at this depth or deeper are left out (the root is depth 0) */
  readonly recursionDepth: number;
  /** include files, not only directories */
  readonly all: boolean;
  /** positive: leave out entries smaller than this; negative: leave out entries larger than its magnitude */
  readonly threshold: number;
}

export function usageFilter(req: ApiMessage): UsageFilter {
  const threshold = Number(req.threshold ?? 0);
  if (!Number.isSafeInteger(threshold)) throw invalidArgument('DiskUsage', 'threshold', 'not an integer');
  const depth = typeof req.recursion_depth === 'number' ? req.recursion_depth : 0;
  if (depth < 0) throw invalidArgument('DiskUsage', 'recursion_depth', `must not be negative, got ${depth}`);
  return { recursionDepth: depth, all: req.all === true, threshold };
}

/** shown applies the filter to one entry (errors always go out). */
export function shown(e: UsageEntry, f: UsageFilter): boolean {
  if (e.error) return true;
  if (f.recursionDepth > 0 && e.depth >= f.recursionDepth) return false;
  if (!e.isDir && !f.all) return false;
  if (f.threshold > 0 && e.size < f.threshold) return false;
  if (f.threshold < 0 && e.size > -f.threshold) return false;
  return true;
}

export const usageMessage = (e: UsageEntry): ApiMessage =>
  e.error
    ? { name: e.fullPath, relative_name: e.relPath, error: e.error }
    : { name: e.fullPath, relative_name: e.relPath, size: e.size };

export function diskUsageHandler(): Handler {
  return serverStreamHandler(async (req, send, ctx) => {
    const filter = usageFilter(req);
    const paths = ((req.paths as unknown[] | undefined) ?? []).map((p) => normalizeRoot(String(p)));
    await mapped('DiskUsage', async () => {
      for (const path of paths)
        for await (const e of diskUsage(path, { signal: ctx.signal }))
          if (shown(e, filter)) await send(usageMessage(e));
    });
  });
}
