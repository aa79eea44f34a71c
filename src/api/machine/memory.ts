// MachineService.Memory: /proc/meminfo as MemInfo, in the kernel's kB as upstream reports it.

import { meminfoFieldName } from '../../sys/procfs/meminfo.js';
import { readMeminfo } from '../../sys/procfs/readers.js';
import { type Handler, unaryHandler } from '../handlers.js';
import type { SystemInfoDeps } from './deps.js';
import { mapped } from './errors.js';

/** MemInfo's fields; kernel keys outside this list (newer kernels add some) have no field to go to. */
export const MEMINFO_FIELDS: ReadonlySet<string> = new Set([
  'memtotal',
  'memfree',
  'memavailable',
  'buffers',
  'cached',
  'swapcached',
  'active',
  'inactive',
  'activeanon',
  'inactiveanon',
  'activefile',
  'inactivefile',
  'unevictable',
  'mlocked',
  'swaptotal',
  'swapfree',
  'dirty',
  'writeback',
  'anonpages',
  'mapped',
  'shmem',
  'slab',
  'sreclaimable',
  'sunreclaim',
  'kernelstack',
  'pagetables',
  'nfsunstable',
  'bounce',
  'writebacktmp',
  'commitlimit',
  'committedas',
  'vmalloctotal',
  'vmallocused',
  'vmallocchunk',
  'hardwarecorrupted',
  'anonhugepages',
  'shmemhugepages',
  'shmempmdmapped',
  'cmatotal',
  'cmafree',
  'hugepagestotal',
  'hugepagesfree',
  'hugepagesrsvd',
  'hugepagessurp',
  'hugepagesize',
  'directmap4k',
  'directmap2m',
  'directmap1g',
]);

/** memInfoMessage picks the kernel values that have a MemInfo field. */
export function memInfoMessage(info: ReadonlyMap<string, number>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of info) {
    const field = meminfoFieldName(key);
    if (MEMINFO_FIELDS.has(field)) out[field] = String(value);
  }
  return out;
}

export function memoryHandler(deps: SystemInfoDeps = {}): Handler {
  return unaryHandler(async () => {
    const info = await mapped('Memory', () => readMeminfo(deps.procfs));
    return { messages: [{ meminfo: memInfoMessage(info) }] };
  });
}
