// `keelctl mounts`: each node's mounted filesystems with sizes in GB, as talosctl's table.
import { tabwrite } from '../../cosi/resource/output/index.js';
import { type ParsedArgs, UsageError } from '../args.js';
import { globalFlags, joinErrors, unaryEach, withSession } from '../client/index.js';
import type { Command } from '../command.js';
import type { Output } from '../io.js';

export const mountsCommand: Command = {
  name: 'mounts',
  summary: 'List mounts',
  flags: {},
  global: globalFlags,
  run: runMounts,
};

export interface MountStat {
  filesystem?: string;
  size?: string | number;
  available?: string | number;
  mounted_on?: string;
}

/** mountRow is one filesystem's line; one whose usage is undefined (0 of 0) is left out, as talosctl does. */
export function mountRow(node: string, m: MountStat): string | undefined {
  const size = Number(m.size ?? 0);
  const available = Number(m.available ?? 0);
  const percent = 100 - 100 * (available / size);
  if (Number.isNaN(percent)) return undefined;
  const gb = (v: number) => (v * 1e-9).toFixed(2);
  return [
    node,
    m.filesystem ?? '',
    gb(size),
    gb(size - available),
    gb(available),
    `${percent.toFixed(2)}%`,
    m.mounted_on ?? '',
  ].join('\t');
}

async function runMounts(args: ParsedArgs, io: Output, signal: AbortSignal): Promise<number> {
  if (args.positional.length) throw new UsageError('mounts takes no arguments');
  const { replies, errors } = await withSession(args, {}, (s) =>
    unaryEach<{ stats?: MountStat[] }>(s, 'machine.MachineService', 'Mounts', {}, signal),
  );
  const rows = ['NODE\tFILESYSTEM\tSIZE(GB)\tUSED(GB)\tAVAILABLE(GB)\tPERCENT USED\tMOUNTED ON'];
  for (const { node, message } of replies)
    for (const m of message.stats ?? []) {
      const row = mountRow(node, m);
      if (row !== undefined) rows.push(row);
    }
  io.out(tabwrite(`${rows.join('\n')}\n`, { padding: 3 }).replace(/\n$/, ''));
  const err = joinErrors(errors);
  if (err) throw err;
  return 0;
}
