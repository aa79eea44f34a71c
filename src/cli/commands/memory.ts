// `keelctl memory [-v]`: each node's memory in MiB as talosctl's table, or /proc/meminfo-style with -v.
import { tabwrite } from '../../cosi/resource/output/index.js';
import { bool, type ParsedArgs, UsageError } from '../args.js';
import { globalFlags, joinErrors, unaryEach, withSession } from '../client/index.js';
import type { Command } from '../command.js';
import type { Output } from '../io.js';

export const memoryCommand: Command = {
  name: 'memory',
  aliases: ['m', 'free'],
  summary: 'Show memory usage',
  flags: { verbose: { kind: 'bool', short: 'v', usage: 'display extended memory statistics' } },
  global: globalFlags,
  run: runMemory,
};

/** MemInfo as the wire carries it: uint64 kB values arrive as decimal strings. */
export type MemInfo = Record<string, string | number | undefined>;

const kb = (m: MemInfo, k: string): bigint => BigInt(m[k] ?? 0);

/** memoryRow is one node's line: totals in MiB, "used" as total minus free, cache and buffers. */
export function memoryRow(node: string, m: MemInfo): string {
  const mb = (v: bigint) => String(v / 1024n);
  const used = kb(m, 'memtotal') - kb(m, 'memfree') - kb(m, 'cached') - kb(m, 'buffers');
  return [
    node,
    mb(kb(m, 'memtotal')),
    mb(used),
    mb(kb(m, 'memfree')),
    mb(kb(m, 'shmem')),
    mb(kb(m, 'buffers')),
    mb(kb(m, 'cached')),
    mb(kb(m, 'memavailable')),
  ].join('\t');
}

/** The verbose lines, in /proc/meminfo's order; the HugePages counts carry no unit. */
const VERBOSE: readonly (readonly [label: string, field: string, unit: boolean])[] = [
  ['MemTotal', 'memtotal', true],
  ['MemFree', 'memfree', true],
  ['MemAvailable', 'memavailable', true],
  ['Buffers', 'buffers', true],
  ['Cached', 'cached', true],
  ['SwapCached', 'swapcached', true],
  ['Active', 'active', true],
  ['Inactive', 'inactive', true],
  ['ActiveAnon', 'activeanon', true],
  ['InactiveAnon', 'inactiveanon', true],
  ['ActiveFile', 'activefile', true],
  ['InactiveFile', 'inactivefile', true],
  ['Unevictable', 'unevictable', true],
  ['Mlocked', 'mlocked', true],
  ['SwapTotal', 'swaptotal', true],
  ['SwapFree', 'swapfree', true],
  ['Dirty', 'dirty', true],
  ['Writeback', 'writeback', true],
  ['AnonPages', 'anonpages', true],
  ['Mapped', 'mapped', true],
  ['Shmem', 'shmem', true],
  ['Slab', 'slab', true],
  ['SReclaimable', 'sreclaimable', true],
  ['SUnreclaim', 'sunreclaim', true],
  ['KernelStack', 'kernelstack', true],
  ['PageTables', 'pagetables', true],
  ['NFSUnstable', 'nfsunstable', true],
  ['Bounce', 'bounce', true],
  ['WritebackTmp', 'writebacktmp', true],
  ['CommitLimit', 'commitlimit', true],
  ['CommittedAS', 'committedas', true],
  ['VmallocTotal', 'vmalloctotal', true],
  ['VmallocUsed', 'vmallocused', true],
  ['VmallocChunk', 'vmallocchunk', true],
  ['HardwareCorrupted', 'hardwarecorrupted', true],
  ['AnonHugePages', 'anonhugepages', true],
  ['ShmemHugePages', 'shmemhugepages', true],
  ['ShmemPmdMapped', 'shmempmdmapped', true],
  ['CmaTotal', 'cmatotal', true],
  ['CmaFree', 'cmafree', true],
  ['HugePagesTotal', 'hugepagestotal', false],
  ['HugePagesFree', 'hugepagesfree', false],
  ['HugePagesRsvd', 'hugepagesrsvd', false],
  ['HugePagesSurp', 'hugepagessurp', false],
  ['Hugepagesize', 'hugepagesize', true],
  ['DirectMap4k', 'directmap4k', true],
  ['DirectMap2M', 'directmap2m', true],
  ['DirectMap1G', 'directmap1g', true],
];

export const memoryVerbose = (node: string, m: MemInfo): string =>
  [
    `NODE: ${node}`,
    ...VERBOSE.map(([label, field, unit]) => `${label}: ${kb(m, field)}${unit ? ' kB' : ''}`),
  ].join('\n');

async function runMemory(args: ParsedArgs, io: Output, signal: AbortSignal): Promise<number> {
  if (args.positional.length) throw new UsageError('memory takes no arguments');
  const { replies, errors } = await withSession(args, {}, (s) =>
    unaryEach<{ meminfo?: MemInfo }>(s, 'machine.MachineService', 'Memory', {}, signal),
  );
  if (bool(args, 'verbose')) {
    for (const { node, message } of replies) io.out(memoryVerbose(node, message.meminfo ?? {}));
  } else {
    const rows = ['NODE\tTOTAL\tUSED\tFREE\tSHARED\tBUFFERS\tCACHE\tAVAILABLE'];
    for (const { node, message } of replies) rows.push(memoryRow(node, message.meminfo ?? {}));
    io.out(tabwrite(`${rows.join('\n')}\n`, { padding: 3 }).replace(/\n$/, ''));
  }
  const err = joinErrors(errors);
  if (err) throw err;
  return 0;
}
