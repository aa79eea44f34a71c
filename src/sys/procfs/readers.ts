// The thin readers: open the kernel's files under a root (default / — tests point it at fixtures), hand
// the text to the pure parsers, and turn errno into ProcfsError naming the file.
import { readdir, readFile, readlink, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { type BlockFacts, type Disk, diskOf, isRamDisk } from './block.js';
import { type CPUInfo, parseCPUInfo } from './cpuinfo.js';
import { ProcfsError } from './errors.js';
import { type LoadAvg, parseLoadAvg } from './loadavg.js';
import { type Meminfo, parseMeminfo } from './meminfo.js';
import { type MountEntry, parseMounts } from './mounts.js';
import { type ProcessInfo, processInfo } from './process.js';
import { parseStat, type SystemStat } from './stat.js';

export interface ProcfsOptions {
  /** where procfs is mounted; default /proc */
  readonly proc?: string;
  /** where sysfs is mounted; default /sys */
  readonly sys?: string;
}

const errnoOf = (e: unknown) => (e as NodeJS.ErrnoException | undefined)?.code;

/** wrap names the file in errors the OS gives while reading it. */
export function procfsErrorOf(file: string, cause: unknown): ProcfsError {
  if (cause instanceof ProcfsError) return cause;
  const code = errnoOf(cause);
  const why = cause instanceof Error ? cause.message : String(cause);
  return new ProcfsError(code === 'ENOENT' || code === 'ESRCH' ? 'not-found' : 'unreadable', file, why, {
    cause,
  });
}

async function text(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (cause) {
    throw procfsErrorOf(file, cause);
  }
}

const procRoot = (o: ProcfsOptions) => o.proc ?? '/proc';
const sysRoot = (o: ProcfsOptions) => o.sys ?? '/sys';

export async function readMeminfo(o: ProcfsOptions = {}): Promise<Meminfo> {
  const file = join(procRoot(o), 'meminfo');
  return parseMeminfo(await text(file), file);
}

export async function readLoadAvg(o: ProcfsOptions = {}): Promise<LoadAvg> {
  const file = join(procRoot(o), 'loadavg');
  return parseLoadAvg(await text(file), file);
}

export async function readStat(o: ProcfsOptions = {}): Promise<SystemStat> {
  const file = join(procRoot(o), 'stat');
  return parseStat(await text(file), file);
}

export async function readCPUInfo(o: ProcfsOptions = {}): Promise<CPUInfo[]> {
  const file = join(procRoot(o), 'cpuinfo');
  return parseCPUInfo(await text(file), file);
}

/** readHostname is the UTS namespace's hostname, as the kernel shows it. */
export async function readHostname(o: ProcfsOptions = {}): Promise<string> {
  return (await text(join(procRoot(o), 'sys', 'kernel', 'hostname'))).trim();
}

export async function readMounts(o: ProcfsOptions = {}): Promise<MountEntry[]> {
  const file = join(procRoot(o), 'mounts');
  return parseMounts(await text(file), file);
}

/** optional reads a file that some processes or kernels lack; absence or refusal is ''. */
async function optional(file: string, read: (f: string) => Promise<string>): Promise<string> {
  try {
    return await read(file);
  } catch {
    return '';
  }
}

/** readProcess reads one pid's files; kernel threads have no exe and no cmdline, which is not an error. */
export async function readProcess(
  pid: number,
  pageSize: number,
  o: ProcfsOptions = {},
): Promise<ProcessInfo> {
  const dir = join(procRoot(o), String(pid));
  const statFile = join(dir, 'stat');
  const [stat, comm, cmdline, exe, label] = await Promise.all([
    text(statFile),
    text(join(dir, 'comm')),
    readFile(join(dir, 'cmdline')).catch((cause: unknown) => {
      throw procfsErrorOf(join(dir, 'cmdline'), cause);
    }),
    optional(join(dir, 'exe'), (f) => readlink(f)),
    optional(join(dir, 'attr', 'current'), (f) => readFile(f, 'utf8')),
  ]);
  return processInfo({ stat, comm, cmdline, exe, label, pageSize }, statFile);
}

/** The page size of every Linux architecture Keel runs on (x86-64, arm64 with 4k pages). */
export const PAGE_SIZE = 4096;

const PROCESS_BATCH = 32;

/** readProcesses lists every process; one that exits while it is being read is left out, as upstream does. */
export async function readProcesses(
  o: ProcfsOptions & { readonly pageSize?: number; readonly signal?: AbortSignal } = {},
): Promise<ProcessInfo[]> {
  const root = procRoot(o);
  let names: string[];
  try {
    names = await readdir(root);
  } catch (cause) {
    throw procfsErrorOf(root, cause);
  }
  const pids = names
    .filter((n) => /^\d+$/.test(n))
    .map(Number)
    .sort((a, b) => a - b);
  const one = (pid: number) =>
    readProcess(pid, o.pageSize ?? PAGE_SIZE, o).catch((e: unknown) => {
      if (e instanceof ProcfsError && e.code !== 'malformed') return undefined; // exited meanwhile
      throw e;
    });
  const out: ProcessInfo[] = [];
  // a few at a time: thousands of processes read one by one take a while, all at once exhaust file handles
  for (let i = 0; i < pids.length; i += PROCESS_BATCH) {
    o.signal?.throwIfAborted();
    for (const p of await Promise.all(pids.slice(i, i + PROCESS_BATCH).map(one))) if (p) out.push(p);
  }
  return out;
}

/** readBlockFacts reads one /sys/block entry; attributes a driver does not provide are ''. */
export async function readBlockFacts(name: string, o: ProcfsOptions = {}): Promise<BlockFacts> {
  const dir = join(sysRoot(o), 'block', name);
  const opt = (rel: string) => optional(join(dir, rel), (f) => readFile(f, 'utf8')).then((s) => s.trim());
  const base = async (rel: string) => {
    const target = await optional(join(dir, rel), (f) => readlink(f));
    return target ? target.slice(target.lastIndexOf('/') + 1) : '';
  };
  const [dev, size, ro, rotational, sysPath, bus, model, serial, devSerial, wwid, devWwid, modalias, card] =
    await Promise.all([
      text(join(dir, 'dev')),
      text(join(dir, 'size')),
      opt('ro'),
      opt('queue/rotational'),
      realpath(dir).catch((cause: unknown) => {
        throw procfsErrorOf(dir, cause);
      }),
      base('device/subsystem'),
      opt('device/model'),
      opt('serial'),
      opt('device/serial'),
      opt('wwid'),
      opt('device/wwid'),
      opt('device/modalias'),
      opt('device/name'),
    ]);
  const sectors = size.trim();
  if (!/^\d+$/.test(sectors)) throw new ProcfsError('malformed', join(dir, 'size'), 'not a sector count');
  const subsystem = await optional(join(dir, 'subsystem'), (f) => realpath(f));
  return {
    name,
    dev: dev.trim(),
    sectors: BigInt(sectors),
    readonly: ro === '1',
    rotational: rotational === '1',
    sysPath,
    bus,
    model,
    serial: serial || devSerial,
    wwid: wwid || devWwid,
    modalias,
    cardName: card,
    subsystem,
  };
}

/** readDisks lists /sys/block in name order, without RAM disks. */
export async function readDisks(o: ProcfsOptions = {}): Promise<Disk[]> {
  const dir = join(sysRoot(o), 'block');
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (cause) {
    throw procfsErrorOf(dir, cause);
  }
  const facts = await Promise.all(names.sort().map((n) => readBlockFacts(n, o)));
  return facts.filter((f) => !isRamDisk(f)).map(diskOf);
}
